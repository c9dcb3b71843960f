// Callers and callees of the selected function (speedscope's "sandwich", the link's panel=sandwich): the callees merged over
// all its call sites, and the inverted tree of its callers, drawn so that the function sits
// between the two graphs. Each graph has its own zoom, hover and tooltip.

import { useCallback } from 'react';
import { topPane } from '../../core/query/callers-callees';
import { callersSource, calleesSource } from '../../controllers/flame-sources';
import { currentCallersCallees, callersCalleesPending } from '../../store/selectors';
import { displayName } from '../../core/query/table-model';
import { registerRenderer } from '../../render/debug-hook';
import type { FlameRenderer } from '../../render/flame-renderer';
import type { CallersCalleesPane } from '../../store/analysis-slice';
import { useStore } from '../../store/store';
import { currentTree } from '../../store/tree-helpers';
import { FlameGraph } from '../FlameGraph';
import { CallersCalleesTooltip } from './CallersCalleesTooltip';
import { formatPercent } from '../../format';

const LABELS: Record<CallersCalleesPane, string> = { callers: 'Callers flame graph', callees: 'Callees flame graph' };

function useRegister(label: string) {
  return useCallback(
    (r: FlameRenderer | null) => registerRenderer(label, r, () => document.querySelector<HTMLCanvasElement>(`[aria-label="${label}"] canvas`)),
    [label],
  );
}

function Pane({ pane, name }: { pane: CallersCalleesPane; name: string }) {
  const onRenderer = useRegister(LABELS[pane]);
  return (
    <div className="callers-callees-pane" data-callers-callees-pane={pane}>
      <h3 className="callers-callees-heading">
        {pane === 'callers' ? 'Callers of ' : 'Callees of '}
        <span className="callers-callees-fn">{name}</span>
      </h3>
      <FlameGraph label={LABELS[pane]} source={pane === 'callers' ? callersSource : calleesSource} tooltip={<CallersCalleesTooltip pane={pane} />} onRenderer={onRenderer} />
    </div>
  );
}

export function CallersCalleesView() {
  const fn = useStore((s) => s.analysis.selectedFunction);
  const short = useStore((s) => s.analysis.shortNames);
  const orientation = useStore((s) => s.orientation);
  const trees = useStore(currentCallersCallees);
  const pending = useStore(callersCalleesPending);
  const root = useStore((s) => {
    const t = currentTree(s);
    return t && t.nodeCount > 0 ? t.totalWeight[0] : 0;
  });
  if (fn === null) {
    return (
      <section className="callers-callees" aria-label="Callers and callees">
        <p className="fn-empty">Select a function in the function table, or a frame in the flame graph, to see its callers and callees.</p>
      </section>
    );
  }
  if (!trees && pending) {
    return (
      <section className="callers-callees" aria-label="Callers and callees" aria-busy="true">
        <p className="fn-empty">
          Computing the callers and callees of <span className="callers-callees-fn">{fn}</span>…
        </p>
      </section>
    );
  }
  if (!trees) {
    return (
      <section className="callers-callees" aria-label="Callers and callees">
        <p className="fn-empty">
          <span className="callers-callees-fn">{fn}</span> is not in the frames shown.
        </p>
      </section>
    );
  }
  const name = displayName(fn, short);
  const top = topPane(orientation);
  const bottom: CallersCalleesPane = top === 'callers' ? 'callees' : 'callers';
  return (
    <section className="callers-callees" aria-label="Callers and callees">
      <p className="fn-caption" data-testid="callers-callees-caption" title={fn}>
        <span className="callers-callees-fn">{name}</span>: {formatPercent(root > 0 ? trees.total / root : 0)} of the profile
      </p>
      <Pane key={top} pane={top} name={name} />
      <Pane key={bottom} pane={bottom} name={name} />
    </section>
  );
}

// The comparison views. Side by side: the baseline (A, the store's main graph, keyboard and all)
// and the comparison (B), zoom and search synchronised by frame path. Differential: one graph
// shaped by B (or A) coloured by the change of each frame, with its legend. Both: the table of
// the functions whose self weight changed most.

import { useCallback, useEffect } from 'react';
import { registerRenderer } from '../../render/debug-hook';
import { comparisonSource, diffSource, mainSource } from '../../controllers/flame-sources';
import { syncVerticalScroll } from '../../controllers/scroll-sync';
import { shownColours } from '../../controllers/compare-results';
import { sideOf } from '../../core/query/diff-sides';
import type { FlameRenderer } from '../../render/flame-renderer';
import { useStore } from '../../store/store';
import { currentTree } from '../../store/tree-helpers';
import { FlameGraph } from '../FlameGraph';
import { DiffLegend } from './DiffLegend';
import { DiffTooltip } from './DiffTooltip';
import { ChangeTable } from './ChangeTable';
import { ZoomPath } from '../ZoomPath';
import '../../styles/compare.css';

function useRegister(label: string) {
  return useCallback(
    (r: FlameRenderer | null) => registerRenderer(label, r, () => document.querySelector<HTMLCanvasElement>(`[aria-label="${label}"] canvas`)),
    [label],
  );
}

export function CompareView() {
  const mode = useStore((s) => s.compare.mode);
  return (
    <div className="compare-view">
      {mode === 'side' ? <SideBySide /> : <Differential />}
      <SyncNotice />
      <ChangeTable />
    </div>
  );
}

function SyncNotice() {
  const text = useStore((s) => (s.compare.mode === 'side' ? s.compare.syncNotice : null));
  return (
    <p className="compare-sync" role="status">
      {text}
    </p>
  );
}

function SideBySide() {
  const a = useStore((s) => s.recordings.a.snapshot);
  const b = useStore((s) => s.recordings.b.snapshot);
  const view = useStore((s) => s.view);
  const zoomA = useStore((s) => s.panes.main.zoomNode);
  const zoomB = useStore((s) => s.panes.side.zoomNode);
  const baseTree = useStore((s) => s.recordings.a.snapshot !== null && currentTree(s) === sideOf(s.recordings.a.snapshot, s.view).tree);
  const onBaseline = useRegister('Baseline flame graph');
  const onComparison = useRegister('Comparison flame graph');
  useEffect(() => {
    const base = document.querySelector<HTMLElement>('[aria-label="Baseline flame graph"]');
    const comp = document.querySelector<HTMLElement>('[aria-label="Comparison flame graph"]');
    return base && comp ? syncVerticalScroll(base, comp, () => useStore.getState().orientation === 'icicle') : undefined;
  }, []);
  if (!a || !b) return null;
  const sideA = sideOf(a, view);
  const sideB = sideOf(b, view);
  return (
    <div className="compare-columns">
      <div className="compare-column" data-compare-pane="main">
        <ZoomPath label="Baseline zoom path" heading="A · baseline" tree={sideA.tree} frames={a.frames} zoomNode={zoomA} onZoom={(n) => mainSource.zoom(n)} />
        {/* The baseline's figures in both runs, unless it shows a transformed tree the comparison does not. */}
        <FlameGraph label="Baseline flame graph" tooltip={baseTree ? <DiffTooltip pane="main" /> : undefined} onRenderer={onBaseline} />
      </div>
      <div className="compare-column" data-compare-pane="side">
        <ZoomPath label="Comparison zoom path" heading="B · comparison" tree={sideB.tree} frames={b.frames} zoomNode={zoomB} onZoom={(n) => comparisonSource.zoom(n)} />
        <FlameGraph label="Comparison flame graph" source={comparisonSource} tooltip={<DiffTooltip pane="side" />} onRenderer={onComparison} />
      </div>
    </div>
  );
}

function Differential() {
  const a = useStore((s) => s.recordings.a.snapshot);
  const b = useStore((s) => s.recordings.b.snapshot);
  const view = useStore((s) => s.view);
  const shape = useStore((s) => s.compare.shape);
  const norm = useStore((s) => s.compare.norm);
  const zoom = useStore((s) => s.panes.diff.zoomNode);
  // The colour scale's extreme, once the compare worker has answered for what is shown.
  const maxAbs = useStore((s) => shownColours(s)?.maxAbs ?? null);
  const onDiff = useRegister('Differential flame graph');
  if (!a || !b) return null;
  const side = sideOf(shape === 'B' ? b : a, view);
  return (
    <div className="compare-column" data-compare-pane="diff">
      <DiffLegend maxAbs={maxAbs ?? 0} norm={norm} shape={shape} ns={a.meta.weightUnit === 'nanoseconds'} />
      <ZoomPath
        label="Differential zoom path"
        heading={`Differential · shaped by ${shape === 'B' ? 'B (comparison)' : 'A (baseline)'}`}
        tree={side.tree}
        frames={side.frames}
        zoomNode={zoom}
        onZoom={(n) => diffSource.zoom(n)}
      />
      <FlameGraph label="Differential flame graph" source={diffSource} tooltip={<DiffTooltip pane="diff" />} onRenderer={onDiff} />
    </div>
  );
}

// The comparison views. Side by side: the baseline (A, the store's main graph, keyboard and all)
// and the comparison (B), zoom and search synchronised by frame path. Differential: one graph
// shaped by B (or A) coloured by the change of each frame, with its legend. Both: the table of
// the functions whose self weight changed most.

import { useCallback, useEffect, useMemo } from 'react';
import { registerRenderer } from '../../render/debug-hook';
import { comparisonSource, diffSource, mainSource, startCompareSync } from '../../controllers/flame-sources';
import { syncVerticalScroll } from '../../controllers/scroll-sync';
import { diffOf, sideOf, totalDeltas } from '../../core/query/diff-sides';
import type { FlameRenderer } from '../../render/flame-renderer';
import { useStore } from '../../store/store';
import { FlameGraph } from '../FlameGraph';
import { DiffLegend } from './DiffLegend';
import { DiffTooltip } from './DiffTooltip';
import { ChangeTable } from './ChangeTable';
import { ZoomPath } from './ZoomPath';
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
  const a = useStore((s) => s.snapshot);
  const b = useStore((s) => s.compare.snapshot);
  const view = useStore((s) => s.view);
  const zoomA = useStore((s) => s.zoomNode);
  const zoomB = useStore((s) => s.compare.side.zoomNode);
  const onBaseline = useRegister('Baseline flame graph');
  const onComparison = useRegister('Comparison flame graph');
  useEffect(() => startCompareSync(), []);
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
        <h2 className="compare-heading">A · baseline</h2>
        <ZoomPath label="Baseline zoom path" tree={sideA.tree} frames={a.frames} zoomNode={zoomA} onZoom={(n) => mainSource.zoom(n)} />
        <FlameGraph label="Baseline flame graph" onRenderer={onBaseline} />
      </div>
      <div className="compare-column" data-compare-pane="side">
        <h2 className="compare-heading">B · comparison</h2>
        <ZoomPath label="Comparison zoom path" tree={sideB.tree} frames={b.frames} zoomNode={zoomB} onZoom={(n) => comparisonSource.zoom(n)} />
        <FlameGraph label="Comparison flame graph" source={comparisonSource} tooltip={<DiffTooltip pane="side" />} onRenderer={onComparison} />
      </div>
    </div>
  );
}

function Differential() {
  const a = useStore((s) => s.snapshot);
  const b = useStore((s) => s.compare.snapshot);
  const view = useStore((s) => s.view);
  const shape = useStore((s) => s.compare.shape);
  const norm = useStore((s) => s.compare.norm);
  const zoom = useStore((s) => s.compare.diff.zoomNode);
  const onDiff = useRegister('Differential flame graph');
  const diff = useMemo(() => (a && b ? diffOf(a, b, view, shape) : null), [a, b, view, shape]);
  if (!a || !b || !diff) return null;
  const side = shape === 'B' ? diff.b : diff.a;
  const { maxAbs } = totalDeltas(diff, norm);
  return (
    <div className="compare-column" data-compare-pane="diff">
      <h2 className="compare-heading">Differential · shaped by {shape === 'B' ? 'B (comparison)' : 'A (baseline)'}</h2>
      <DiffLegend maxAbs={maxAbs} norm={norm} shape={shape} ns={a.meta.weightUnit === 'nanoseconds'} />
      <ZoomPath label="Differential zoom path" tree={side.tree} frames={side.frames} zoomNode={zoom} onZoom={(n) => diffSource.zoom(n)} />
      <FlameGraph label="Differential flame graph" source={diffSource} tooltip={<DiffTooltip pane="diff" />} onRenderer={onDiff} />
    </div>
  );
}

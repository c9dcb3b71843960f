// The time-order chart above the flame graph (perf script recordings, which carry timestamps):
// the samples' stacks in time order, and the selected time range, which restricts the flame graph
// and the function table. The canvas and its input live in TimeChartController; this component
// only mounts it and renders the header, the range words and the tooltip.
// While the chart is closed but a range is selected, a one-line bar says so and can clear it.

import { useEffect, useMemo, useRef, type KeyboardEvent } from 'react';
import { useStore } from '../../store/store';
import { rangeText } from '../../render/range-text';
import { TimeChartController } from '../../controllers/time-chart-controller';
import { TimeChartTooltip } from './TimeChartTooltip';
import '../../styles/time-order.css';

export function TimeOrderChart() {
  const samples = useStore((s) => s.recordings.a.snapshot?.samples ?? null);
  const open = useStore((s) => s.timeChartOpen);
  const range = useStore((s) => s.timeRange);
  if (!samples) return null;
  if (!open) return range ? <RangeBar chart={false} /> : null;
  return <ChartPanel />;
}

function onEscape(e: KeyboardEvent<HTMLElement>) {
  if (e.key !== 'Escape' || e.altKey || e.ctrlKey || e.metaKey) return;
  const s = useStore.getState();
  if (!s.timeRange) return;
  e.preventDefault();
  e.stopPropagation();
  s.setTimeRange(null);
}

function RangeBar({ chart }: { chart: boolean }) {
  const samples = useStore((s) => s.recordings.a.snapshot?.samples ?? null);
  const range = useStore((s) => s.timeRange);
  const setTimeRange = useStore((s) => s.setTimeRange);
  const setOpen = useStore((s) => s.setTimeChartOpen);
  const text = useMemo(() => (samples && range ? rangeText(range, samples, samples.time[0]) : null), [samples, range]);
  return (
    <div className="time-range-bar" onKeyDown={onEscape}>
      {chart && <h2 className="time-title">Time order</h2>}
      <span className="time-range" role="status" aria-live="polite" data-testid="time-range">
        {text ? (
          <>
            Time range: <span className="time-range-text">{text}</span>
          </>
        ) : chart ? (
          <span className="muted">Drag across the chart to select a time range; the flame graph then shows only its samples.</span>
        ) : null}
      </span>
      {text && (
        <button type="button" className="btn btn-small" aria-keyshortcuts="Escape" onClick={() => setTimeRange(null)}>
          Clear range
        </button>
      )}
      {!chart && (
        <button type="button" className="btn btn-small" onClick={() => setOpen(true)}>
          Show time order
        </button>
      )}
    </div>
  );
}

function ChartPanel() {
  const container = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const spacer = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!container.current || !canvas.current || !spacer.current) return;
    const controller = new TimeChartController(container.current, canvas.current, spacer.current);
    return () => controller.destroy();
  }, []);
  return (
    <section className="time-chart-panel" aria-label="Time order" onKeyDown={onEscape}>
      <RangeBar chart />
      <div className="time-chart-wrap">
        <div
          ref={container}
          className="time-chart"
          role="img"
          aria-label="Stack chart of the samples in time order"
          aria-describedby="time-chart-help"
          aria-busy="true"
          tabIndex={0}
        >
          <canvas ref={canvas} className="time-chart-canvas" aria-hidden="true" />
          <div ref={spacer} className="time-chart-spacer" />
        </div>
        <TimeChartTooltip />
      </div>
      <p id="time-chart-help" className="visually-hidden">
        Drag across the chart to select a time range; Escape clears it. The wheel zooms in time, shift and the wheel scroll the
        rows, a double-click shows the whole recording.
      </p>
    </section>
  );
}

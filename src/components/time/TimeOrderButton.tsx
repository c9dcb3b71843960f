// Toolbar toggle for the time-order chart; disabled (with the reason as its title) when the
// recording carries no timestamps.

import { useStore } from '../../store/store';
import { ClockIcon } from '../toolbar/Icons';

export function TimeOrderButton() {
  const hasSamples = useStore((s) => s.recordings.a.snapshot?.samples != null);
  const open = useStore((s) => s.timeChartOpen);
  const setOpen = useStore((s) => s.setTimeChartOpen);
  return (
    <button
      type="button"
      className="btn btn-icon"
      aria-label="Time order"
      aria-pressed={hasSamples && open}
      disabled={!hasSamples}
      title={hasSamples ? 'Show the samples in time order and select a time range' : 'Only perf script recordings with timestamps have a time order'}
      onClick={() => setOpen(!open)}
    >
      <ClockIcon />
    </button>
  );
}

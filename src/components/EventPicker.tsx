// The event picker, shown when the recording has samples of several events, and for every perf
// script recording (one event too: its tooltip is where a user learns how to record off-CPU time).
// Picking one asks the shell to read the recording again for that event (store.requestReload). A
// perf recording with sched:sched_switch also offers the derived Off-CPU and Wall clock events; the
// tooltip says how to record them when they are absent.

import { useStore } from '../store/store';

export function EventPicker() {
  const meta = useStore((s) => s.recordings.a.snapshot?.meta);
  const loading = useStore((s) => s.recordings.a.loading !== null);
  const requestReload = useStore((s) => s.requestReload);
  if (!meta || meta.events.length === 0 || (meta.events.length < 2 && meta.format !== 'perf-script')) return null;
  const derived = meta.events.some((e) => e.name === 'Off-CPU');
  const title = derived
    ? 'Off-CPU and Wall clock are derived from sched:sched_switch: time off CPU per state, and on plus off CPU'
    : 'Off-CPU and Wall clock need sched:sched_switch: perf record -e cpu-clock -e sched:sched_switch --call-graph dwarf';
  return (
    <label className="picker" title={meta.format === 'perf-script' ? title : undefined}>
      Event
      <select value={meta.event ?? ''} disabled={loading} onChange={(e) => requestReload({ event: e.target.value })}>
        {meta.events.map((ev) => (
          <option key={ev.name} value={ev.name}>
            {ev.name} ({ev.samples.toLocaleString('en-US')} samples)
          </option>
        ))}
      </select>
    </label>
  );
}

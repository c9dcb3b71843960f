// The event picker, shown when the recording has samples of several events. Picking one asks the
// shell to read the recording again for that event (store.requestReload).

import { useStore } from '../store/store';

export function EventPicker() {
  const meta = useStore((s) => s.snapshot?.meta);
  const loading = useStore((s) => s.loading !== null);
  const requestReload = useStore((s) => s.requestReload);
  if (!meta || meta.events.length < 2) return null;
  return (
    <label className="picker">
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

// What the frame colours mean, beside the view toggle: a swatch per family of frame present in
// the recording (function, inlined, kernel, JIT, off-CPU), in the current theme's colours.

import { useEffect, useMemo, useState } from 'react';
import { FAMILIES, familiesPresent, familyCss, watchTheme } from '../../core/palette';
import { useStore } from '../../store/store';

/** Whether the canvas graphs draw in their dark theme (the system's colour scheme). */
export function useDarkTheme(): boolean {
  const [dark, setDark] = useState(false);
  useEffect(() => watchTheme((t) => setDark(t.dark)), []);
  return dark;
}

export function FrameLegend() {
  const frames = useStore((s) => s.recordings.a.snapshot?.frames ?? null);
  const dark = useDarkTheme();
  const present = useMemo(() => (frames ? familiesPresent(frames) : 1), [frames]);
  return (
    <ul className="legend" aria-label="Frame colours">
      {FAMILIES.map((f, i) =>
        present & (1 << i) ? (
          <li key={f.key} title={f.title}>
            <span className="legend-swatch" style={{ background: familyCss(f.flag, dark) }} aria-hidden="true" />
            {f.label}
          </li>
        ) : null,
      )}
    </ul>
  );
}

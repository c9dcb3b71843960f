// The differential graph's legend: the colour scale from "shrank most" through "unchanged" to
// "grew most" with its extreme values, and the hatching of frames only the shaping run has.

import { DIFF_CSS } from '../../render/diff-palette';
import type { DiffNorm, DiffShape } from '../../core/views/diff';
import { formatDelta } from '../../format';

export function DiffLegend({ maxAbs, norm, shape, ns }: { maxAbs: number; norm: DiffNorm; shape: DiffShape; ns: boolean }) {
  const gradient = `linear-gradient(to right, ${DIFF_CSS.join(', ')})`;
  return (
    <div className="diff-legend" role="group" aria-label="Colour scale">
      <span className="diff-legend-label">{maxAbs > 0 ? formatDelta(-maxAbs, norm, ns) : '0'} shrank</span>
      <span className="diff-legend-bar" style={{ background: gradient }} aria-hidden="true" />
      <span className="diff-legend-label">grew {maxAbs > 0 ? formatDelta(maxAbs, norm, ns) : '0'}</span>
      <span className="diff-legend-swatch" aria-hidden="true" />
      <span className="diff-legend-label">{shape === 'B' ? 'new in B (not in A)' : 'gone in B (only in A)'}</span>
      <span className="compare-muted">Colour: change of each frame’s total{norm === 'pct' ? ', in points of each run’s total' : ''}; grey: unchanged.</span>
    </div>
  );
}

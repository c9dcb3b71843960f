// The comparison's parameters in the location hash, beside the shell's `profile`:
//   #profile=a.txt&compare=b.txt&mode=diff&norm=abs
// Validated: unknown values are ignored (defaults: mode=side, norm=pct, written only when not
// the default); other parameters are kept as they are.

import type { DiffNorm } from '../core/views/diff';
import type { CompareMode } from '../store/compare-slice';

export interface CompareParams {
  compare: string | null;
  mode: CompareMode | null;
  norm: DiffNorm | null;
}

export function compareParamsFromHash(hash: string): CompareParams {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const compare = params.get('compare')?.trim() || null;
  const mode = params.get('mode');
  const norm = params.get('norm');
  return {
    compare,
    mode: mode === 'side' || mode === 'diff' ? mode : null,
    norm: norm === 'pct' || norm === 'abs' ? norm : null,
  };
}

/** The hash with the comparison parameters set (null removes one; defaults are left out). */
export function withCompareParams(hash: string, p: CompareParams): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  if (p.compare) params.set('compare', p.compare);
  else params.delete('compare');
  if (p.mode && p.mode !== 'side') params.set('mode', p.mode);
  else params.delete('mode');
  if (p.norm && p.norm !== 'pct') params.set('norm', p.norm);
  else params.delete('norm');
  const text = params.toString();
  return text === '' ? '' : `#${text}`;
}

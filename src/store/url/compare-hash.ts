// The comparison's parameters in the location hash, beside the shell's `profile`:
//   #profile=a.txt&compare=b.txt&mode=diff&norm=abs
// Read once at start-up so B loads in parallel with A; writing and back/forward belong to the
// URL state (url-params.ts). Unknown values are ignored.

import type { DiffNorm } from '../../core/views/diff';
import type { CompareMode } from '../compare-slice';

export interface CompareParams {
  /** Every compare= in order (several: B is their sum); empty when none. */
  compare: string[];
  mode: CompareMode | null;
  norm: DiffNorm | null;
}

export function compareParamsFromHash(hash: string): CompareParams {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  const compare = params
    .getAll('compare')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  const mode = params.get('mode');
  const norm = params.get('norm');
  return {
    compare,
    mode: mode === 'side' || mode === 'diff' ? mode : null,
    norm: norm === 'pct' || norm === 'abs' ? norm : null,
  };
}

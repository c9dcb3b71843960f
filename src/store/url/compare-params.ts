// The comparison's link parameters, registered with the URL state (store/url-state.ts):
//   compare=<url of B>   mode=side|diff (default side)   norm=pct|abs (default pct)
// url-sync writes them from the store and applies them on back/forward or an edited hash (a new
// compare= becomes the store's compare.openRequest, which the comparison's loader opens). At
// start-up controllers/recordings.ts reads `compare=` itself, so B starts loading at once, in
// parallel with A, instead of after A has opened.

import { useStore } from '../store';
import { registerUrlParam, type ParseResult } from './url-state';

function oneOf<T extends string>(key: string, values: readonly T[]) {
  return (v: string): ParseResult<T> =>
    (values as readonly string[]).includes(v) ? { ok: true, value: v as T } : { ok: false, notice: `The link's ${key}=${v.slice(0, 40)} is not one of ${values.join(', ')}; it was ignored.` };
}

registerUrlParam<string>({
  key: 'compare',
  history: 'replace',
  order: 40,
  parse: (v) => (v.trim() === '' || v.length > 4000 ? { ok: false, notice: 'The link’s compare value is empty or too long; it was ignored.' } : { ok: true, value: v.trim() }),
  write: (s) => (s.compare.snapshot || s.compare.loading ? s.compare.requestedUrl : null),
  // Absent: keep what is open (a comparison opened from a file has no URL).
  apply: (value) => {
    const s = useStore.getState();
    if (value !== undefined && value !== s.compare.requestedUrl) s.requestCompareOpen(value);
  },
});

registerUrlParam<'side' | 'diff'>({
  key: 'mode',
  history: 'replace',
  order: 41,
  parse: oneOf('mode', ['side', 'diff'] as const),
  write: (s) => (s.compare.snapshot && s.compare.mode !== 'side' ? s.compare.mode : null),
  apply: (value) => useStore.getState().setCompareMode(value ?? 'side'),
});

registerUrlParam<'pct' | 'abs'>({
  key: 'norm',
  history: 'replace',
  order: 42,
  parse: oneOf('norm', ['pct', 'abs'] as const),
  write: (s) => (s.compare.snapshot && s.compare.norm !== 'pct' ? s.compare.norm : null),
  apply: (value) => useStore.getState().setCompareNorm(value ?? 'pct'),
});

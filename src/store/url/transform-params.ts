// The transform stack and the reversed switch in the link (store/url-state.ts):
//   transforms=focus:NAME,subtree:PATH,merge:NAME,drop:NAME,drec,anyrec:NAME,collapse-lib:LIB,…
//                                                                            (history: push)
//   (every form: core/views/transforms-codec.ts; old links' rec/rec:NAME still mean direct recursion)
//   reversed=1                                                                (history: replace)
// Names are percent-encoded inside the value (transforms-codec.ts), so the value is raw here.
// Applied before the zoom (order 20): the zoom path names frames of the derived tree.

import type { Transform } from '../../core/views/transforms';
import { decodeTransforms, encodeTransforms } from '../../core/views/transforms-codec';
import { useStore } from '../store';
import { registerUrlParam } from './url-state';

registerUrlParam<Transform[]>({
  key: 'transforms',
  history: 'push',
  order: 12,
  raw: true,
  parse: (v) => {
    const r = decodeTransforms(v);
    return r.ok ? { ok: true, value: r.transforms } : { ok: false, notice: `The link's transforms were ignored: ${r.error.replace(/^transforms: /, '')}.` };
  },
  write: (s) => (s.recordings.a.snapshot && s.transforms.length > 0 ? encodeTransforms(s.transforms) : null),
  apply: (value) => useStore.getState().setTransforms(value ?? []),
});

registerUrlParam<true>({
  key: 'reversed',
  history: 'replace',
  order: 13,
  parse: (v) => (v === '1' ? { ok: true, value: true } : { ok: false, notice: `The link's reversed value "${v.slice(0, 40)}" is not 1; it was ignored.` }),
  write: (s) => (s.recordings.a.snapshot && s.reversed ? '1' : null),
  apply: (value) => useStore.getState().setReversed(value === true),
});

// The comparison's link parameters, registered with the URL state (store/url-state.ts):
//   compare=<url of B> (repeated: B is the sum of those runs)   mode=side|diff (default side)   norm=pct|abs (default pct)
//   roots=any (compare ignoring the root/process names; default: names must match)
//   dzoom=<frame path>   (the differential graph's zoom)
// url-sync writes them from the store and applies them on back/forward or an edited hash (a new
// compare= becomes the store's compare.openRequest, which the comparison's loader opens). At
// start-up controllers/recordings.ts reads `compare=` itself, so B starts loading at once, in
// parallel with A, instead of after A has opened.

import { zoomed } from '../pane';
import { useStore } from '../store';
import { oneOf, registerUrlParam } from './url-state';
import { decodeZoomPath, encodeZoomPath, segmentsOf, type PathSegment } from '../../core/views/zoom-path';
import { treeOf } from '../../core/query/tree-walks';

registerUrlParam<string[]>({
  key: 'compare',
  history: 'replace',
  order: 40,
  multi: true,
  parse: (v) => (v.trim() === '' || v.length > 4000 ? { ok: false, notice: 'The link’s compare value is empty or too long; it was ignored.' } : { ok: true, value: [v.trim()] }),
  write: (s) => (s.recordings.b.snapshot || s.recordings.b.loading ? s.compare.requestedUrls : null),
  // Absent: keep what is open (a comparison opened from a file has no URL).
  apply: (value) => {
    const s = useStore.getState();
    const now = s.compare.requestedUrls;
    if (value !== undefined && (now === null || now.join('\n') !== value.join('\n'))) s.requestCompareOpen(value);
  },
});

registerUrlParam<'side' | 'diff'>({
  key: 'mode',
  history: 'replace',
  order: 41,
  parse: oneOf('mode', ['side', 'diff'] as const),
  write: (s) => (s.recordings.b.snapshot && s.compare.mode !== 'side' ? s.compare.mode : null),
  apply: (value) => useStore.getState().setCompareMode(value ?? 'side'),
});

registerUrlParam<'pct' | 'abs'>({
  key: 'norm',
  history: 'replace',
  order: 42,
  parse: oneOf('norm', ['pct', 'abs'] as const),
  write: (s) => (s.recordings.b.snapshot && s.compare.norm !== 'pct' ? s.compare.norm : null),
  apply: (value) => useStore.getState().setCompareNorm(value ?? 'pct'),
});

registerUrlParam<'any'>({
  key: 'roots',
  history: 'replace',
  order: 43,
  parse: oneOf('roots', ['any'] as const),
  write: (s) => (s.recordings.b.snapshot && s.compare.ignoreRoot ? 'any' : null),
  apply: (value) => useStore.getState().setCompareIgnoreRoot(value === 'any'),
});

// dzoom=<frame path>: the differential graph's zoom, a frame path of the shaping run's tree (as
// zoom= is of the main graph's). B usually arrives after the hash is applied (it loads in
// parallel with A): the store keeps the path (compare.pendingDiffZoom) until B opens.

registerUrlParam<PathSegment[]>({
  key: 'dzoom',
  history: 'push',
  order: 44,
  raw: true,
  parse: (v) => {
    const r = decodeZoomPath(v);
    return r.ok ? { ok: true, value: r.path } : { ok: false, notice: `The link's differential zoom path has ${r.message}; it was ignored.` };
  },
  write: (s) => {
    if (!s.recordings.a.snapshot || !s.recordings.b.snapshot) return s.compare.pendingDiffZoom ? encodeZoomPath(s.compare.pendingDiffZoom) : null;
    const zoom = s.panes.diff.zoomNode;
    if (s.compare.mode !== 'diff' || zoom <= 0) return null;
    const shape = s.compare.shape === 'B' ? s.recordings.b.snapshot : s.recordings.a.snapshot;
    const tree = treeOf(shape, s.view);
    return zoom < tree.nodeCount ? encodeZoomPath(segmentsOf(shape.frames, tree, zoom)) : null;
  },
  apply: (value) => {
    const s = useStore.getState();
    if (value && value.length > 0) s.zoomDiffTo(value);
    else if (s.panes.diff.zoomNode > 0) s.setPane('diff', zoomed(0));
  },
});

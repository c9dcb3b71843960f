// The URL projection of the view state, in the location hash next to the shell's `profile`:
//   #profile=…&v=1&view=inline&orient=icicle&zoom=42&q=Parser&ci=1
// Versioned (v=1) and validated: unknown versions, unknown values, out-of-range nodes and
// over-long patterns are ignored, never thrown. `zoom` is a node index in the given view, only
// meaningful for the same recording (trees are built deterministically from the same input).
// Written with history.replaceState (no hashchange, no history entry per zoom).

import type { ProfileSnapshot } from '../core/snapshot';
import { useStore } from './store';
import { treeOf } from './tree-helpers';
import type { Orientation, ViewKind } from './types';

export const URL_STATE_VERSION = 1;
const MAX_PATTERN = 1000;
const KEYS = ['v', 'view', 'orient', 'zoom', 'q', 'ci'];

export interface UrlState {
  view?: ViewKind;
  orientation?: Orientation;
  zoom?: number;
  pattern?: string;
  caseInsensitive?: boolean;
}

export function parseUrlState(hash: string): UrlState {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  if (params.get('v') !== String(URL_STATE_VERSION)) return {};
  const out: UrlState = {};
  const view = params.get('view');
  if (view === 'functions' || view === 'inline') out.view = view;
  const orient = params.get('orient');
  if (orient === 'flame' || orient === 'icicle') out.orientation = orient;
  const zoom = params.get('zoom');
  if (zoom !== null && /^\d{1,9}$/.test(zoom)) out.zoom = Number(zoom);
  const q = params.get('q');
  if (q !== null && q.length <= MAX_PATTERN) out.pattern = q;
  if (params.get('ci') === '1') out.caseInsensitive = true;
  return out;
}

/** The hash with the view state written in, other parameters (the shell's profile) kept. */
export function writeUrlState(hash: string, state: Required<UrlState>): string {
  const params = new URLSearchParams(hash.startsWith('#') ? hash.slice(1) : hash);
  for (const k of KEYS) params.delete(k);
  params.set('v', String(URL_STATE_VERSION));
  if (state.view !== 'functions') params.set('view', state.view);
  if (state.orientation !== 'flame') params.set('orient', state.orientation);
  if (state.zoom > 0) params.set('zoom', String(state.zoom));
  if (state.pattern) params.set('q', state.pattern);
  if (state.caseInsensitive) params.set('ci', '1');
  return `#${params.toString()}`;
}

/** Applies a parsed URL state to the open recording (invalid parts are dropped). */
export function applyUrlState(state: UrlState, snapshot: ProfileSnapshot): void {
  const s = useStore.getState();
  if (state.orientation) s.setOrientation(state.orientation);
  if (state.caseInsensitive !== undefined) s.setCaseInsensitive(state.caseInsensitive);
  if (state.pattern !== undefined) s.setSearchPattern(state.pattern);
  if (state.view) s.setView(state.view);
  const view = useStore.getState().view;
  if (state.zoom !== undefined && state.zoom < treeOf(snapshot, view).nodeCount) useStore.getState().zoomTo(state.zoom);
}

let applied = false;

/**
 * Applies the hash once (to the first recording opened) and keeps the hash in step afterwards.
 * Returns the unsubscribe function.
 */
export function startUrlSync(win: Window = window): () => void {
  const snapshot = useStore.getState().snapshot;
  if (!applied && snapshot) {
    applied = true;
    applyUrlState(parseUrlState(win.location.hash), snapshot);
  }
  let timer: ReturnType<typeof setTimeout> | null = null;
  const write = () => {
    timer = null;
    const s = useStore.getState();
    if (!s.snapshot) return;
    const next = writeUrlState(win.location.hash, {
      view: s.view,
      orientation: s.orientation,
      zoom: s.zoomNode,
      pattern: s.search.pattern,
      caseInsensitive: s.search.caseInsensitive,
    });
    if (next !== win.location.hash) win.history.replaceState(win.history.state, '', next);
  };
  const unsubscribe = useStore.subscribe(
    (s) => [s.snapshot, s.view, s.orientation, s.zoomNode, s.search.pattern, s.search.caseInsensitive],
    () => {
      // Coalesce: a zoom animation changes zoomNode once per frame at most, typing once per key.
      if (timer === null) timer = setTimeout(write, 150);
    },
    { equalityFn: (a, b) => a.every((x, i) => x === b[i]) },
  );
  return () => {
    unsubscribe();
    if (timer !== null) clearTimeout(timer);
  };
}

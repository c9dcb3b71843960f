// The URL projection of the view state, in the location hash (no server sees it). Format v1:
//   #v=1&profile=<url>&view=functions|inline&zoom=<path>&search=<regex>&case=i
//    &orient=flame|icicle&order=heavy&event=<name>&split=pid|tid&unit=us|ns|ms
// A missing `v` means 1; every value is percent-encoded (encodeURIComponent; `+` reads as a
// space, as in URLSearchParams); `zoom` is a frame path (see zoom-path.ts). `profile` belongs to
// the loading shell (src/store/url/profile-hash.ts) and is kept verbatim here, as is any unknown parameter.
// Versioned and validated: an unknown `v` or a bad value is ignored with a notice, never thrown.
//
// EXTENSION POINT — other slices add their own parameters with `registerUrlParam` (e.g. the
// comparison's `compare=`, `mode=`, `norm=`, `dzoom=` in compare-params.ts, the analysis panel's
// in analysis-params.ts): a codec says how to parse its decoded value (or give
// a notice), what to write from the store state (null: leave it out), how to apply a value (or
// its absence, `undefined`, meaning "the default") to the store, and whether a change of it adds a
// browser-history entry ('push', like zoom) or replaces the current one ('replace'). url-sync.ts
// writes the hash whenever the store changes and applies it on open and on back/forward; it
// knows nothing about particular parameters. Register at module load, before the viewer mounts:
//
//   registerUrlParam<'side' | 'diff'>({               // compare-params.ts
//     key: 'mode', history: 'replace', order: 41,
//     parse: oneOf('mode', ['side', 'diff'] as const),
//     write: (s) => (s.recordings.b.snapshot && s.compare.mode !== 'side' ? s.compare.mode : null),
//     apply: (value) => useStore.getState().setCompareMode(value ?? 'side'),
//   });
//
// Invariants: parse/write are pure; apply runs in ascending `order` (view before zoom), only
// when a recording is open; the hash is parsed into at most MAX_PARAMS parameters.

import type { ProfileSnapshot } from '../../core/views/snapshot';
import { FOLDED_UNITS, type FoldedUnit } from '../../core/model/weight-text';
import { useStore } from '../store';
import { ASM_ROUTE, HEAVY_ORDER, ORIENT_VALUES, URL_STATE_VERSION, VIEW_VALUES, originalOk } from './link-values';
import { currentTree, mapNode, treeOf } from '../tree-helpers';
import type { ReloadOptions, StoreState, ViewKind } from '../types';
import { decodeZoomPath, describePath, encodeZoomPath, resolvePath, segmentsOf, type PathSegment } from '../../core/views/zoom-path';

const MAX_PATTERN = 1000;
/** Chromium accepts addresses up to 2 MB; a deep zoom path of long C++/Rust names can be long. */
const MAX_VALUE = 2_000_000;
const MAX_PARAMS = 64;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; notice: string };

/** Why the hash is being applied: a recording opened, it was read again (another event), or back/forward. */
export type ApplyReason = 'open' | 'reload' | 'navigate';

export interface ApplyContext {
  snapshot: ProfileSnapshot;
  reason: ApplyReason;
  /** Says something to the user (shown in a role=status notice). */
  notify(message: string): void;
  /**
   * Asks for the recording to be read again (another event or split). The remaining parameters
   * are applied once it has been read (reason 'reload').
   */
  reload(options: ReloadOptions): void;
}

export interface UrlParamCodec<T> {
  /** The hash key, e.g. 'zoom'. */
  key: string;
  /** 'push': a change adds a history entry (zoom); 'replace': it replaces the current one. */
  history: 'push' | 'replace';
  /** Apply order, ascending (view 10, zoom 20, search 30…). */
  order: number;
  /** True when write/parse handle percent-encoding themselves (the zoom path). */
  raw?: boolean;
  /**
   * The parameter may repeat (several `compare=`: B as the sum of its runs): T is then an array,
   * each occurrence's parsed array is appended in order, and write may return several values.
   */
  multi?: boolean;
  parse(value: string): ParseResult<T>;
  write(state: StoreState): string | readonly string[] | null;
  /** `value` undefined: the parameter is absent or was invalid; restore the default. */
  apply(value: T | undefined, ctx: ApplyContext): void;
}

/** Codecs of every value type (methods are bivariant, so each is one of these). */
type AnyCodec = UrlParamCodec<unknown>;
const registry = new Map<string, AnyCodec>();

/** Adds (or replaces) a parameter. Keys 'v' and 'profile' are reserved. */
export function registerUrlParam<T>(codec: UrlParamCodec<T>): void {
  if (codec.key === 'v' || codec.key === 'profile') throw new Error(`the URL parameter "${codec.key}" is reserved`);
  registry.set(codec.key, codec);
}

export function urlParams(): AnyCodec[] {
  return [...registry.values()].sort((a, b) => a.order - b.order);
}

/** The hash split into [key, raw value] pairs (values still percent-encoded), in order. */
export function splitHash(hash: string): [string, string][] {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (body === '') return [];
  const out: [string, string][] = [];
  for (const part of body.split('&', MAX_PARAMS)) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const key = safeDecode(eq < 0 ? part : part.slice(0, eq)) ?? part;
    out.push([key, eq < 0 ? '' : part.slice(eq + 1)]);
  }
  return out;
}

function safeDecode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

export interface ParsedUrlState {
  /** Parsed values of the registered parameters present and valid. */
  values: Map<string, unknown>;
  notices: string[];
}

export function parseUrlState(hash: string): ParsedUrlState {
  const values = new Map<string, unknown>();
  const notices: string[] = [];
  const pairs = splitHash(hash);
  const v = pairs.find(([k]) => k === 'v')?.[1];
  if (v !== undefined && v !== String(URL_STATE_VERSION)) {
    notices.push(`This link uses link format v=${clip(safeDecode(v) ?? v)}; this flameview reads v=${URL_STATE_VERSION}, so its view settings were ignored.`);
    return { values, notices };
  }
  for (const [key, raw] of pairs) {
    const codec = registry.get(key);
    if (!codec || (values.has(key) && !codec.multi)) continue;
    if (raw.length > MAX_VALUE) {
      notices.push(`The link's ${key} value is too long (${raw.length.toLocaleString('en-US')} characters); it was ignored.`);
      continue;
    }
    const decoded = codec.raw ? raw : safeDecode(raw);
    if (decoded === null) {
      notices.push(`The link's ${key} value is not properly percent-encoded; it was ignored.`);
      continue;
    }
    const result = codec.parse(decoded);
    if (!result.ok) notices.push(result.notice);
    else if (codec.multi && values.has(key)) values.set(key, [...(values.get(key) as unknown[]), ...(result.value as unknown[])]);
    else values.set(key, result.value);
  }
  return { values, notices };
}

/** The hash with the registered parameters written from `state`; every `profile` and unknown keys kept. */
export function writeUrlState(hash: string, state: StoreState): string {
  const kept = splitHash(hash).filter(([k]) => k !== 'v' && !registry.has(k));
  const parts = [`v=${URL_STATE_VERSION}`];
  // Every profile= (several are one graph of their sum), first, in order.
  for (const [k, v] of kept) if (k === 'profile') parts.push(`profile=${v}`);
  for (const [k, v] of kept) if (k !== 'profile') parts.push(`${encodeURIComponent(k)}=${v}`);
  for (const codec of urlParams()) {
    const written = codec.write(state);
    if (written === null) continue;
    for (const value of typeof written === 'string' ? [written] : written) parts.push(`${codec.key}=${codec.raw ? value : encodeURIComponent(value)}`);
  }
  return `#${parts.join('&')}`;
}

/** Applies parsed values (absent ones as defaults) in order; stops after a codec asked for a reload. */
export function applyUrlState(parsed: ParsedUrlState, ctx: Omit<ApplyContext, 'reload'> & { reload?: ApplyContext['reload'] }): { reloading: boolean } {
  let reloading = false;
  const full: ApplyContext = {
    ...ctx,
    reload: (options) => {
      reloading = true;
      ctx.reload?.(options);
    },
  };
  for (const codec of urlParams()) {
    codec.apply(parsed.values.get(codec.key), full);
    if (reloading) break;
  }
  return { reloading };
}

/** The keys whose raw values differ between two hashes. */
export function changedKeys(a: string, b: string): Set<string> {
  // A repeated key (several compare=) compares as all its values, in order.
  const joined = (hash: string) => {
    const m = new Map<string, string>();
    for (const [k, v] of splitHash(hash)) m.set(k, m.has(k) ? `${m.get(k)}&${v}` : v);
    return m;
  };
  const ma = joined(a);
  const mb = joined(b);
  const out = new Set<string>();
  for (const [k, v] of ma) if (mb.get(k) !== v) out.add(k);
  for (const k of mb.keys()) if (!ma.has(k)) out.add(k);
  return out;
}

/** True when going from hash a to b should add a history entry: every changed key is a 'push' one. */
export function isPushChange(a: string, b: string): boolean {
  const changed = changedKeys(a, b);
  if (changed.size === 0) return false;
  for (const k of changed) if (registry.get(k)?.history !== 'push') return false;
  return true;
}

function clip(text: string): string {
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

/** A parser of a parameter that takes one of a few words; anything else is a notice. */
export function oneOf<T extends string>(key: string, allowed: readonly T[]): (v: string) => ParseResult<T> {
  return (v) =>
    (allowed as readonly string[]).includes(v)
      ? { ok: true, value: v as T }
      : { ok: false, notice: `The link's ${key} value "${clip(v)}" is not one of ${allowed.join(', ')}; it was ignored.` };
}

// ── The viewer's own parameters ──────────────────────────────────────────────────────────────

/** The default view of a recording: the function view (the only one without inline information). */
const DEFAULT_VIEW: ViewKind = 'functions';

// original=<url>: where the open recording's original bytes are (Share with "Keep the original
// recording", or `flameview FILE`); a processed recording reads another event or split from there.
registerUrlParam<string>({
  key: 'original',
  history: 'replace',
  order: 0,
  parse: (v) => (!originalOk(v) ? { ok: false, notice: 'The link’s original value is empty or too long; it was ignored.' } : { ok: true, value: v.trim() }),
  write: (s) => s.original,
  apply: (value) => useStore.getState().setOriginal(value ?? null),
});

// asm=/api/asm/<secret>: the route of `flameview FILE` that disassembles this recording's
// functions. Only that same-origin path is taken: a link must not make the page fetch elsewhere.
registerUrlParam<string>({
  key: 'asm',
  history: 'replace',
  order: 0,
  parse: (v) => (ASM_ROUTE.test(v) ? { ok: true, value: v } : { ok: false, notice: 'The link’s asm value is not a flameview disassembly address; it was ignored.' }),
  write: (s) => s.asm.base,
  apply: (value) => useStore.getState().setAsmBase(value ?? null),
});

registerUrlParam<'pid' | 'tid'>({
  key: 'split',
  history: 'replace',
  order: 1,
  parse: oneOf('split', ['pid', 'tid'] as const),
  // The default, one root per process name, is what a link without split= means.
  write: (s) => (s.split === 'process' ? null : s.split),
  apply: (value, ctx) => {
    const split = value ?? 'process';
    if (ctx.reason === 'reload' || split === useStore.getState().split) return;
    if (ctx.snapshot.meta.format !== 'perf-script') {
      if (value) ctx.notify(`The link's split=${value} applies to perf script recordings only; it was ignored.`);
      return;
    }
    useStore.getState().setSplit(split);
    // A processed recording keeps the roots it was saved with; only its original reads another
    // split. The link keeps its split= (the recording may well have been saved that way).
    if (ctx.snapshot.processed && useStore.getState().original === null) {
      const asked = value ? `The link's split=${value} needs` : 'Roots per process name need';
      ctx.notify(`${asked} the original recording, which this link does not name: the processed recording shows its roots as they were saved.`);
      return;
    }
    ctx.reload({ split });
  },
});


registerUrlParam<FoldedUnit>({
  key: 'unit',
  history: 'replace',
  order: 3,
  parse: oneOf('unit', Object.keys(FOLDED_UNITS) as FoldedUnit[]),
  // Samples, the default, is what a link without unit= means.
  write: (s) => (s.unit === 'samples' ? null : s.unit),
  apply: (value, ctx) => {
    const unit = value ?? 'samples';
    if (ctx.reason === 'reload' || unit === useStore.getState().unit) return;
    if (ctx.snapshot.meta.format !== 'folded') {
      if (value) ctx.notify(`The link's unit=${value} applies to folded stacks only (other formats say what their weights are); it was ignored.`);
      return;
    }
    useStore.getState().setUnit(unit);
    ctx.reload({ unit });
  },
});

registerUrlParam<string>({
  key: 'event',
  history: 'replace',
  order: 2,
  parse: (v) => (v === '' || v.length > 200 ? { ok: false, notice: `The link's event value is empty or too long; it was ignored.` } : { ok: true, value: v }),
  write: (s) => (s.recordings.a.snapshot && s.recordings.a.snapshot.meta.events.length > 1 ? s.recordings.a.snapshot.meta.event : null),
  apply: (value, ctx) => {
    const meta = ctx.snapshot.meta;
    if (value === undefined || ctx.reason === 'reload' || value === meta.event) return;
    if (!meta.events.some((e) => e.name === value)) {
      const has = meta.events.length ? `it has ${meta.events.map((e) => e.name).join(', ')}` : 'it has no events';
      ctx.notify(`The linked event "${clip(value)}" is not in this recording (${has}); showing ${meta.event ?? 'its samples'}.`);
      return;
    }
    ctx.reload({ event: value });
  },
});

registerUrlParam<'flame' | 'icicle'>({
  key: 'orient',
  history: 'replace',
  order: 5,
  parse: oneOf('orient', ORIENT_VALUES),
  write: (s) => (s.orientation === 'flame' ? null : s.orientation),
  apply: (value) => useStore.getState().setOrientation(value ?? 'flame'),
});

registerUrlParam<'heavy'>({
  key: 'order',
  history: 'replace',
  order: 6,
  parse: (v) => (v === HEAVY_ORDER ? { ok: true, value: HEAVY_ORDER } : { ok: false, notice: `The link's order value "${clip(v)}" is not heavy; it was ignored.` }),
  write: (s) => (s.siblingOrder === HEAVY_ORDER ? HEAVY_ORDER : null),
  apply: (value) => useStore.getState().setSiblingOrder(value ?? 'name'),
});

registerUrlParam<ViewKind>({
  key: 'view',
  history: 'replace',
  order: 10,
  parse: oneOf('view', VIEW_VALUES),
  // Written always, so a link says which view it shows even if the default changes.
  write: (s) => (s.recordings.a.snapshot ? s.view : null),
  apply: (value, ctx) => {
    const wanted = value ?? DEFAULT_VIEW;
    if (wanted === 'inline' && !ctx.snapshot.functions && value) return; // one tree: nothing to switch
    useStore.getState().setView(wanted);
  },
});

registerUrlParam<PathSegment[]>({
  key: 'zoom',
  history: 'push',
  order: 20,
  raw: true,
  parse: (v) => {
    const r = decodeZoomPath(v);
    return r.ok ? { ok: true, value: r.path } : { ok: false, notice: `The link's zoom path has ${r.message}; it was ignored.` };
  },
  write: (s) => {
    // A linked zoom waiting for its derived tree (transforms in the same link) stays in the URL.
    const parked = useStore.getState().parkedZoom?.path ?? null;
    if (parked) return encodeZoomPath(parked);
    const tree = currentTree(s);
    return s.recordings.a.snapshot && tree && s.panes.main.zoomNode > 0 && s.panes.main.zoomNode < tree.nodeCount ? encodeZoomPath(segmentsOf(s.recordings.a.snapshot.frames, tree, s.panes.main.zoomNode)) : null;
  },
  apply: (value, ctx) => {
    useStore.getState().parkZoom(null);
    // The path names frames of the derived tree (transforms, reversed: applied before, order
    // 12-13); when that tree is still being derived, resolve the path once it arrives.
    if (value && value.length > 0 && useStore.getState().deriving) {
      useStore.getState().parkZoom({ path: value, run: (notify) => applyZoomPath(value, ctx.snapshot, notify) });
      return;
    }
    applyZoomPath(value, ctx.snapshot, ctx.notify);
  },
});

function applyZoomPath(value: PathSegment[] | undefined, snapshot: ProfileSnapshot, notify: (message: string) => void): void {
  const store = useStore.getState();
  if (store.recordings.a.snapshot !== snapshot) return;
  if (!value || value.length === 0) {
    if (store.panes.main.zoomNode !== 0) store.zoomTo(0);
    return;
  }
  const view = store.view;
  const shown = currentTree(store) ?? treeOf(snapshot, view);
  let { node, matched } = resolvePath(snapshot.frames, shown, value);
  const derived = shown !== treeOf(snapshot, view);
  if (matched < value.length && snapshot.functions && !derived) {
    // A path written in the other view (an inlined frame in a function-view link) still names it.
    const other: ViewKind = view === 'functions' ? 'inline' : 'functions';
    const there = resolvePath(snapshot.frames, treeOf(snapshot, other), value);
    if (there.matched === value.length) {
      node = mapNode(snapshot, there.node, other, view);
      matched = value.length;
    }
  }
  if (matched < value.length) {
    const shownText = matched === 0 ? 'showing the whole recording' : `showing its closest ancestor: ${describePath(value.slice(0, matched))}`;
    notify(`The linked frame ${describePath(value)} was not found in this recording; ${shownText}.`);
  }
  if (store.panes.main.zoomNode !== node) store.zoomTo(node);
}

registerUrlParam<'i'>({
  key: 'case',
  history: 'replace',
  order: 29,
  parse: (v) => (v === 'i' ? { ok: true, value: 'i' } : { ok: false, notice: `The link's case value "${clip(v)}" is not i; it was ignored.` }),
  write: (s) => (s.search.caseInsensitive ? 'i' : null),
  apply: (value) => {
    const on = value === 'i';
    if (useStore.getState().search.caseInsensitive !== on) useStore.getState().setCaseInsensitive(on);
  },
});

registerUrlParam<string>({
  key: 'search',
  history: 'replace',
  order: 30,
  parse: (v) => (v.length <= MAX_PATTERN ? { ok: true, value: v } : { ok: false, notice: `The link's search pattern is longer than ${MAX_PATTERN} characters; it was ignored.` }),
  write: (s) => (s.search.pattern ? s.search.pattern : null),
  apply: (value) => {
    const pattern = value ?? '';
    if (useStore.getState().search.pattern !== pattern) useStore.getState().setSearchPattern(pattern);
  },
});

/** Whether two addresses name one resource once resolved against `base` (a bad one: no). */
export function sameUrl(a: string, b: string | undefined, base: string): boolean {
  if (b === undefined) return false;
  try {
    return new URL(a, base).href === new URL(b, base).href;
  } catch {
    return false;
  }
}

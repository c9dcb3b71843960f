// The URL form of a transform list: transforms joined by ',', each `kind` or `kind:ARG`, the
// function names percent-encoded (encodeURIComponent, so a name never contains ',' or ':'); a
// call path (subtree:) is the zoom link's path form (names encoded one by one, joined by ';').
//
//   focus:main,merge:std%3A%3Aalloc%3A%3Aalloc,drec,hide:kernel,subtree:main;run;parse_[i]
//   focus-lib:libc.so.6,collapse-ns:std%3A%3A,drop:malloc,collapse:f,anyrec:visit
//
//   focus-re:%5Ewl%3A%3A,drop-re-i:alloc,merge-re:%5Estd%3A%3A,collapse-re:__gnu_cxx
//
// A pattern kind (`focus-re`, `drop-re`, `merge-re`, `collapse-re`; `-i` appended: ignore case)
// carries a JavaScript regular expression, checked when decoded (an invalid one is an error
// value, not a throw later in the worker). The CLI's --transform takes one item in this form
// with its argument as typed (decodeTransform with percentDecoded false): a shell user writes
// `focus-re:^wl::`, and a comma inside a pattern is not a separator there.
//
// `rec` was once the only recursion transform and collapsed direct recursion: `rec` and
// `rec:NAME` keep decoding as direct recursion, so old links show what they showed; direct
// recursion is now written `drec` / `drec:NAME`, and any recursion `anyrec:NAME`.
//
// Invariants: decodeTransforms(encodeTransforms(list)) deep-equals list; decoding never throws:
// a bad string gives an error value naming the expected form, which item (1-based) and what was
// found; at most MAX_TRANSFORMS items and MAX_LENGTH characters (an unbounded URL would be an
// unbounded amount of work).

import { decodeZoomPath, encodeZoomPath } from './zoom-path';
import type { PatternOp, Transform } from './transforms';

export const MAX_TRANSFORMS = 64;
export const MAX_LENGTH = 16384;

export type DecodeResult = { ok: true; transforms: Transform[] } | { ok: false; error: string };

export const TRANSFORM_FORMS =
  'focus:NAME, subtree:PATH, focus-lib:LIB, focus-ns:NS, merge:NAME, drop:NAME, collapse:NAME, collapse-lib:LIB, collapse-ns:NS, anyrec:NAME, drec, drec:NAME, hide:kernel, hide:unknown, focus-re:RE, drop-re:RE, merge-re:RE or collapse-re:RE (-re-i: ignore case)';

const PATTERN_KINDS: Record<string, { op: PatternOp; ignoreCase: boolean }> = {};
for (const op of ['focus', 'drop', 'merge', 'collapse'] as const) {
  PATTERN_KINDS[`${op}-re`] = { op, ignoreCase: false };
  PATTERN_KINDS[`${op}-re-i`] = { op, ignoreCase: true };
}

export function encodeTransform(t: Transform): string {
  switch (t.kind) {
    case 'focus':
    case 'merge':
    case 'drop':
    case 'collapse':
      return `${t.kind}:${encodeURIComponent(t.name)}`;
    case 'subtree':
      return `subtree:${encodeZoomPath(t.path)}`;
    case 'focus-group':
      return `focus-${t.group}:${encodeURIComponent(t.name)}`;
    case 'collapse-group':
      return `collapse-${t.group}:${encodeURIComponent(t.name)}`;
    case 'rec':
      return `anyrec:${encodeURIComponent(t.name)}`;
    case 'direct-rec':
      return t.name === null ? 'drec' : `drec:${encodeURIComponent(t.name)}`;
    case 'hide':
      return `hide:${t.what}`;
    case 'pattern':
      return `${t.op}-re${t.ignoreCase ? '-i' : ''}:${encodeURIComponent(t.pattern)}`;
  }
}

export function encodeTransforms(list: readonly Transform[]): string {
  return list.map(encodeTransform).join(',');
}

export function decodeTransforms(text: string): DecodeResult {
  if (text === '') return { ok: true, transforms: [] };
  if (text.length > MAX_LENGTH) return { ok: false, error: `transforms: expected at most ${MAX_LENGTH} characters, found ${text.length}` };
  const items = text.split(',');
  if (items.length > MAX_TRANSFORMS) return { ok: false, error: `transforms: expected at most ${MAX_TRANSFORMS} transforms, found ${items.length}` };
  const transforms: Transform[] = [];
  for (let i = 0; i < items.length; i++) {
    const one = decodeTransform(items[i], i + 1);
    if (!one.ok) return { ok: false, error: one.error };
    transforms.push(one.transform);
  }
  return { ok: true, transforms };
}

/** `found`: what was wrong, for a host that words its own message (the CLI). */
export type DecodeOneResult = { ok: true; transform: Transform } | { ok: false; error: string; found: string };

/**
 * One item of a transform list. `itemNo` (1-based) names it in errors; `percentDecoded` false
 * takes the argument as typed (the CLI), true as a link carries it (percent-encoded).
 */
export function decodeTransform(item: string, itemNo = 1, percentDecoded = true): DecodeOneResult {
  const colon = item.indexOf(':');
  const kind = colon < 0 ? item : item.slice(0, colon);
  const raw = colon < 0 ? null : item.slice(colon + 1);
  const bad = (what: string): DecodeOneResult => ({
    ok: false,
    error: `transforms: item ${itemNo}: expected ${TRANSFORM_FORMS}; found ${what} in '${clip(item)}'`,
    found: what,
  });
  const ok = (transform: Transform): DecodeOneResult => ({ ok: true, transform });
  if (kind === 'subtree') {
    const path = decodeZoomPath(raw ?? '');
    if (!path.ok) return bad(path.message);
    if (path.path.length === 0) return bad('no call path');
    return ok({ kind: 'subtree', path: path.path });
  }
  let arg: string | null = raw;
  if (raw !== null && percentDecoded) {
    try {
      arg = decodeURIComponent(raw);
    } catch {
      return bad('a malformed percent-encoding');
    }
  }
  const pattern = PATTERN_KINDS[kind];
  if (pattern && Object.hasOwn(PATTERN_KINDS, kind)) {
    if (arg === null || arg === '') return bad('no pattern');
    try {
      // Compiling is linear in the pattern's length; only matching can be catastrophic.
      new RegExp(arg, pattern.ignoreCase ? 'i' : '');
    } catch (e) {
      return bad(`an invalid regular expression (${e instanceof Error ? e.message : String(e)})`);
    }
    return ok({ kind: 'pattern', op: pattern.op, pattern: arg, ignoreCase: pattern.ignoreCase });
  }
  switch (kind) {
    case 'focus':
    case 'merge':
    case 'drop':
    case 'collapse':
      if (arg === null || arg === '') return bad('no function name');
      return ok({ kind, name: arg });
    case 'anyrec':
      if (arg === null || arg === '') return bad('no function name');
      return ok({ kind: 'rec', name: arg });
    case 'focus-lib':
    case 'focus-ns':
    case 'collapse-lib':
    case 'collapse-ns': {
      if (arg === null || arg === '') return bad(kind.endsWith('lib') ? 'no library name' : 'no namespace');
      const group = kind.endsWith('lib') ? 'lib' : 'ns';
      return ok(kind.startsWith('focus') ? { kind: 'focus-group', group, name: arg } : { kind: 'collapse-group', group, name: arg });
    }
    case 'rec': // the old form of drec (see the module comment)
    case 'drec':
      if (arg === '') return bad('an empty function name');
      return ok({ kind: 'direct-rec', name: arg });
    case 'hide':
      if (arg !== 'kernel' && arg !== 'unknown') return bad(arg === null ? 'nothing to hide' : `'${clip(arg)}' to hide`);
      return ok({ kind: 'hide', what: arg });
    default:
      return bad(`the kind '${clip(kind)}'`);
  }
}

function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + '…' : s;
}

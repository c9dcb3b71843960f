// The URL form of a transform list: transforms joined by ',', each `kind` or `kind:ARG`, the
// function names percent-encoded (encodeURIComponent, so a name never contains ',' or ':'); a
// call path (subtree:) is the zoom link's path form (names encoded one by one, joined by ';').
//
//   focus:main,merge:std%3A%3Aalloc%3A%3Aalloc,drec,hide:kernel,subtree:main;run;parse_[i]
//   focus-lib:libc.so.6,collapse-ns:std%3A%3A,drop:malloc,collapse:f,anyrec:visit
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
import type { Transform } from './transforms';

export const MAX_TRANSFORMS = 64;
export const MAX_LENGTH = 16384;

export type DecodeResult = { ok: true; transforms: Transform[] } | { ok: false; error: string };

const FORMS =
  'focus:NAME, subtree:PATH, focus-lib:LIB, focus-ns:NS, merge:NAME, drop:NAME, collapse:NAME, collapse-lib:LIB, collapse-ns:NS, anyrec:NAME, drec, drec:NAME, hide:kernel or hide:unknown';

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
    const item = items[i];
    const colon = item.indexOf(':');
    const kind = colon < 0 ? item : item.slice(0, colon);
    const raw = colon < 0 ? null : item.slice(colon + 1);
    const bad = (what: string): DecodeResult => ({
      ok: false,
      error: `transforms: item ${i + 1}: expected ${FORMS}; found ${what} in '${clip(item)}'`,
    });
    let arg: string | null = null;
    if (kind === 'subtree') {
      const path = decodeZoomPath(raw ?? '');
      if (!path.ok) return bad(path.message);
      if (path.path.length === 0) return bad('no call path');
      transforms.push({ kind: 'subtree', path: path.path });
      continue;
    }
    if (raw !== null) {
      try {
        arg = decodeURIComponent(raw);
      } catch {
        return bad('a malformed percent-encoding');
      }
    }
    switch (kind) {
      case 'focus':
      case 'merge':
      case 'drop':
      case 'collapse':
        if (arg === null || arg === '') return bad('no function name');
        transforms.push({ kind, name: arg });
        break;
      case 'anyrec':
        if (arg === null || arg === '') return bad('no function name');
        transforms.push({ kind: 'rec', name: arg });
        break;
      case 'focus-lib':
      case 'focus-ns':
      case 'collapse-lib':
      case 'collapse-ns': {
        if (arg === null || arg === '') return bad(kind.endsWith('lib') ? 'no library name' : 'no namespace');
        const group = kind.endsWith('lib') ? 'lib' : 'ns';
        transforms.push(kind.startsWith('focus') ? { kind: 'focus-group', group, name: arg } : { kind: 'collapse-group', group, name: arg });
        break;
      }
      case 'rec': // the old form of drec (see the module comment)
      case 'drec':
        if (arg === '') return bad('an empty function name');
        transforms.push({ kind: 'direct-rec', name: arg });
        break;
      case 'hide':
        if (arg !== 'kernel' && arg !== 'unknown') return bad(arg === null ? 'nothing to hide' : `'${clip(arg)}' to hide`);
        transforms.push({ kind: 'hide', what: arg });
        break;
      default:
        return bad(`the kind '${clip(kind)}'`);
    }
  }
  return { ok: true, transforms };
}

function clip(s: string): string {
  return s.length > 60 ? s.slice(0, 57) + '…' : s;
}

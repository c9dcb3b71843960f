// A link made from a local recording (a file opened on this computer, or pasted text) cannot carry
// its bytes, so it names it:  file=<name>&size=<bytes>  or  pasted=<characters>.
// Opened where nothing else is to be opened (no profile=, no /p/<id>), the page asks for that file
// instead of opening the demo, and applies the link's view, zoom, search, transforms and panel to
// the file once it is opened (controllers/url-sync.ts); a different file gets them too, with a
// notice. The keys are written from the open recording's source, so another recording rewrites them.

import { formatBytes } from '../../format';
import { useStore } from '../store';
import type { LocalRecording, StoreState } from '../types';
import { parseUrlState, registerUrlParam, splitHash } from './url-state';
import { panelByWord } from '../panels';
import { describePath, type PathSegment } from '../../core/views/zoom-path';
import type { Transform } from '../../core/views/transforms';

const MAX_SIZE = Number.MAX_SAFE_INTEGER;

function localOf(s: StoreState): LocalRecording | null {
  return s.snapshot ? (s.source?.local ?? null) : null;
}

function decode(raw: string): string | null {
  try {
    return decodeURIComponent(raw.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

function sizeOf(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,16}$/.test(text)) return null;
  const n = Number(text);
  return n <= MAX_SIZE ? n : null;
}

/** The local recording a hash names, or null when it names none (or only badly). */
export function localRecordingFromHash(hash: string): LocalRecording | null {
  const pairs = new Map<string, string>();
  for (const [k, v] of splitHash(hash)) if (!pairs.has(k)) pairs.set(k, v);
  const file = pairs.get('file');
  const name = file === undefined ? null : decode(file);
  if (name !== null && name !== '') return { kind: 'file', name, size: sizeOf(pairs.get('size')) };
  const pasted = pairs.get('pasted');
  if (pasted !== undefined) return { kind: 'paste', name: null, size: sizeOf(pasted) };
  return null;
}

/** "the local file perf.txt (1.2 MB, 1,234,567 bytes)", "pasted text (12,345 characters)". */
export function describeLocal(r: LocalRecording): string {
  const count = (n: number) => n.toLocaleString('en-US');
  if (r.kind === 'paste') return r.size === null ? 'pasted text' : `pasted text (${count(r.size)} characters)`;
  if (r.size === null) return `the local file ${r.name}`;
  return r.size < 1024 ? `the local file ${r.name} (${count(r.size)} bytes)` : `the local file ${r.name} (${formatBytes(r.size)}, ${count(r.size)} bytes)`;
}

/** "This link was made from the local file X (…): open that file to restore …" (or paste that text). */
export function localNeeded(r: LocalRecording): string {
  const act = r.kind === 'paste' ? 'paste that text again' : 'open that file';
  return `This link was made from ${describeLocal(r)}, which is not in the link: ${act} to restore its view, zoom, search, transforms and panel.`;
}

/** True when `opened` is the recording `wanted` names (a size the link leaves out matches any). */
export function sameLocal(wanted: LocalRecording, opened: LocalRecording | null | undefined): boolean {
  if (!opened || opened.kind !== wanted.kind) return false;
  if (wanted.kind === 'file' && opened.name !== wanted.name) return false;
  return wanted.size === null || wanted.size === opened.size;
}

/**
 * What a link would restore, in words, for the page that asks for its file: "the inline-frame
 * view", "the zoom on app → main", "the search “lex”", "2 transforms", "the function table"…
 */
export function linkRestores(hash: string): string[] {
  const { values } = parseUrlState(hash);
  const out: string[] = [];
  if (values.get('view') === 'inline') out.push('the inline-frame view');
  const zoom = values.get('zoom') as PathSegment[] | undefined;
  if (zoom && zoom.length > 0) out.push(`the zoom on ${describePath(zoom)}`);
  const search = values.get('search') as string | undefined;
  if (search) out.push(`the search “${search.length > 60 ? `${search.slice(0, 60)}…` : search}”`);
  const transforms = values.get('transforms') as Transform[] | undefined;
  if (transforms && transforms.length > 0) out.push(transforms.length === 1 ? '1 transform' : `${transforms.length} transforms`);
  if (values.get('reversed') || values.get('inverted')) out.push('the reversed view');
  const panel = values.get('panel') as string | undefined;
  if (panel) out.push(panelByWord(panel)?.phrase ?? panel);
  if (values.get('order') === 'heavy') out.push('the heaviest-first order');
  if (values.get('orient') === 'icicle') out.push('the icicle orientation');
  return out;
}

// Written from the open recording; applying them does nothing (url-sync compares the file).
function registerLocalKey(key: string, write: (local: LocalRecording) => string | null): void {
  registerUrlParam<string>({
    key,
    history: 'replace',
    order: 0,
    parse: (v) => ({ ok: true, value: v }),
    write: (s) => {
      const local = localOf(s);
      return local ? write(local) : null;
    },
    apply: () => {},
  });
}

registerLocalKey('file', (l) => (l.kind === 'file' ? l.name : null));
registerLocalKey('size', (l) => (l.kind === 'file' && l.size !== null ? String(l.size) : null));
registerLocalKey('pasted', (l) => (l.kind === 'paste' && l.size !== null ? String(l.size) : null));

/** The open recording is now also on a server (Share uploaded it): links stop naming the local file. */
export function forgetLocalName(): void {
  const s = useStore.getState();
  if (s.source?.local) useStore.setState({ source: { ...s.source, local: undefined } });
}

// The viewer inside another page: it takes recordings and view changes by postMessage from the
// page that framed or opened it, when that page's origin is one the server allows
// (`serve --allow-embed ORIGIN`, named in the page's <meta name="flameview-store" data-embed>).
// The protocol (README "Embedding the viewer"; public/flameview-embed.js is the host's helper):
//
//   host → viewer  {type:'flameview:open', id?, name?, bytes: ArrayBuffer|typed array|Blob}
//                  {type:'flameview:open', id?, url: 'https://…'}
//                  {type:'flameview:set',  id?, view?: 'functions'|'inline', zoom?: string[], search?: string}
//                  {type:'flameview:ping'}
//   viewer → host  {type:'flameview:ready', protocol: 1}          at start, and to a ping
//                  {type:'flameview:loaded', id, name, samples}   the recording is open
//                  {type:'flameview:set', id}                     the view change is applied
//                  {type:'flameview:error', id, reason}           what was wrong, in a sentence
//
// Invariants: a message is looked at only when it comes from the parent or opener window and its
// origin is allowed; from anywhere else it is ignored without an answer (an answer would tell a
// stranger the viewer is there). A malformed message from an allowed origin gets an error and
// changes nothing. Answers go to the sender's origin only.

import { useStore } from '../store/store';
import { openFile, openUrl } from './recordings';
import { STORE_META } from './team-server';

export const EMBED_PROTOCOL = 1;
const MAX_NAME = 200;

/** The origins this page's server lets embed it (none on a static host or `flameview FILE`). */
export function allowedOrigins(doc: Pick<Document, 'querySelector'>): string[] {
  const list = doc.querySelector(`meta[name="${STORE_META}"]`)?.getAttribute('data-embed') ?? '';
  return list.split(' ').filter((o) => o !== '');
}

type Request =
  | { type: 'flameview:ping' }
  | { type: 'flameview:open'; id: unknown; name: string | null; bytes: Blob | null; url: string | null }
  | { type: 'flameview:set'; id: unknown; view?: 'functions' | 'inline'; zoom?: string[]; search?: string };

/** A request, or the sentence saying why the message is not one. */
export function parseRequest(data: unknown): Request | string {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return 'a message must be an object with a "type"';
  const m = data as Record<string, unknown>;
  if (m.type === 'flameview:ping') return { type: 'flameview:ping' };
  if (m.type === 'flameview:open') {
    if (m.name !== undefined && (typeof m.name !== 'string' || m.name.length > MAX_NAME)) return `"name" must be a string of at most ${MAX_NAME} characters`;
    const name = typeof m.name === 'string' ? m.name : null;
    const hasBytes = m.bytes !== undefined;
    const hasUrl = m.url !== undefined;
    if (hasBytes === hasUrl) return 'flameview:open needs exactly one of "bytes" and "url"';
    if (hasUrl) return typeof m.url === 'string' ? { type: m.type, id: m.id, name, bytes: null, url: m.url } : '"url" must be a string';
    const b = m.bytes;
    if (b instanceof Blob) return { type: m.type, id: m.id, name, bytes: b, url: null };
    if (b instanceof ArrayBuffer || ArrayBuffer.isView(b)) return { type: m.type, id: m.id, name, bytes: new Blob([b as ArrayBuffer]), url: null };
    return '"bytes" must be an ArrayBuffer, a typed array or a Blob';
  }
  if (m.type === 'flameview:set') {
    const out: Request = { type: 'flameview:set', id: m.id };
    if (m.view !== undefined) {
      if (m.view !== 'functions' && m.view !== 'inline') return '"view" must be "functions" or "inline"';
      out.view = m.view;
    }
    if (m.zoom !== undefined) {
      if (!Array.isArray(m.zoom) || !m.zoom.every((f) => typeof f === 'string')) return '"zoom" must be an array of frame names, root first';
      out.zoom = m.zoom as string[];
    }
    if (m.search !== undefined) {
      if (typeof m.search !== 'string') return '"search" must be a string (a regular expression)';
      out.search = m.search;
    }
    return out;
  }
  return `unknown message type ${JSON.stringify(String(m.type)).slice(0, 80)}`;
}

/** The hash with these link parameters set (value null removes one), the others kept in order. */
export function withParams(hash: string, params: Record<string, string | null>): string {
  const parts = hash.replace(/^#/, '').split('&').filter((p) => p !== '');
  const kept = parts.filter((p) => !(p.split('=')[0]! in params));
  for (const [k, v] of Object.entries(params)) if (v !== null) kept.push(`${k}=${v}`);
  if (!kept.some((p) => p.startsWith('v='))) kept.unshift('v=1');
  return `#${kept.join('&')}`;
}

/** Starts listening when the server allows some origin; returns the stop. */
export function startEmbedController(win: Window = window): () => void {
  const allowed = allowedOrigins(win.document);
  const hosts = [win.parent !== win ? win.parent : null, win.opener as Window | null].filter((w): w is Window => w !== null);
  if (allowed.length === 0 || hosts.length === 0) return () => {};

  const answer = (to: Window, origin: string, message: Record<string, unknown>) => to.postMessage(message, origin);
  // Only the allowed origin that holds the host receives it: postMessage checks the target origin.
  for (const host of hosts) for (const origin of allowed) answer(host, origin, { type: 'flameview:ready', protocol: EMBED_PROTOCOL });

  const onMessage = (event: MessageEvent) => {
    const from = event.source as Window | null;
    if (!from || !hosts.includes(from) || !allowed.includes(event.origin)) return;
    const reply = (message: Record<string, unknown>) => answer(from, event.origin, message);
    const request = parseRequest(event.data);
    if (typeof request === 'string') {
      const id = typeof event.data === 'object' && event.data !== null ? (event.data as { id?: unknown }).id : undefined;
      return reply({ type: 'flameview:error', id, reason: request });
    }
    if (request.type === 'flameview:ping') return reply({ type: 'flameview:ready', protocol: EMBED_PROTOCOL });
    if (request.type === 'flameview:open') {
      const opened = request.bytes ? openFile(new File([request.bytes], request.name ?? 'recording')) : openUrl(request.url!);
      void opened.then(() => {
        const s = useStore.getState();
        if (s.recordings.a.error !== null) reply({ type: 'flameview:error', id: request.id, reason: s.recordings.a.error });
        else if (s.recordings.a.snapshot && s.recordings.a.loading === null) reply({ type: 'flameview:loaded', id: request.id, name: s.recordings.a.name, samples: s.recordings.a.snapshot.meta.samples });
      });
      return;
    }
    if (!useStore.getState().recordings.a.snapshot) return reply({ type: 'flameview:error', id: request.id, reason: 'no recording is open yet' });
    // Through the link parameters, so a view change is what the same link would do (a missing
    // frame zooms to its deepest ancestor, with a notice), and the hash stays the view's.
    const params: Record<string, string | null> = {};
    if (request.view) params.view = request.view;
    if (request.zoom) params.zoom = request.zoom.length === 0 ? null : request.zoom.map(encodeURIComponent).join(';');
    if (request.search !== undefined) params.search = request.search === '' ? null : encodeURIComponent(request.search);
    win.history.replaceState(win.history.state, '', withParams(win.location.hash, params));
    win.dispatchEvent(new HashChangeEvent('hashchange'));
    reply({ type: 'flameview:set', id: request.id });
  };
  win.addEventListener('message', onMessage);
  return () => win.removeEventListener('message', onMessage);
}

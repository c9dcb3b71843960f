// Copy link and Share, without React: the server probe (a `bin/flameview serve` answers
// GET /api/profiles with a JSON list; a static host answers with the app's HTML or 404), the
// upload of the open recording's own bytes (POST /api/profiles with X-Filename), and the copy
// with its fallback. Every failure is a value with a message, never a throw.

import { openedBytes } from '../loading/client';
import { withProfile } from '../loading/hash';

/** The server's API root for this page: /api/profiles at the origin (or before a /p/<id> path). */
export function apiRoot(loc: Pick<Location, 'origin' | 'pathname'>): string {
  const m = /\/p\/[0-9a-f]{64}\/?$/.exec(loc.pathname);
  const base = m ? loc.pathname.slice(0, m.index) : '';
  return `${loc.origin}${base}/api/profiles`;
}

let probe: Promise<boolean> | null = null;

/** True when a flameview server that stores recordings answers on this origin (asked once). */
export function serverAvailable(loc: Pick<Location, 'origin' | 'pathname'> = window.location): Promise<boolean> {
  probe ??= (async () => {
    try {
      const res = await fetch(apiRoot(loc), { headers: { accept: 'application/json' }, cache: 'no-store' });
      if (res.status !== 200 || !(res.headers.get('content-type') ?? '').includes('application/json')) return false;
      return Array.isArray(await res.json());
    } catch {
      return false;
    }
  })();
  return probe;
}

export type ShareResult = { ok: true; url: string } | { ok: false; message: string };

/**
 * Uploads the open recording; on success the address becomes <origin>/p/<id>#<view state>
 * (replacing the current entry: the same recording, now with a link that carries it).
 */
export async function shareOpenRecording(win: Window = window): Promise<ShareResult> {
  const bytes = openedBytes();
  if (!bytes) return { ok: false, message: 'this recording was opened from a link, which already carries it' };
  let res: Response;
  try {
    res = await fetch(apiRoot(win.location), {
      method: 'POST',
      body: bytes.body,
      headers: { 'content-type': 'application/octet-stream', 'x-filename': encodeURIComponent(bytes.name) },
    });
  } catch (e) {
    return { ok: false, message: `the upload failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    // Reported below with the status.
  }
  const field = (k: string) => (body && typeof body === 'object' && k in body ? String((body as Record<string, unknown>)[k]) : null);
  if (res.status !== 200 && res.status !== 201) return { ok: false, message: `the server refused it (${res.status}): ${field('error') ?? res.statusText}` };
  const path = field('url');
  if (!path || !/^\/p\/[0-9a-f]{64}$/.test(path)) return { ok: false, message: 'the server gave no link for the upload' };
  const root = apiRoot(win.location).slice(0, -'/api/profiles'.length);
  const hash = withProfile(win.location.hash, null);
  win.history.replaceState(win.history.state, '', `${root}${path}${hash}`);
  return { ok: true, url: win.location.href };
}

/** Copies text; false when the clipboard is not available (the caller shows it to select). */
export async function copyText(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard?.writeText) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

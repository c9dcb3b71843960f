// The team server as the page sees it, without React: what it offers (said in the page's
// <meta name="flameview-store">), the upload token kept in this browser for that server, the delete tokens of the
// recordings this browser uploaded there, deleting one, and the list (servers started with
// --list). Tokens live in localStorage under keys that name the server's API root, so two servers
// on one origin (different paths) keep theirs apart. Every failure is a value with a message.

export interface ServerInfo {
  /** Uploads (and the list) need the upload token. */
  uploadToken: boolean;
  /** GET /api/profiles answers. */
  list: boolean;
}

export interface StoredRecording {
  id: string;
  name: string;
  size: number;
  date: string;
}

/** What this browser keeps about a recording it uploaded. */
export interface OwnedRecording {
  deleteToken: string;
  name: string;
}

type Failure = { ok: false; message: string; unauthorized?: boolean };

/** The server's API root for this page: /api/profiles at the origin (or before a /p/<id> path). */
export function apiRoot(loc: Pick<Location, 'origin' | 'pathname'>): string {
  const m = /\/p\/[0-9a-f]{64}\/?$/.exec(loc.pathname);
  const base = m ? loc.pathname.slice(0, m.index) : '';
  return `${loc.origin}${base}/api/profiles`;
}

/** The recording a /p/<id> page shows, or null. */
export function pageRecordingId(loc: Pick<Location, 'pathname'>): string | null {
  return /\/p\/([0-9a-f]{64})\/?$/.exec(loc.pathname)?.[1] ?? null;
}

/** The tag a flameview server that stores recordings puts in its pages (src/server/store-routes.ts). */
export const STORE_META = 'flameview-store';

/**
 * What the flameview server that served this page offers, or null when it was not one that stores
 * recordings. The page says so itself (<meta name="flameview-store" data-upload-token data-list>),
 * so no probe request is made (a probe would be a failing request on every static host and on
 * `flameview FILE`).
 */
export function serverInfo(doc: Pick<Document, 'querySelector'> = document): Promise<ServerInfo | null> {
  const meta = doc.querySelector(`meta[name="${STORE_META}"]`);
  if (!meta) return Promise.resolve(null);
  return Promise.resolve({ uploadToken: meta.hasAttribute('data-upload-token'), list: meta.hasAttribute('data-list') });
}

// localStorage can be missing or refuse (private windows, storage off): then nothing is kept.
function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}

function write(key: string, value: string | null): void {
  try {
    if (value === null) window.localStorage.removeItem(key);
    else window.localStorage.setItem(key, value);
  } catch {
    // Not kept; the user is asked again next time.
  }
}

const tokenKey = (api: string) => `flameview:upload-token:${api}`;
const ownedKey = (api: string) => `flameview:uploaded:${api}`;

export function uploadToken(api: string): string | null {
  return read(tokenKey(api));
}

export function saveUploadToken(api: string, token: string | null): void {
  write(tokenKey(api), token === null ? null : token.trim());
}

/** The Authorization header for an upload to `api`, when this browser has its token. */
export function uploadAuthorization(api: string): Record<string, string> {
  const token = uploadToken(api);
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The recordings this browser uploaded to `api`, by id. */
export function ownedRecordings(api: string): Record<string, OwnedRecording> {
  try {
    const parsed = JSON.parse(read(ownedKey(api)) ?? '{}') as unknown;
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, OwnedRecording>) : {};
  } catch {
    return {};
  }
}

export function rememberOwned(api: string, id: string, owned: OwnedRecording | null): void {
  const all = ownedRecordings(api);
  if (owned) all[id] = owned;
  else delete all[id];
  write(ownedKey(api), JSON.stringify(all));
}

/** DELETE with the kept delete token; forgets the token once the recording is gone. */
export async function deleteShared(api: string, id: string): Promise<{ ok: true; alreadyGone: boolean } | Failure> {
  const owned = ownedRecordings(api)[id];
  if (!owned) return { ok: false, message: 'this browser has no delete token for it' };
  let res: Response;
  try {
    res = await fetch(`${api}/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${owned.deleteToken}` } });
  } catch (e) {
    return { ok: false, message: `the request failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (res.status === 204 || res.status === 404) {
    rememberOwned(api, id, null);
    return { ok: true, alreadyGone: res.status === 404 };
  }
  return { ok: false, message: `the server refused it (${res.status}): ${await errorOf(res)}` };
}

/** GET /api/profiles, with the upload token when this browser has it. */
export async function listRecordings(api: string): Promise<{ ok: true; recordings: StoredRecording[] } | Failure> {
  let res: Response;
  try {
    res = await fetch(api, { headers: { accept: 'application/json', ...uploadAuthorization(api) }, cache: 'no-store' });
  } catch (e) {
    return { ok: false, message: `the request failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (res.status === 401) return { ok: false, unauthorized: true, message: await errorOf(res) };
  if (res.status !== 200) return { ok: false, message: `the server refused it (${res.status}): ${await errorOf(res)}` };
  const body = (await res.json().catch(() => null)) as unknown;
  if (!Array.isArray(body)) return { ok: false, message: 'the server sent no list' };
  // Shown as links and text: only well-formed entries.
  const recordings = (body as Partial<StoredRecording>[]).filter(
    (r): r is StoredRecording => typeof r.id === 'string' && /^[0-9a-f]{64}$/.test(r.id) && typeof r.name === 'string' && typeof r.size === 'number' && typeof r.date === 'string',
  );
  return { ok: true, recordings };
}

/** The {error} of a JSON error answer, else the status text. */
export async function errorOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: unknown };
    if (typeof body.error === 'string') return body.error;
  } catch {
    // Not JSON.
  }
  return res.statusText || String(res.status);
}

/** Whether the page opened at the server's root without a recording in the address (read when this
 * module loads, before the app writes its state into the hash), until the list has been shown. */
const landing = {
  pending: typeof window !== 'undefined' && window.location.hash.replace(/^#/, '') === '' && pageRecordingId(window.location) === null,
};

/** True, once, when the page was opened at the server's root without a recording in the address. */
export function landedAtServerRoot(): boolean {
  const first = landing.pending;
  landing.pending = false;
  return first;
}

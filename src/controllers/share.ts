// Copy link and Share, without React (whether the page's server stores recordings, what it
// offers and the tokens this browser keeps for it are in team-server.ts): the upload of the open
// recordings (POST /api/profiles with X-Filename; the baseline and a comparison opened from a
// file, in parallel) as their processed form (.flameview, made in the export worker: what the
// link then opens without parsing), the baseline's original bytes too when the uploader keeps
// them (the processed form keeps one event; the link's original= serves the others), the link
// that reopens them (/p/<id A>#…&compare=<…/api/profiles/<id B>>), and the copy with its
// fallback. Every failure is a value with a message, never a throw; a failed upload links nothing.

import { adoptCompareUrl, compareOpenedBytes, openedBytes, requestedCompareUrl } from './recordings';
import { forgetLocalName } from '../store/url/local-recording';
import { useStore } from '../store/store';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { linkShared } from './url-sync';
import { recordingBlob } from './recording-file';
import { apiRoot, deleteShared, errorOf, ownedRecordings, rememberOwned, uploadAuthorization } from './team-server';

export { apiRoot } from './team-server';
export { withHashParam } from '../store/url/profile-hash';

export type ShareResult =
  | { ok: true; url: string; uploaded: { baseline: boolean; comparison: boolean; original: boolean } }
  /** unauthorized: the server wants its upload token (none kept, or the kept one is wrong). */
  | { ok: false; message: string; unauthorized?: boolean };

type Upload = { ok: true; id: string; path: string } | { ok: false; message: string; unauthorized?: boolean };

/**
 * POSTs one recording's bytes (with the upload token this browser keeps for the server); the id
 * and /p/<id> path the server gave, or why not. A delete token in the answer is kept.
 */
async function upload(api: string, bytes: { body: Blob | string; name: string }): Promise<Upload> {
  let res: Response;
  try {
    res = await fetch(api, {
      method: 'POST',
      body: bytes.body,
      headers: { 'content-type': 'application/octet-stream', 'x-filename': encodeURIComponent(bytes.name), ...uploadAuthorization(api) },
    });
  } catch (e) {
    return { ok: false, message: `the upload failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (res.status === 401) return { ok: false, unauthorized: true, message: `the server wants its upload token: ${await errorOf(res)}` };
  if (res.status !== 200 && res.status !== 201) return { ok: false, message: `the server refused it (${res.status}): ${await errorOf(res)}` };
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  const path = typeof body?.url === 'string' ? body.url : null;
  const m = path ? /^\/p\/([0-9a-f]{64})$/.exec(path) : null;
  if (!path || !m) return { ok: false, message: 'the server gave no link for the upload' };
  if (typeof body?.deleteToken === 'string') rememberOwned(api, m[1], { deleteToken: body.deleteToken, name: bytes.name });
  return { ok: true, id: m[1], path };
}

/**
 * Where a stored recording's bytes are, as the link's compare= names it: a path from the root of
 * this origin (…/api/profiles/<id>), so the link works on whatever host name reaches the server.
 */
export function storedBytesPath(loc: Pick<Location, 'origin' | 'pathname'>, id: string): string {
  return `${apiRoot(loc).slice(loc.origin.length)}/${id}`;
}

/**
 * A comparison URL as given (maybe relative to the page) made independent of the page's path, for
 * a page that moves to /p/<id>: a path from the root on this origin, the full URL elsewhere.
 */
export function rebaseUrl(raw: string, oldBase: string, origin: string): string {
  let url: URL;
  try {
    url = new URL(raw, oldBase);
  } catch {
    return raw;
  }
  return url.origin === origin ? `${url.pathname}${url.search}` : url.href;
}

export interface ShareParts {
  /** Upload the open recording (A): it came from a file or pasted text and is not stored yet. */
  baseline: boolean;
  /** Upload the comparison (B): it came from a file. */
  comparison: boolean;
  /** Upload the baseline's original bytes too, named by the link's original= (its other events). */
  keepOriginal?: boolean;
}

/** What the processed form of `name` is uploaded as: the name it was opened by, marked. */
export function processedName(name: string): string {
  return /\.flameview$/i.test(name) ? name : `${name}.flameview`;
}

/** The processed form of an open recording, as an upload; or why it could not be made. */
async function processedUpload(snapshot: ProfileSnapshot, name: string): Promise<{ ok: true; body: Blob; name: string } | { ok: false; message: string }> {
  try {
    return { ok: true, body: await recordingBlob(snapshot, 'flameview'), name: processedName(name) };
  } catch (e) {
    return { ok: false, message: `its processed form could not be made: ${e instanceof Error ? e.message : String(e)}` };
  }
}

/** Makes the processed form of an open recording and uploads it. */
async function uploadProcessed(api: string, snapshot: ProfileSnapshot, name: string): Promise<Upload> {
  const made = await processedUpload(snapshot, name);
  return made.ok ? upload(api, made) : made;
}

/**
 * Uploads what the link cannot carry, in parallel: the open recording (A) and, with a comparison
 * open from a file, the comparison (B), each as its processed form; with keepOriginal, A's own
 * bytes too. On success the address becomes <origin>/p/<id A>#<view
 * state>&compare=<…/api/profiles/<id B>>&original=<…/api/profiles/<id of A's bytes>> (or keeps its path when A is already linked), replacing
 * the current entry. If either upload fails, or either recording changes meanwhile, nothing is
 * linked: the address stays as it was and the message names what failed.
 */
export async function shareRecordings(parts: ShareParts, win: Window = window): Promise<ShareResult> {
  const a = parts.baseline ? openedBytes() : null;
  const b = parts.comparison ? compareOpenedBytes() : null;
  if (parts.baseline && !a) return { ok: false, message: 'this recording was opened from a link, which already carries it' };
  if (parts.comparison && !b) return { ok: false, message: 'the comparison was opened from a link, which already carries it' };
  if (!a && !b) return { ok: false, message: 'there is nothing to upload: the link already carries the recordings' };
  const before = useStore.getState();
  const api = apiRoot(win.location);
  const keep = a !== null && parts.keepOriginal === true;
  const [ra, rb, ro] = await Promise.all([
    a && before.recordings.a.snapshot ? uploadProcessed(api, before.recordings.a.snapshot, a.name) : null,
    b && before.recordings.b.snapshot ? uploadProcessed(api, before.recordings.b.snapshot, b.name) : null,
    keep ? upload(api, a) : null,
  ]);
  const failures: string[] = [];
  if (ra && !ra.ok) failures.push(b ? `the baseline (${a!.name}): ${ra.message}` : ra.message);
  if (ro && !ro.ok) failures.push(`the original recording (${a!.name}): ${ro.message}`);
  if (rb && !rb.ok) failures.push(a ? `the comparison (${b!.name}): ${rb.message}` : `the comparison: ${rb.message}`);
  const unauthorized = [ra, rb, ro].some((r) => r && !r.ok && r.unauthorized) || undefined;
  if (failures.length) return { ok: false, unauthorized, message: failures.length === 1 && a && b ? `${failures[0]}; nothing was linked` : failures.join('; ') };
  const after = useStore.getState();
  if (after.recordings.a.snapshot !== before.recordings.a.snapshot || after.recordings.b.snapshot !== before.recordings.b.snapshot) {
    return { ok: false, message: 'a recording changed during the upload; nothing was linked' };
  }

  // The baseline is on the server now: the link names it there, not as a local file.
  if (ra?.ok) forgetLocalName();
  const moving = ra?.ok === true;
  let compare: string | null = null;
  if (rb?.ok) compare = storedBytesPath(win.location, rb.id);
  else if (moving && requestedCompareUrl() !== null) compare = rebaseUrl(requestedCompareUrl()!, win.document.baseURI, win.location.origin);
  if (compare !== null) adoptCompareUrl(compare);
  // A new baseline replaces the original an earlier Share named.
  const original = ra?.ok ? (ro?.ok ? storedBytesPath(win.location, ro.id) : null) : undefined;
  if (original !== undefined) useStore.getState().setOriginal(original);
  linkShared({ page: ra?.ok ? `${api.slice(0, -'/api/profiles'.length)}${ra.path}` : null, compare, original }, win);
  return { ok: true, url: win.location.href, uploaded: { baseline: a !== null, comparison: b !== null, original: keep } };
}

/** Uploads the open recording alone (see shareRecordings). */
export function shareOpenRecording(win: Window = window): Promise<ShareResult> {
  return shareRecordings({ baseline: true, comparison: false }, win);
}

/**
 * Deletes the page's shared recording and, when its link names an original this browser uploaded
 * (Share with "Keep the original recording"), that too: the link opened both.
 */
export async function deleteSharedWithOriginal(api: string, id: string): Promise<Awaited<ReturnType<typeof deleteShared>>> {
  const result = await deleteShared(api, id);
  if (!result.ok) return result;
  const original = useStore.getState().original;
  const m = original ? /\/api\/profiles\/([0-9a-f]{64})$/.exec(original) : null;
  if (m && ownedRecordings(api)[m[1]]) {
    const second = await deleteShared(api, m[1]);
    if (!second.ok) return { ok: false, message: `the recording was deleted, its original not: ${second.message}` };
  }
  return result;
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

// Who may write to `flameview serve`: the upload token (a shared secret the team is given,
// required as `Authorization: Bearer …` on uploads and on the list), and delete tokens, which the
// server hands to the uploader of a recording and nobody else (an HMAC of the id under the store's
// secret, as the Firefox Profiler's upload server hands out a JWT), so deleting needs no account
// and no state beyond that one secret.
//
// Invariants: tokens are compared in constant time; a delete token names one recording only.

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** The token of `Authorization: Bearer <token>`, or null. */
export function bearerToken(header: unknown): string | null {
  if (typeof header !== 'string') return null;
  const m = /^Bearer[ ]+([\x21-\x7e]+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

/** Equal strings, compared without leaking where they differ (or their lengths). */
export function sameToken(given: string | null, expected: string): boolean {
  if (given === null) return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/** The delete token of a recording: base64url HMAC-SHA256 of `delete:<id>` under the secret. */
export function deleteToken(secret: Buffer, id: string): string {
  return createHmac('sha256', secret).update(`delete:${id}`).digest('base64url');
}

/**
 * An upload token as kept in a file or an environment variable: trimmed, and only the characters a
 * Bearer header carries. Throws a one-line Error otherwise.
 */
export function checkUploadToken(raw: string, where: string): string {
  const token = raw.trim();
  if (token.length < 16) throw new Error(`${where}: the upload token must be at least 16 characters`);
  if (!/^[\x21-\x7e]+$/.test(token)) throw new Error(`${where}: the upload token may hold only printable ASCII without spaces`);
  return token;
}

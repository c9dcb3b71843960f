// Response headers and input validation shared by both servers (`flameview FILE` and
// `flameview serve`).
//
// Invariants: every response carries SECURITY_HEADERS, including errors, 404s and static files;
// a stored recording is only ever addressed by an id that matches ID_PATTERN, so no request path
// can name a file outside the store.

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  // http: and https: so that `#profile=<url>` links to recordings on other servers load, a
  // user's own http:// server included; whether a server lets the page read it is CORS's call.
  "connect-src 'self' http: https:",
  "img-src 'self' data: blob:",
  "worker-src 'self' blob:",
  "style-src 'self' 'unsafe-inline'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
};

/** A recording id: the lowercase hex sha256 of the bytes as uploaded. */
export const ID_PATTERN = /^[0-9a-f]{64}$/;

export function isValidId(id: unknown): id is string {
  return typeof id === 'string' && ID_PATTERN.test(id);
}

/**
 * Cleans an untrusted file name (the X-Filename header) for the listing: percent-decoded when it
 * is valid percent-encoding (what `encodeURIComponent` sends, since HTTP headers are not UTF-8),
 * reduced to its last path component, without control characters, at most 200 characters.
 * The result is still untrusted text for the UI, which must render it as text.
 */
export function cleanFileName(raw: unknown): string {
  if (typeof raw !== 'string') return '';
  let name = raw;
  if (/%[0-9a-fA-F]{2}/.test(name)) {
    try {
      name = decodeURIComponent(name);
    } catch {
      // Not percent-encoding after all: keep it as sent.
    }
  }
  name = name.replace(/[\u0000-\u001f\u007f-\u009f]/g, '');
  const slash = Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\'));
  if (slash >= 0) name = name.slice(slash + 1);
  name = name.trim();
  if (name === '.' || name === '..') name = '';
  return Array.from(name).slice(0, 200).join('');
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266 / RFC 8187). */
export function attachmentDisposition(name: string, fallback: string): string {
  const ascii = name.replace(/[^A-Za-z0-9._ -]/g, '_').slice(0, 100) || fallback;
  const exact = encodeURIComponent(name || fallback).replace(/['()*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  return `attachment; filename="${ascii}"; filename*=UTF-8''${exact}`;
}

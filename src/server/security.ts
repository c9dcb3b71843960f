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

/**
 * SECURITY_HEADERS with `frame-ancestors` naming these origins (`serve --allow-embed`) instead of
 * 'none': the browser then lets only pages of those origins frame the viewer. No origins, no change.
 */
export function securityHeaders(allowEmbed: readonly string[] = []): Readonly<Record<string, string>> {
  if (allowEmbed.length === 0) return SECURITY_HEADERS;
  const csp = CONTENT_SECURITY_POLICY.replace("frame-ancestors 'none'", `frame-ancestors ${allowEmbed.join(' ')}`);
  return { ...SECURITY_HEADERS, 'content-security-policy': csp };
}

/**
 * The origin `scheme://host[:port]` that an --allow-embed value names, or null when it is not
 * exactly one http(s) origin (a path, a wildcard, a quote or a `;` could widen or break the policy).
 */
export function embedOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  // A wildcard is valid CSP but the page compares origins exactly: one origin per flag.
  if (!/^(?:[a-z0-9-]+(?:\.[a-z0-9-]+)*|\[[0-9a-f:.]+\])(?::\d+)?$/.test(url.host)) return null;
  return url.origin === value.replace(/\/$/, '') ? url.origin : null;
}

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

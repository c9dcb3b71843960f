// What the page's address asks to open: `#profile=<url>` in the hash (at start-up and on
// hashchange), or a recording stored by `bin/flameview serve` at /p/<id>. The hash may carry other
// view state (the store's URL projection); only the `profile` parameter is ours.

/** The raw (still relative, unchecked) profile URL in a location hash, or null. */
export function profileFromHash(hash: string): string | null {
  return urlParam(hash, 'profile');
}

/** Every `#profile=` of a location hash, in order (several: one graph of their sum), blanks dropped. */
export function profilesFromHash(hash: string): string[] {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (body === '') return [];
  return new URLSearchParams(body)
    .getAll('profile')
    .map((v) => v.trim())
    .filter((v) => v !== '');
}

/**
 * The hash with the profile parameters set to `urls` (all removed when empty), where the first
 * was; the other parameters are kept byte for byte, as withProfile keeps them.
 */
export function withProfiles(hash: string, urls: readonly string[]): string {
  const one = withProfile(hash, urls.length === 0 ? null : urls[0]);
  if (urls.length < 2) return one;
  const rest = urls.slice(1).map((u) => `profile=${encodeURIComponent(u)}`);
  const parts = (one.startsWith('#') ? one.slice(1) : one).split('&');
  const at = parts.findIndex((p) => p.startsWith('profile='));
  parts.splice(at + 1, 0, ...rest);
  return `#${parts.join('&')}`;
}

function urlParam(hash: string, key: string): string | null {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (body === '') return null;
  const value = new URLSearchParams(body).get(key);
  return value === null || value.trim() === '' ? null : value.trim();
}

/**
 * The hash with the profile parameter set to `url` (or removed when null). The other parameters
 * are kept byte for byte: re-serialising them would encode the zoom path's literal `;`.
 */
export function withProfile(hash: string, url: string | null): string {
  return withHashParam(hash, 'profile', url === null ? null : encodeURIComponent(url));
}

/**
 * The hash with `key` set to the already-encoded `value` (or removed when null), in its place;
 * the other parameters are kept byte for byte.
 */
export function withHashParam(hash: string, key: string, value: string | null): string {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const is = (p: string) => p === key || p.startsWith(`${key}=`);
  const parts = body.split('&').filter((p) => p !== '');
  const at = parts.findIndex(is);
  const rest = parts.filter((p) => !is(p));
  if (value !== null) rest.splice(at < 0 ? rest.length : at, 0, `${key}=${value}`);
  return rest.length === 0 ? '' : `#${rest.join('&')}`;
}

/** `bin/flameview serve` shows a stored recording at …/p/<sha256>; its bytes are at /api/profiles/<id>. */
export function profileFromPath(pathname: string): string | null {
  const m = /\/p\/([0-9a-f]{64})\/?$/.exec(pathname);
  return m ? `${pathname.slice(0, m.index)}/api/profiles/${m[1]}` : null;
}

// What the page's address asks to open: `#profile=<url>` in the hash (at start-up and on
// hashchange), or a recording stored by `bin/flameview serve` at /p/<id>. The hash may carry other
// view state (the store's URL projection); only the `profile` parameter is ours.

/** The raw (still relative, unchecked) profile URL in a location hash, or null. */
export function profileFromHash(hash: string): string | null {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (body === '') return null;
  const value = new URLSearchParams(body).get('profile');
  return value === null || value.trim() === '' ? null : value.trim();
}

/** The hash with the profile parameter set to `url` (or removed when null), other parameters kept. */
export function withProfile(hash: string, url: string | null): string {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const params = new URLSearchParams(body);
  if (url === null) params.delete('profile');
  else params.set('profile', url);
  const text = params.toString();
  return text === '' ? '' : `#${text}`;
}

/** `bin/flameview serve` shows a stored recording at …/p/<sha256>; its bytes are at /api/profiles/<id>. */
export function profileFromPath(pathname: string): string | null {
  const m = /\/p\/([0-9a-f]{64})\/?$/.exec(pathname);
  return m ? `${pathname.slice(0, m.index)}/api/profiles/${m[1]}` : null;
}

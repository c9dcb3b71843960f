// What a profile URL may be and what it is called: the page's first script checks a link with
// these before the app loads (src/boot.ts), so they import nothing.

/** Only absolute http(s) URLs may be fetched; anything else (javascript:, data:, file:) is refused. */
export function checkProfileUrl(raw: string, base?: string): { ok: true; url: string } | { ok: false; message: string } {
  let url: URL;
  try {
    url = base === undefined ? new URL(raw) : new URL(raw, base);
  } catch {
    return { ok: false, message: `Not a valid URL: ${JSON.stringify(raw.slice(0, 200))}` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, message: `Refused to open ${JSON.stringify(raw.slice(0, 200))}: only http and https URLs can be opened` };
  }
  return { ok: true, url: url.href };
}

/** The last path segment of a URL, decoded (what the status bar names a linked recording by). */
export function lastSegment(href: string): string {
  const url = new URL(href);
  const last = url.pathname.split('/').filter(Boolean).pop();
  if (!last) return url.host;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

// Whether the page is embedded (`?embed=1`), apart from the embedding protocol (embed.ts) so the
// page's first script (src/boot.ts) can ask without loading the store.

/** `?embed=1`: the compact layout for a frame (no header, no demo while waiting for the host). */
export function isEmbedMode(search: string = globalThis.location?.search ?? ''): boolean {
  return new URLSearchParams(search).get('embed') === '1';
}

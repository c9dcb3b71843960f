// Start-up and page-wide triggers for loading: an HTML report's own recordings, else the location hash (`#profile=<url>`), else a
// stored recording's /p/<id> path, else, for a link made from a local file (`#file=…`), nothing:
// the page asks for that file (store.awaitingLocal); else the demo; hashchange, Ctrl+V of text anywhere outside an input, and the store's reload requests.

import { useStore } from '../store/store';
import { openDemo, openPasted, openUrl, reload } from './recordings';
import { profileFromHash, profileFromPath, withProfile } from '../store/url/profile-hash';
import { localRecordingFromHash } from '../store/url/local-recording';
import { sameUrl } from '../store/url/url-state';
import { isEmbedMode } from './embed';
import { openReportRecordings } from './report';

/** Called once, from main.tsx. */
export function startLoadingController(win: Window = window): void {
  let lastProfile = profileFromHash(win.location.hash);
  const fromPath = profileFromPath(win.location.pathname);
  const pathUrl = fromPath === null ? null : new URL(fromPath, win.location.href).href;
  const local = localRecordingFromHash(win.location.hash);
  // A report opens what it carries; its hash keeps only the view's state (zoom, search, …).
  if (openReportRecordings(win.document)) lastProfile = null;
  else if (lastProfile !== null) void openUrl(lastProfile);
  else if (pathUrl !== null) void openUrl(pathUrl);
  // The demo would take the link's state for itself (a zoom "not found", the hash rewritten).
  else if (local !== null) useStore.getState().setAwaitingLocal(local);
  // Embedded, the host page sends the recording (controllers/embed.ts); the demo would flash first.
  else if (!isEmbedMode(win.location.search)) void openDemo();

  win.addEventListener('hashchange', () => {
    const profile = profileFromHash(win.location.hash);
    // The store may rewrite other parts of the hash; only a new profile URL means "open".
    if (profile === null || profile === lastProfile) return;
    lastProfile = profile;
    void openUrl(profile);
  });

  win.document.addEventListener('paste', (event) => {
    if (isEditable(event.target)) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (text.trim() === '') return;
    event.preventDefault();
    void openPasted(text);
  });

  // Keep `#profile=` in step with what is open, so a reload or a shared link reopens it: set for
  // a URL opened some other way (a dropped link), removed once a file, paste or the demo opens.
  useStore.subscribe(
    (s) => s.source,
    (source) => {
      if (!source) return;
      // The recording named by the path needs no hash; anything else opened replaces it there.
      const profile = source.kind === 'url' && source.url !== pathUrl ? (source.url ?? null) : null;
      const current = profileFromHash(win.location.hash);
      if (profile === null ? current === null : current !== null && sameUrl(current, profile, win.document.baseURI)) return;
      lastProfile = profile;
      const hash = withProfile(win.location.hash, profile);
      win.history.replaceState(win.history.state, '', hash === '' ? win.location.pathname + win.location.search : hash);
    },
  );

  useStore.subscribe(
    (s) => s.reloadRequest,
    (request) => {
      if (request) void reload(request.options);
    },
  );
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  const tag = target.tagName;
  return tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

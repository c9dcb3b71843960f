// Start-up and page-wide triggers for loading: the location hash (`#profile=<url>`, else the
// demo), hashchange, Ctrl+V of text anywhere outside an input, and the store's reload requests.

import { useStore } from '../store/store';
import { openDemo, openText, openUrl, reload } from './client';
import { profileFromHash } from './hash';

let started = false;

export function startLoadingController(win: Window = window): void {
  if (started) return;
  started = true;
  let lastProfile = profileFromHash(win.location.hash);
  if (lastProfile !== null) void openUrl(lastProfile);
  else void openDemo();

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
    void openText(text);
  });

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

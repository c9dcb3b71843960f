// Page-wide triggers for loading: Ctrl+V of text anywhere outside an input, and the store's
// reload requests. What the address opens (and keeping `#profile=` in step) is the URL sync's
// (url-sync.ts, startLinkedLoads): every read and write of the address is there.

import { useStore } from '../store/store';
import { openPasted, reload } from './recordings';

/** Called once, from controllers/index.ts. */
export function startLoadingController(win: Window = window): void {
  win.document.addEventListener('paste', (event) => {
    if (isEditable(event.target)) return;
    const text = event.clipboardData?.getData('text/plain') ?? '';
    if (text.trim() === '') return;
    event.preventDefault();
    void openPasted(text);
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

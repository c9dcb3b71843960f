// flameview-embed.js: the host page's side of the viewer's postMessage protocol (README,
// "Embedding the viewer"; the viewer's side is src/controllers/embed.ts). No dependencies; an ES
// module the flameview server serves beside the app (`<server>/flameview-embed.js`).
//
//   import { embedFlameview } from 'https://flameview.example.com/flameview-embed.js';
//   const viewer = await embedFlameview(document.getElementById('profile'), 'https://flameview.example.com/');
//   await viewer.open(await (await fetch('perf.txt')).arrayBuffer(), 'perf.txt');  // → {name, samples}
//   await viewer.set({ view: 'inline', search: 'parse', zoom: ['main', 'parse'] });
//
// The server must allow the host's origin: `flameview serve --allow-embed https://host.example`.

/**
 * Puts the viewer in an iframe inside `container` and resolves, once it said "ready", to an object
 * whose open() and set() resolve to the viewer's answer or reject with its reason. Rejects after
 * `timeoutMs` without "ready" (the server does not allow this origin, or is not flameview).
 */
export function embedFlameview(container, viewerUrl, { timeoutMs = 15000 } = {}) {
  const url = new URL(viewerUrl, document.baseURI);
  url.searchParams.set('embed', '1');
  const origin = url.origin;
  const frame = document.createElement('iframe');
  frame.title = 'flameview';
  frame.style.cssText = 'width:100%;height:100%;border:0';
  const pending = new Map();
  let next = 1;
  let onReady;
  const ready = new Promise((resolve, reject) => {
    onReady = resolve;
    setTimeout(() => reject(new Error(`the viewer at ${origin} did not answer; is this origin (${location.origin}) allowed with --allow-embed?`)), timeoutMs);
  });
  window.addEventListener('message', (event) => {
    // Only the viewer's frame, from the viewer's origin, is listened to.
    if (event.source !== frame.contentWindow || event.origin !== origin) return;
    const m = event.data;
    if (!m || typeof m.type !== 'string') return;
    if (m.type === 'flameview:ready') return onReady();
    const waiting = pending.get(m.id);
    if (!waiting) return;
    pending.delete(m.id);
    if (m.type === 'flameview:error') waiting.reject(new Error(m.reason));
    else waiting.resolve(m);
  });
  const send = (message, transfer) =>
    new Promise((resolve, reject) => {
      const id = next++;
      pending.set(id, { resolve, reject });
      frame.contentWindow.postMessage({ ...message, id }, origin, transfer);
    });
  frame.src = url.href;
  container.append(frame);
  return ready.then(() => ({
    frame,
    /** Opens a recording: its bytes (ArrayBuffer, typed array or Blob) and a name, or a URL string. */
    open(bytesOrUrl, name) {
      return typeof bytesOrUrl === 'string' ? send({ type: 'flameview:open', url: bytesOrUrl }) : send({ type: 'flameview:open', bytes: bytesOrUrl, name });
    },
    /** Sets the view ('functions' | 'inline'), the zoom (frame names, root first) and the search. */
    set(state) {
      return send({ type: 'flameview:set', ...state });
    },
  }));
}

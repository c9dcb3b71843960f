// The page's first script (what index.html loads). For a plain `#profile=<url>` link it starts the
// recording's profile worker at once and draws the first picture itself (first-picture.ts), and
// only then loads the app (main.tsx), which takes over the worker and its answer
// (controllers/first-open.ts). On 2 cores the app's compile and React's first renders competed
// with the worker's parse; drawing first took a third off a small recording's time to its picture
// (bench/README.md, "The first picture before the app"). Every other address loads the app at once.
//
// The app also loads, without waiting for the picture, when the recording is large (its progress
// and its Cancel button matter more than an early picture), when the open fails (the app says
// why), when the hash changes (the app opens what it names; Back too), and after APP_WAIT_MS
// whatever happens (a slow server). A window shorter than FIRST_PICTURE_MIN_HEIGHT gets no
// picture: there the viewer keeps its graph's minimum height and the page scrolls, so the graph
// is not where the picture would be.

// No stylesheet is imported here: the app's one stylesheet (vite.config.ts, cssCodeSplit: false)
// is linked by index.html, its rules in the app's import order; importing app.css here put it
// before the components' rules and changed which of them win.
import { FirstOpen, firstOpen, firstOpenLink, openOptions } from './controllers/first-open';
import { fromTransfer } from './core/views/snapshot';
import { drawFirstPicture } from './first-picture';

/** Above this many bytes the app loads at once, to show the load's progress. */
const FIRST_PICTURE_MAX_BYTES = 32 * 1024 * 1024;
/** The longest the app waits for the first picture (ms): a 16 MB recording is drawn in ~450 here. */
const APP_WAIT_MS = 600;
/** The shortest window (px) whose viewer puts the graph where `.first-picture-graph` says (viewer.css). */
const FIRST_PICTURE_MIN_HEIGHT = 400;

const app = {
  started: false,
  start(): void {
    if (app.started) return;
    app.started = true;
    preloadAppChunks();
    void import('./main');
  },
};

/**
 * Asks for all of the app's chunks at once (index.html lists them: vite.config.ts), instead of
 * each import finding the next after its parse: one round trip to the server, not two. None are
 * listed in development or in a report.
 */
function preloadAppChunks(): void {
  let files: unknown = [];
  try {
    files = JSON.parse(document.getElementById('flameview-app-chunks')?.textContent ?? '[]');
  } catch {
    return;
  }
  if (!Array.isArray(files)) return;
  for (const file of files) {
    if (typeof file !== 'string') continue;
    const preload = document.createElement('link');
    preload.rel = 'modulepreload';
    preload.href = new URL(file, document.baseURI).href;
    document.head.append(preload);
  }
}

const link = innerHeight >= FIRST_PICTURE_MIN_HEIGHT ? firstOpenLink(location, document) : null;
if (link === null) app.start();
else {
  performance.mark('flameview:first-open', { detail: link.name });
  const open = new FirstOpen(link.url, openOptions(link.name), (p) => {
    if (p.totalBytes !== null && p.totalBytes > FIRST_PICTURE_MAX_BYTES) app.start();
  });
  firstOpen.set(open);
  setTimeout(app.start, APP_WAIT_MS);
  window.addEventListener('hashchange', app.start, { once: true });
  open.answer?.then(
    (result) => {
      if (app.started || !result.ok) return app.start();
      performance.mark('flameview:first-received', { detail: link.name });
      try {
        // The app loads after the frame that shows the picture (drawn now, shown in the next
        // frame; a task posted from that frame's callbacks runs once it has rendered).
        drawFirstPicture(fromTransfer(result.wire), result.name ?? link.name, link, () => requestAnimationFrame(() => setTimeout(app.start)));
      } catch {
        app.start(); // no picture (no canvas, or the draw failed): the app draws, or says why it cannot
      }
    },
    app.start,
  );
}

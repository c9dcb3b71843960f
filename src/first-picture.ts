// The first picture of a linked recording, drawn by the page's first script (src/boot.ts) before
// the app has loaded: the canvas renderer draws the recording the way the app's viewer opens it
// (whole, in the view, orientation and sibling order the link names) where the viewer's graph will
// be, on a cover of the page's background. The app's viewer then draws the same picture under the
// cover, which goes once the app's graph has drawn (its aria-busy turns "false"), so the hand-over
// changes nothing on screen but the header, the toolbar and the status bar appearing around the
// graph. The cover is inert: hidden from assistive technology, out of the focus order, and clicks
// go through it.
//
// Where the graph goes (`.first-picture-graph` in viewer.css) is the viewer's layout at its first
// picture; e2e/first-picture.spec.ts holds the two in step.

import { treeOf } from './core/query/tree-walks';
import type { FirstLink } from './controllers/first-open';
import type { ProfileSnapshot } from './core/views/snapshot';
import { FlameRenderer } from './render/flame-renderer';
import type { FlameSource, FlameState } from './render/flame-source';

/** A source that shows one state and takes no input (the app is not there yet to take it). */
function stillSource(state: FlameState): FlameSource {
  const ignore = () => {};
  return { read: () => state, subscribe: () => ignore, hover: ignore, select: ignore, zoom: ignore, setViewport: ignore, cancelAnimation: ignore };
}

/**
 * Draws `snapshot` as the app's viewer will, at once, titles the page after `name`, and calls
 * `onDrawn` once the picture is on the canvas. The cover removes itself when the app's graph has
 * drawn, the app shows an alert, or the address's hash changes (the app then opens something
 * else); a draw that throws removes it and throws on.
 */
export function drawFirstPicture(snapshot: ProfileSnapshot, name: string, shown: Pick<FirstLink, 'view' | 'orientation' | 'order'>, onDrawn: () => void): void {
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] => {
    const e = document.createElement(tag);
    e.className = className;
    return e;
  };
  // The viewer's structure (components/FlameGraph.tsx): the graph and its cut-off cues in a wrap.
  const cover = element('div', 'first-picture');
  cover.setAttribute('aria-hidden', 'true');
  cover.inert = true;
  const wrap = element('div', 'flame-wrap first-picture-graph');
  const graph = element('div', 'flame-graph');
  graph.dataset.firstPicture = '';
  const canvas = element('canvas', 'flame-canvas');
  const spacer = element('div', 'flame-spacer');
  const cues = { top: element('button', 'flame-cue flame-cue-top'), bottom: element('button', 'flame-cue flame-cue-bottom') };
  for (const cue of [cues.top, cues.bottom]) cue.hidden = true;
  graph.append(canvas, spacer);
  wrap.append(graph, cues.top, cues.bottom);
  cover.append(wrap);
  document.body.append(cover);
  document.title = `${name} · flameview`;

  const state: FlameState = {
    tree: treeOf(snapshot, shown.view),
    frames: snapshot.frames,
    key: snapshot,
    orientation: shown.orientation,
    order: shown.order,
    zoomNode: 0,
    viewport: { x0: 0, x1: 1 },
    selectedNode: -1,
    hoverNode: -1,
    matches: null,
    busy: false,
    nodeColours: null,
  };
  let renderer: FlameRenderer;
  try {
    renderer = new FlameRenderer(graph, canvas, spacer, stillSource(state), cues);
  } catch (e) {
    cover.remove(); // nothing drawn: the app's page shows at once
    throw e;
  }

  const drawn = new MutationObserver(() => {
    if (graph.getAttribute('aria-busy') !== 'false') return;
    drawn.disconnect();
    performance.mark('flameview:first-picture', { detail: name });
    onDrawn();
  });
  drawn.observe(graph, { attributes: true, attributeFilter: ['aria-busy'] });

  const root = document.getElementById('root') ?? document.body;
  const handedOver = new MutationObserver(() => {
    if (root.querySelector('[aria-label="Flame graph"][aria-busy="false"], [role="alert"]')) remove();
  });
  const remove = () => {
    handedOver.disconnect();
    drawn.disconnect();
    window.removeEventListener('hashchange', remove);
    renderer.destroy();
    cover.remove();
  };
  handedOver.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy', 'role'] });
  window.addEventListener('hashchange', remove);
  // At once, not at the next animation frame: the answer is what the page was waiting for.
  try {
    renderer.drawNow();
  } catch (e) {
    remove(); // no half-drawn picture over the app
    throw e;
  }
}

// The first picture of a linked recording, drawn by the page's first script (src/boot.ts) before
// the app has loaded: the canvas renderer draws the recording the way the app's viewer opens it
// (whole, in the view, orientation and sibling order the link names) where the viewer's graph will
// be, on a cover of the page's background. The app's viewer then draws the same picture under the
// cover, which goes once the app's graph has drawn (its aria-busy turns "false"), so the hand-over
// changes nothing on screen but the header, the toolbar and the status bar appearing around the
// graph. The cover is inert: hidden from assistive technology, out of the focus order, and clicks
// go through it.
//
// The cover is made, hidden, while the worker parses (prepareFirstPicture), and a renderer draws a
// small made-up graph into it then: the page's thread is idle while it waits, and the first draw
// of cold code (compiling the renderer, the canvas's backing store, the font) was ~20 of the ~55
// ms from the answer to the picture on screen. The answer is then drawn at once, not at the next
// animation frame (bench/README.md, "The first picture, prepared").
//
// Where the graph goes (`.first-picture-graph` in viewer.css) is the viewer's layout at its first
// picture; e2e/first-picture.spec.ts holds the two in step.

import { treeOf } from './core/query/tree-walks';
import type { FirstLink } from './controllers/first-open';
import type { ProfileSnapshot } from './core/views/snapshot';
import { FlameRenderer } from './render/flame-renderer';
import type { FlameSource, FlameState } from './render/flame-source';
import type { CallTree } from './core/model/call-tree';
import type { FrameTable } from './core/model/frame-table';

/** A source that shows one state and takes no input (the app is not there yet to take it). */
function stillSource(state: FlameState): FlameSource {
  const ignore = () => {};
  return { read: () => state, subscribe: () => ignore, hover: ignore, select: ignore, zoom: ignore, setViewport: ignore, cancelAnimation: ignore };
}

/** The first picture's cover, made before the answer: `show` draws it, `remove` takes it away. */
export interface FirstPicture {
  /**
   * Draws `snapshot` as the app's viewer will, titles the page after `name`, and calls `onDrawn`
   * once the picture is on the canvas. The cover then removes itself when the app's graph has
   * drawn, the app shows an alert, or the address's hash changes (the app opens something else).
   */
  show(snapshot: ProfileSnapshot, name: string, onDrawn: () => void): void;
  /** Takes the cover away (nothing shown yet: the app loads without a picture). */
  remove(): void;
}

/**
 * Makes the cover, hidden, and warms its renderer up with a made-up graph drawn in the next
 * animation frame. Throws when the canvas has no 2D context (then nothing is left behind).
 */
export function prepareFirstPicture(shown: Pick<FirstLink, 'view' | 'orientation' | 'order'>): FirstPicture {
  const element = <K extends keyof HTMLElementTagNameMap>(tag: K, className: string): HTMLElementTagNameMap[K] => {
    const e = document.createElement(tag);
    e.className = className;
    return e;
  };
  // The viewer's structure (components/FlameGraph.tsx): the graph and its cut-off cues in a wrap.
  const cover = element('div', 'first-picture');
  cover.setAttribute('aria-hidden', 'true');
  cover.inert = true;
  // Laid out (the canvas gets its size) but not seen until the answer is drawn.
  cover.style.visibility = 'hidden';
  const wrap = element('div', 'flame-wrap first-picture-graph');
  const graph = element('div', 'flame-graph');
  const canvas = element('canvas', 'flame-canvas');
  const spacer = element('div', 'flame-spacer');
  const cues = { top: element('button', 'flame-cue flame-cue-top'), bottom: element('button', 'flame-cue flame-cue-bottom') };
  for (const cue of [cues.top, cues.bottom]) cue.hidden = true;
  graph.append(canvas, spacer);
  wrap.append(graph, cues.top, cues.bottom);
  cover.append(wrap);
  document.body.append(cover);

  let renderer: FlameRenderer | null = null;
  const place = (state: FlameState): FlameRenderer => {
    renderer?.destroy();
    try {
      renderer = new FlameRenderer(graph, canvas, spacer, stillSource(state), cues);
    } catch (e) {
      renderer = null;
      cover.remove(); // nothing drawn: the app's page shows at once
      throw e;
    }
    return renderer;
  };
  // Drawn in the next frame, then let go: only the compiled code, the canvas and the font stay.
  const warm = place(warmUpState(shown));
  requestAnimationFrame(() => {
    if (renderer !== warm) return;
    warm.destroy();
    renderer = null;
  });

  const observers: MutationObserver[] = [];
  const remove = () => {
    for (const o of observers) o.disconnect();
    window.removeEventListener('hashchange', remove);
    renderer?.destroy();
    renderer = null;
    cover.remove();
  };
  return {
    remove,
    show(snapshot, name, onDrawn) {
      document.title = `${name} · flameview`;
      graph.setAttribute('aria-busy', 'true');
      graph.dataset.firstPicture = '';
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
      handedOver.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy', 'role'] });
      observers.push(drawn, handedOver);
      window.addEventListener('hashchange', remove);
      const state: FlameState = { ...still(shown), tree: treeOf(snapshot, shown.view), frames: snapshot.frames, key: snapshot };
      place(state).drawNow();
      cover.style.visibility = '';
    },
  };
}

/** A state of `shown`'s orientation and order with nothing zoomed, selected or searched. */
function still(shown: Pick<FirstLink, 'orientation' | 'order'>): Omit<FlameState, 'tree' | 'frames' | 'key'> {
  return { orientation: shown.orientation, order: shown.order, zoomNode: 0, viewport: { x0: 0, x1: 1 }, selectedNode: -1, hoverNode: -1, matches: null, busy: false, nodeColours: null };
}

/** Nodes in the made-up graph: enough that the draw's loops run long enough to be compiled past V8's interpreter. */
const WARM_UP_NODES = 1500;
const WARM_UP_NAMES = ['main', 'std::vector<int, std::allocator<int> >::_M_realloc_insert(int const&)', 'parse_expression(Parser&, int)', 'lookup<std::string>', 'x', '__libc_start_call_main', '[unknown]', 'core::ptr::drop_in_place<alloc::vec::Vec<u8>>'];

/**
 * A made-up graph of WARM_UP_NODES nodes, deep and wide, with labels long and short and frames too
 * narrow for one, drawn the way the answer will be; busy, so the graph's aria-busy stays "true"
 * and nothing counts it as drawn.
 */
function warmUpState(shown: Pick<FirstLink, 'orientation' | 'order'>): FlameState {
  const parent: number[] = [];
  const depth: number[] = [];
  const end: number[] = [];
  const selfWeight: number[] = [];
  const totalWeight: number[] = [];
  // Preorder: each node's children take 60 %, 30 %, 60 %... of what is left of it, down to 16 deep.
  const visit = (up: number, d: number, weight: number): void => {
    const node = parent.length;
    parent.push(up);
    depth.push(d);
    totalWeight.push(weight);
    selfWeight.push(0);
    end.push(0);
    let left = weight;
    for (let k = 0; d < 16 && left > 8 && parent.length < WARM_UP_NODES; k++) {
      const child = Math.ceil(left * (k % 2 ? 0.3 : 0.6));
      visit(node, d + 1, child);
      left -= child;
    }
    selfWeight[node] = left;
    end[node] = parent.length;
  };
  visit(-1, 0, 1e6);
  const n = parent.length;
  const frameCount = Math.ceil(n / 3);
  const strings = Array.from({ length: frameCount }, (_, i) => (i === 0 ? 'all' : `${WARM_UP_NAMES[i % WARM_UP_NAMES.length]}#${i}`));
  const frame = Int32Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1 + (i % (frameCount - 1))));
  const weights = { self: Float64Array.from(selfWeight), total: Float64Array.from(totalWeight) };
  const tree: CallTree = {
    nodeCount: n,
    parent: Int32Array.from(parent),
    frame,
    depth: Int32Array.from(depth),
    end: Int32Array.from(end),
    selfWeight: weights.self,
    totalWeight: weights.total,
    selfSamples: weights.self,
    totalSamples: weights.total,
    maxDepth: Math.max(...depth),
  };
  const frames: FrameTable = { count: frameCount, name: Int32Array.from({ length: frameCount }, (_, i) => i), module: new Int32Array(frameCount).fill(-1), flags: new Uint8Array(frameCount), strings };
  return { ...still(shown), tree, frames, key: tree, busy: true };
}

// The canvas flame graph renderer: no React and no store. It subscribes to the FlameSource it is
// handed (controllers/flame-sources.ts binds each pane's source to the store) and redraws on the
// next animation frame when what it shows changes (zoom, pan, hover, selection, search
// highlighting), so none of those re-render components.
//
// Contract: the container's aria-busy is "true" from the moment a change is pending (or a load,
// a search or a zoom animation is under way) until the frame showing it has been drawn, then
// "false". The e2e tests wait on it instead of sleeping.
//
// DOM it drives: container (scrolls vertically) > canvas (sticky, the size of the visible area)
// + spacer (makes the scroll height equal to the content height); and, when given, the two cue
// buttons over the canvas's top and bottom edges that say how many levels are cut off there (and
// cover the half-cut row), a click scrolling them into view; and the "N ancestors" button, the
// row a zoomed node's ancestors are folded into (layout.ts), whose click unfolds them.

import { Redraw } from './redraw';
import type { CallTree } from '../core/model/call-tree';
import type { FrameTable } from '../core/model/frame-table';
import type { FlameSource, FlameState } from './flame-source';
import { LabelFitter } from './labels';
import { LayoutBuffer, ROW_HEIGHT, contentHeight, deepestUnder, edgeCues, layoutFrames, rowTop, topOfRow, visibleDepths, type EdgeCue, type RowGeometry } from './layout';
import { fitCanvas } from './canvas-size';
import { COLOUR_COUNT, FrameColours, LIGHT, MATCH_COLOUR, ROOT_COLOUR, type Theme } from '../core/palette';

const MIN_WIDTH = 0.5;
const LABEL_MIN_WIDTH = 22;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';
/**
 * Outline of the frames of the function selected in the analysis table (FlameState.highlight): a
 * 3 px ring with a 1 px inner line of the opposite lightness, so it shows on every fill, faded or
 * not, in both themes.
 */
const HIGHLIGHT = { light: { ring: '#ad1457', inner: '#ffffff' }, dark: { ring: '#f8bbd0', inner: '#18191c' } };

export class FlameRenderer {
  readonly layout = new LayoutBuffer();
  rows: RowGeometry = { orientation: 'flame', rows: 1, viewHeight: 0, scrollTop: 0, rowHeight: ROW_HEIGHT };
  width = 0;
  /** Heights of the cut-off cues over the top and bottom edges at the last draw (0: none). */
  cueTop = 0;
  cueBottom = 0;
  /** Time spent in the last draw (ms), for the benchmark. */
  lastDrawMs = 0;

  private readonly ctx: CanvasRenderingContext2D;
  private readonly redraw: Redraw;
  private theme: Theme = LIGHT;
  private colours: FrameColours | null = null;
  private coloursFor: FrameTable | null = null;
  private labels: LabelFitter;
  private readonly cleanups: (() => void)[] = [];
  private lastOrientation: string | null = null;
  private lastKey: object | null = null;
  private hatch: CanvasPattern | null | undefined;
  private hatchDark = false;
  private lastSelected = -1;
  // Scratch for grouping rects by colour (see paint).
  private colourOf = new Int32Array(1024);
  private order = new Int32Array(1024);
  private counts = new Int32Array(COLOUR_COUNT + 1);
  /** Flame orientation: how far (px) the view is scrolled up from the bottom of the content. */
  private fromBottom = 0;
  /** content height - view height, at the last draw. */
  private scrollable = 0;
  private spacerHeight = '';
  /** The container's size and scroll position the last draw showed (-1: nothing drawn yet). */
  private drawn = { width: -1, height: -1, scrollTop: -1 };
  private viewHeight = 0;
  private labelFn: ((frame: number) => string) | null = null;
  private highlighted = '';
  /** Scratch: the y of each row at this draw (see paint). */
  private rowY = new Float64Array(64);
  /** The zoom whose ancestors the user unfolded (a new zoom folds them again). */
  private unfolded: { tree: CallTree; node: number } | null = null;
  /** The zoom shown at the last draw: a new one scrolls back to its row. */
  private lastZoom: { tree: CallTree | null; node: number; fold: number } = { tree: null, node: -1, fold: 0 };
  private deepest: { tree: CallTree | null; node: number; depth: number } = { tree: null, node: -1, depth: 0 };

  constructor(
    private readonly container: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly spacer: HTMLElement,
    /** What to draw and where interaction goes. */
    readonly source: FlameSource,
    private readonly cues: { top: HTMLButtonElement; bottom: HTMLButtonElement; ancestors?: HTMLButtonElement } | null = null,
  ) {
    this.redraw = new Redraw(container, () => this.draw());
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('flameview: canvas 2D is not available');
    this.ctx = ctx;
    this.labels = new LabelFitter(ctx, FONT);
    this.cleanups.push(source.subscribe(() => this.schedule()));
    // A ResizeObserver reports every observed element once at first, after the first draw has
    // already used that size, and the draw's own scroll to the root fires 'scroll': neither needs
    // another frame when the view is what was last drawn (the first picture is final one frame sooner).
    const resize = new ResizeObserver(() => {
      if (container.clientWidth !== this.drawn.width || container.clientHeight !== this.drawn.height) this.schedule();
    });
    resize.observe(container);
    this.cleanups.push(() => resize.disconnect());
    const onScroll = () => {
      // Flame graphs keep their distance from the bottom (the root) across resizes. Measured now:
      // a resize clamps scrollTop (and fires this) before the next draw updates `scrollable`.
      this.fromBottom = Math.max(0, container.scrollHeight - container.clientHeight - container.scrollTop);
      if (container.scrollTop !== this.drawn.scrollTop) this.schedule();
    };
    container.addEventListener('scroll', onScroll, { passive: true });
    this.cleanups.push(() => container.removeEventListener('scroll', onScroll));
    this.cleanups.push(
      this.redraw.onTheme((theme) => {
        this.theme = theme;
        this.colours = null;
      }),
    );
    this.schedule();
  }

  destroy(): void {
    this.redraw.cancel();
    for (const c of this.cleanups) c();
  }

  /** Asks for a redraw on the next animation frame (coalesced). */
  schedule(): void {
    this.redraw.schedule();
  }

  /**
   * Draws now instead of at the next animation frame: the first picture (src/first-picture.ts)
   * draws as its answer arrives, which saves waiting up to a frame before the draw.
   */
  drawNow(): void {
    this.redraw.cancel();
    this.draw();
  }

  /** The tree currently drawn, or null. */
  tree(): CallTree | null {
    return this.source.read()?.tree ?? null;
  }

  private draw(): void {
    const t0 = performance.now();
    const s = this.source.read();
    const width = this.container.clientWidth;
    const viewHeight = this.container.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    if (fitCanvas(this.canvas, this.ctx, width, viewHeight, dpr)) this.labels.reset();
    const ctx = this.ctx;
    const bg = this.theme.background;
    ctx.fillStyle = `rgb(${bg[0]},${bg[1]},${bg[2]})`;
    ctx.fillRect(0, 0, width, viewHeight);
    this.width = width;
    this.viewHeight = viewHeight;
    if (!s) {
      this.layout.count = 0;
      this.finish(t0, false);
      return;
    }
    const tree = s.tree;
    this.rows = { orientation: s.orientation, ...this.foldedRows(s), viewHeight, scrollTop: 0, rowHeight: ROW_HEIGHT };
    const content = contentHeight(this.rows);
    const spacer = `${Math.max(0, content - viewHeight)}px`;
    // Only touch the style when it changes: a write per frame would invalidate layout per frame.
    if (spacer !== this.spacerHeight) this.spacer.style.height = this.spacerHeight = spacer;
    this.keepScroll(s, content, viewHeight);
    this.rows.scrollTop = this.container.scrollTop;
    const { minDepth, maxDepth } = visibleDepths(this.rows);
    layoutFrames({ tree, zoomNode: s.zoomNode, viewport: s.viewport, width, minWidth: MIN_WIDTH, minDepth, maxDepth, order: s.order }, this.layout);
    if (this.coloursFor !== s.frames || !this.colours) {
      const { frames } = s;
      this.colours = new FrameColours((f) => frames.strings[frames.name[f]], frames.flags, this.theme);
      this.coloursFor = frames;
      this.labels.reset();
    }
    // Label widths are cached per frame: other labels (short names) need a fresh cache.
    if ((s.label ?? null) !== this.labelFn) {
      this.labelFn = s.label ?? null;
      this.labels.reset();
    }
    this.paint(ctx, tree, s);
    this.showCues(s);
    this.finish(t0, s.busy);
  }

  /**
   * The rows of the content: only as deep as the zoomed subtree, and, when the zoomed node has two
   * or more ancestors, those folded into one row unless the user unfolded them (or the selection
   * walked onto one of them).
   */
  private foldedRows(s: FlameState): { rows: number; fold: number } {
    const { tree, zoomNode } = s;
    if (this.deepest.tree !== tree || this.deepest.node !== zoomNode) this.deepest = { tree, node: zoomNode, depth: deepestUnder(tree, zoomNode) };
    const deepest = this.deepest.depth;
    const zoomDepth = tree.depth[zoomNode];
    const sel = s.selectedNode;
    // Unfolded for one zoom only: coming back to it later folds them again.
    if (this.unfolded && (this.unfolded.tree !== tree || this.unfolded.node !== zoomNode)) this.unfolded = null;
    if (sel >= 0 && sel < zoomNode && zoomNode < tree.end[sel]) this.unfolded = { tree, node: zoomNode };
    const open = this.unfolded !== null;
    const fold = zoomDepth >= 2 && !open ? zoomDepth : 0;
    return { rows: fold > 0 ? deepest - fold + 2 : deepest + 1, fold };
  }

  /** Unfolds the zoomed node's ancestors (what the "N ancestors" row's click does). */
  unfoldAncestors(): void {
    const s = this.source.read();
    if (!s) return;
    this.unfolded = { tree: s.tree, node: s.zoomNode };
    this.schedule();
  }

  /** Scrolls a page towards the levels cut off at an edge (what its cue's click does). */
  reveal(edge: 'top' | 'bottom'): void {
    const page = Math.max(ROW_HEIGHT, this.container.clientHeight - 2 * ROW_HEIGHT);
    this.container.scrollTop += edge === 'top' ? -page : page;
  }

  private showCues(s: FlameState): void {
    if (!this.cues) return;
    const { top, bottom } = edgeCues(this.rows);
    this.cueTop = top.size;
    this.cueBottom = bottom.size;
    // The canvas is the container's client width: the cues stop at its vertical scrollbar.
    const right = `${this.container.offsetWidth - this.container.clientWidth - 1}px`;
    const show = (button: HTMLButtonElement, cue: EdgeCue, edge: 'top' | 'bottom') => {
      const text = cue.count > 0 ? `${edge === 'top' ? '▲' : '▼'} ${cue.count} more ${cue.count === 1 ? 'level' : 'levels'}` : '';
      if (button.textContent !== text) {
        button.textContent = text;
        button.setAttribute('aria-label', `Show ${cue.count} more ${cue.count === 1 ? 'level' : 'levels'} ${edge === 'top' ? 'above' : 'below'}`);
      }
      button.hidden = cue.count === 0;
      const height = `${cue.size}px`;
      if (button.style.height !== height) button.style.height = height;
      if (button.style.right !== right) button.style.right = right;
    };
    show(this.cues.top, top, 'top');
    show(this.cues.bottom, bottom, 'bottom');
    const ancestors = this.cues.ancestors;
    if (!ancestors) return;
    const fold = this.rows.fold ?? 0;
    const y = topOfRow(this.rows, 0);
    // Shown while its row is whole and not under a cue (the cue counts its levels then).
    ancestors.hidden = fold === 0 || y < this.cueTop || y + ROW_HEIGHT > this.rows.viewHeight - this.cueBottom;
    if (ancestors.hidden) return;
    // The nearest one by name: where the zoomed frame was called from (text only: names are untrusted).
    const f = s.tree.frame[s.tree.parent[s.zoomNode]];
    const caller = f < 0 ? 'all' : s.label ? s.label(f) : s.frames.strings[s.frames.name[f]];
    const text = `▸ ${fold} ancestors`;
    const from = ` — called from ${caller}`;
    if (ancestors.firstChild?.textContent !== text || ancestors.lastChild?.textContent !== from) {
      const muted = document.createElement('span');
      muted.className = 'flame-ancestors-from';
      muted.textContent = from;
      ancestors.replaceChildren(text, muted);
      ancestors.setAttribute('aria-label', `Show ${fold} ancestors`);
    }
    const at = `${y + this.container.clientTop}px`;
    if (ancestors.style.top !== at) ancestors.style.top = at;
    if (ancestors.style.height !== `${ROW_HEIGHT - 1}px`) ancestors.style.height = `${ROW_HEIGHT - 1}px`;
    if (ancestors.style.right !== right) ancestors.style.right = right;
  }

  /** Flame graphs open scrolled to the root (bottom); icicles to the top; the selection stays in view. */
  private keepScroll(s: FlameState, content: number, viewHeight: number): void {
    this.scrollable = Math.max(0, content - viewHeight);
    const z = this.lastZoom;
    const fold = this.rows.fold ?? 0;
    // A new zoom (or a fold) puts the zoomed node's row back at the root's edge, so its subtree
    // starts there and fills the canvas.
    const rezoomed = z.tree === s.tree && (z.node !== s.zoomNode || z.fold !== fold);
    this.lastZoom = { tree: s.tree, node: s.zoomNode, fold };
    if (this.lastOrientation !== s.orientation || this.lastKey !== s.key || rezoomed) {
      this.fromBottom = 0;
      if (s.orientation === 'icicle') this.container.scrollTop = 0;
      this.lastOrientation = s.orientation;
      this.lastKey = s.key;
    }
    if (s.orientation === 'flame') {
      const want = Math.max(0, this.scrollable - this.fromBottom);
      if (Math.abs(this.container.scrollTop - want) >= 1) this.container.scrollTop = want;
    }
    if (s.selectedNode !== this.lastSelected) {
      this.lastSelected = s.selectedNode;
      if (s.selectedNode >= 0) {
        const tree = s.tree;
        const top = rowTop({ ...this.rows, scrollTop: 0 }, tree.depth[s.selectedNode]);
        const st = this.container.scrollTop;
        if (top < st) this.container.scrollTop = top;
        else if (top + ROW_HEIGHT > st + viewHeight) this.container.scrollTop = top + ROW_HEIGHT - viewHeight;
        this.fromBottom = Math.max(0, this.scrollable - this.container.scrollTop);
      }
    }
  }

  private paint(ctx: CanvasRenderingContext2D, tree: CallTree, s: FlameState): void {
    const { frames } = s;
    const colours = this.colours!;
    const matches = s.matches;
    const fade = s.fadeUnhighlighted ? (s.highlight ?? null) : null;
    // Per-node colours (the differential graph) replace the palette by name; ids index their css
    // (already in the theme's colours: see diff-palette.ts).
    const over = s.nodeColours;
    const cssOf = over ? (id: number) => over.css[id] : (id: number) => colours.cssOf(id);
    const L = this.layout;
    const rows = this.rows;
    ctx.font = FONT;
    ctx.textBaseline = 'middle';
    let selectedK = -1;
    let hoverK = -1;
    const n = L.count;
    if (this.colourOf.length < n) {
      this.colourOf = new Int32Array(n * 2);
      this.order = new Int32Array(n * 2);
    }
    const colourOf = this.colourOf;
    const order = this.order;
    const idCount = over ? over.css.length : COLOUR_COUNT;
    if (this.counts.length !== idCount + 1) this.counts = new Int32Array(idCount + 1);
    const counts = this.counts;
    counts.fill(0);
    // Pass 1: rectangles, grouped by colour (counting sort of the rect indices) so each colour is
    // one fillStyle and one fill of a path of rects. Ancestors of the zoom are drawn first, across
    // the width, in their faded colour (a solid fill, so their labels keep their contrast).
    for (let k = 0; k < n; k++) {
      const node = L.node[k];
      const f = tree.frame[node];
      if (node === s.selectedNode) selectedK = k;
      if (node === s.hoverNode) hoverK = k;
      const ancestor = L.ancestor[k] === 1;
      const id = over
        ? over.ids[node]
        : f < 0
          ? ROOT_COLOUR
          : ancestor || (matches && !matches[f]) || (fade && !fade[f])
            ? colours.dimId(f)
            : matches
              ? MATCH_COLOUR
              : colours.id(f);
      colourOf[k] = id;
      if (ancestor) {
        ctx.fillStyle = cssOf(id);
        ctx.fillRect(0, rowTop(rows, L.depth[k]), this.width, ROW_HEIGHT - 1);
      } else {
        counts[id + 1]++;
      }
    }
    for (let i = 1; i < counts.length; i++) counts[i] += counts[i - 1];
    for (let k = 0; k < n; k++) if (!L.ancestor[k]) order[counts[colourOf[k]]++] = k;
    const total = counts[counts.length - 1];
    const width = this.width;
    // The y of each row, once per draw rather than once per rect (a 600,000-node profile draws
    // thousands of rects a frame; rowTop per rect was a tenth of the frame's script time).
    // Only the rows on screen: layoutFrames emits no others.
    const { minDepth, maxDepth } = visibleDepths(rows);
    if (this.rowY.length <= maxDepth) this.rowY = new Float64Array((maxDepth + 1) * 2);
    const rowY = this.rowY;
    for (let d = minDepth; d <= maxDepth; d++) rowY[d] = rowTop(rows, d);
    for (let i = 0; i < total; ) {
      const id = colourOf[order[i]];
      ctx.fillStyle = cssOf(id);
      ctx.beginPath();
      for (; i < total && colourOf[order[i]] === id; i++) {
        const k = order[i];
        const x = L.x[k] < -1 ? -1 : L.x[k];
        const right = L.x[k] + L.w[k];
        const w = (right > width + 1 ? width + 1 : right) - x;
        ctx.rect(x, rowY[L.depth[k]], w > 2 ? w - 1 : w, ROW_HEIGHT - 1);
      }
      ctx.fill();
    }
    if (over?.marked) this.hatchMarked(ctx, over.marked);
    // Pass 2: labels, each in the text colour of its fill (the palette keeps both at 4.5:1).
    let textColour = (ctx.fillStyle = this.theme.frameText);
    for (let k = 0; k < L.count; k++) {
      const x = Math.max(L.x[k], 0);
      const w = Math.min(L.x[k] + L.w[k], this.width) - x;
      if (w < LABEL_MIN_WIDTH) continue;
      const f = tree.frame[L.node[k]];
      const name = f < 0 ? 'all' : s.label ? s.label(f) : frames.strings[frames.name[f]];
      const label = this.labels.fit(f, name, w - 6);
      if (label) {
        const colour = over ? (matches && f >= 0 && !matches[f] ? this.theme.dimText : this.theme.frameText) : colours.textOf(colourOf[k]);
        if (colour !== textColour) ctx.fillStyle = textColour = colour;
        ctx.fillText(label, x + 3, rowY[L.depth[k]] + ROW_HEIGHT / 2);
      }
    }
    this.highlightFrames(ctx, tree, s.highlight ?? null);
    if (hoverK >= 0) this.outline(ctx, hoverK, this.theme.hover, 1);
    if (selectedK >= 0) this.outline(ctx, selectedK, this.theme.selection, 2);
  }

  /**
   * Outlines every drawn frame whose highlight bit is set (narrow ones are filled), and says how
   * many in the container's data-highlighted attribute (for tests and tools).
   */
  private highlightFrames(ctx: CanvasRenderingContext2D, tree: CallTree, highlight: Uint8Array | null): void {
    let count = 0;
    if (highlight) {
      const L = this.layout;
      const { ring, inner } = this.theme.dark ? HIGHLIGHT.dark : HIGHLIGHT.light;
      ctx.strokeStyle = ctx.fillStyle = ring;
      ctx.lineWidth = 3;
      // Narrow frames are filled (a ring would hide them); wide ones get the ring, then its inner line.
      const wide: number[] = [];
      ctx.beginPath();
      for (let k = 0; k < L.count; k++) {
        const f = tree.frame[L.node[k]];
        if (f < 0 || !highlight[f]) continue;
        const x = Math.max(L.x[k], 0);
        const w = Math.min(L.x[k] + L.w[k], this.width) - x;
        const y = rowTop(this.rows, L.depth[k]);
        if (w < 8) ctx.fillRect(x, y, Math.max(1.5, w), ROW_HEIGHT - 1);
        else {
          ctx.rect(x + 1.5, y + 1.5, w - 4, ROW_HEIGHT - 4);
          wide.push(x, y, w);
        }
        count++;
      }
      ctx.stroke();
      ctx.strokeStyle = inner;
      ctx.lineWidth = 1;
      ctx.beginPath();
      for (let i = 0; i < wide.length; i += 3) ctx.rect(wide[i] + 3.5, wide[i + 1] + 3.5, wide[i + 2] - 8, ROW_HEIGHT - 8);
      ctx.stroke();
    }
    const text = highlight ? String(count) : '';
    if (text !== this.highlighted) {
      this.highlighted = text;
      if (highlight) this.container.setAttribute('data-highlighted', text);
      else this.container.removeAttribute('data-highlighted');
    }
  }

  /** Diagonal hatching over the marked nodes' rectangles (frames only one run has). */
  private hatchMarked(ctx: CanvasRenderingContext2D, marked: Uint8Array): void {
    if (this.hatch === undefined || this.hatchDark !== this.theme.dark) {
      this.hatchDark = this.theme.dark;
      this.hatch = makeHatch(ctx, this.theme.dark);
    }
    if (!this.hatch) return;
    const L = this.layout;
    ctx.fillStyle = this.hatch;
    ctx.beginPath();
    let any = false;
    for (let k = 0; k < L.count; k++) {
      if (!marked[L.node[k]] || L.ancestor[k]) continue;
      const x = Math.max(L.x[k], 0);
      const w = Math.min(L.x[k] + L.w[k], this.width) - x;
      ctx.rect(x, rowTop(this.rows, L.depth[k]), w > 2 ? w - 1 : w, ROW_HEIGHT - 1);
      any = true;
    }
    if (any) ctx.fill();
  }

  private outline(ctx: CanvasRenderingContext2D, k: number, colour: string, lineWidth: number): void {
    const L = this.layout;
    const x = Math.max(L.x[k], 0);
    const right = Math.min(L.x[k] + L.w[k], this.width);
    ctx.strokeStyle = colour;
    ctx.lineWidth = lineWidth;
    const inset = lineWidth / 2;
    ctx.strokeRect(x + inset, rowTop(this.rows, L.depth[k]) + inset, Math.max(1, right - x - 1 - lineWidth), ROW_HEIGHT - 1 - lineWidth);
  }

  private finish(t0: number, sourceBusy: boolean): void {
    this.lastDrawMs = performance.now() - t0;
    // The size the frame used, not the size now: a scrollbar the new content brings must redraw.
    this.drawn = { width: this.width, height: this.viewHeight, scrollTop: this.container.scrollTop };
    const busy = this.redraw.pending || sourceBusy;
    this.container.setAttribute('aria-busy', busy ? 'true' : 'false');
  }
}

function makeHatch(ctx: CanvasRenderingContext2D, dark: boolean): CanvasPattern | null {
  if (typeof document === 'undefined') return null;
  const tile = document.createElement('canvas');
  tile.width = tile.height = 6;
  const t = tile.getContext('2d');
  if (!t) return null;
  t.strokeStyle = dark ? 'rgba(255,255,255,0.4)' : 'rgba(0,0,0,0.45)';
  t.lineWidth = 1.2;
  t.beginPath();
  t.moveTo(0, 6);
  t.lineTo(6, 0);
  t.moveTo(-1, 1);
  t.lineTo(1, -1);
  t.moveTo(5, 7);
  t.lineTo(7, 5);
  t.stroke();
  return ctx.createPattern(tile, 'repeat');
}

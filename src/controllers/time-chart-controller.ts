// Drives the time-order chart's canvas outside React: reads the model (stack-chart-model.ts),
// draws on the next animation frame (stack-chart-renderer.ts), and turns pointer input into the
// store's time range. The visible time window, the row scroll and the drag are fast-changing
// state kept here; hover goes to a tiny store for the tooltip component.
//
// Input: drag on the chart (or its time axis) selects a time range (the store's, on release);
// wheel zooms in time around the cursor, shift+wheel scrolls the rows (the container scrolls
// natively: the canvas is sticky and a spacer gives the rows' height), a horizontal wheel pans;
// double-click shows the whole recording again.
//
// Contract for tests: the container's aria-busy is "false" once the current state is drawn,
// data-window="from-to" (absolute seconds) says what is shown, data-rects how many rectangles,
// data-build-ms / data-draw-ms what the model and the last draw took (model: within the draw).

import { Redraw } from '../render/redraw';
import { create } from 'zustand';
import { LabelFitter } from '../render/labels';
import { fitCanvas } from '../render/canvas-size';
import { FrameColours, LIGHT, type Theme } from '../core/palette';
import { stackChartModel, type StackChartModel } from '../render/stack-chart-model';
import { AXIS_HEIGHT, CHART_FONT, RectScratch, drawStackChart, hitBox, rowsHeight, timeAt, type TimeWindow } from '../render/stack-chart-renderer';
import { useStore } from '../store/store';
import { watch } from '../store/watch';
import type { StoreState } from '../store/types';

const DRAG_THRESHOLD = 3;

export interface ChartHover {
  box: number;
  model: StackChartModel | null;
  /** CSS px relative to the chart container. */
  x: number;
  y: number;
}

export const useChartHover = create<{ hover: ChartHover | null }>()(() => ({ hover: null }));

function modelOf(s: StoreState): StackChartModel | null {
  return s.recordings.a.snapshot ? stackChartModel(s.recordings.a.snapshot, s.view) : null;
}

export class TimeChartController {
  private readonly ctx: CanvasRenderingContext2D;
  private readonly redraw: Redraw;
  private model: StackChartModel | null = null;
  private window: TimeWindow = { from: 0, to: 1 };
  private hoverBox = -1;
  private readonly scratch = new RectScratch();
  private drag: { x0: number; x: number; moved: boolean } | null = null;
  private theme: Theme = LIGHT;
  private colours: FrameColours | null = null;
  private coloursFor: object | null = null;
  private readonly labels: LabelFitter;
  private readonly cleanups: (() => void)[] = [];
  private width = 0;
  private height = 0;
  /** Time spent in the last draw (ms). */
  lastDrawMs = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly spacer: HTMLElement,
  ) {
    this.redraw = new Redraw(container, () => this.draw());
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('flameview: canvas 2D is not available');
    this.ctx = ctx;
    this.labels = new LabelFitter(ctx, CHART_FONT);
    this.cleanups.push(
      watch((s) => ({ snapshot: s.recordings.a.snapshot, view: s.view, timeRange: s.timeRange }), () => this.schedule()),
    );
    const resize = new ResizeObserver(() => this.schedule());
    resize.observe(container);
    this.cleanups.push(() => resize.disconnect());
    this.cleanups.push(
      this.redraw.onTheme((theme) => {
        this.theme = theme;
        this.colours = null;
      }),
    );
    const onScroll = () => this.schedule();
    container.addEventListener('scroll', onScroll, { passive: true });
    this.cleanups.push(() => container.removeEventListener('scroll', onScroll));
    this.listen();
    this.schedule();
  }

  destroy(): void {
    this.redraw.cancel();
    for (const c of this.cleanups) c();
    useChartHover.setState({ hover: null });
  }

  schedule(): void {
    this.redraw.schedule();
  }

  /** Shows the whole recording (the time window the chart opens with). */
  showAll(): void {
    if (this.model) this.window = { from: this.model.t0, to: this.model.t1 };
    this.schedule();
  }

  private draw(): void {
    const started = performance.now();
    const s = useStore.getState();
    const model = modelOf(s);
    if (model !== this.model) {
      // The other view of the same recording keeps the time window; another recording resets it.
      const same = model && this.model && model.t0 === this.model.t0 && model.t1 === this.model.t1;
      this.model = model;
      this.hoverBox = -1;
      if (model && !same) {
        this.window = { from: model.t0, to: model.t1 };
        this.container.scrollTop = 0;
      }
    }
    const width = this.container.clientWidth;
    const height = this.container.clientHeight;
    const dpr = window.devicePixelRatio || 1;
    if (fitCanvas(this.canvas, this.ctx, width, height, dpr)) this.labels.reset();
    this.width = width;
    this.height = height;
    const ctx = this.ctx;
    if (model && s.recordings.a.snapshot) {
      const frames = s.recordings.a.snapshot.frames;
      if (!this.colours || this.coloursFor !== frames) {
        this.colours = new FrameColours((f) => frames.strings[frames.name[f]], frames.flags, this.theme);
        this.coloursFor = frames;
        this.labels.reset();
      }
      const spacer = `${Math.max(0, AXIS_HEIGHT + rowsHeight(model) - height)}px`;
      if (this.spacer.style.height !== spacer) this.spacer.style.height = spacer;
      const selection = this.dragSelection() ?? s.timeRange;
      const result = drawStackChart(ctx, model, this.window, this.geometry(), {
        theme: this.theme,
        colours: this.colours,
        labels: this.labels,
        frames,
        selection,
        hoverBox: this.hoverBox,
      }, this.scratch);
      this.container.dataset.rects = String(result.rects);
      this.container.dataset.window = `${this.window.from}-${this.window.to}`;
    }
    this.lastDrawMs = performance.now() - started;
    // For the benchmark: what building the chart (once per recording and view) and this draw took.
    if (model) this.container.dataset.buildMs = model.buildMs.toFixed(1);
    this.container.dataset.drawMs = this.lastDrawMs.toFixed(1);
    this.container.setAttribute('aria-busy', this.redraw.pending ? 'true' : 'false');
  }

  private geometry() {
    return { width: this.width, height: this.height, scrollTop: this.container.scrollTop };
  }

  private dragSelection(): TimeWindow | null {
    const d = this.drag;
    if (!d || !d.moved) return null;
    const a = timeAt(this.window, this.width, Math.max(0, Math.min(this.width, Math.min(d.x0, d.x))));
    const b = timeAt(this.window, this.width, Math.max(0, Math.min(this.width, Math.max(d.x0, d.x))));
    return { from: a, to: b };
  }

  private local(e: MouseEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private setHover(box: number, e: MouseEvent | null): void {
    if (box !== this.hoverBox) {
      this.hoverBox = box;
      this.schedule();
    }
    if (box < 0 || !e) {
      if (useChartHover.getState().hover) useChartHover.setState({ hover: null });
      return;
    }
    const c = this.container.getBoundingClientRect();
    useChartHover.setState({ hover: { box, model: this.model, x: e.clientX - c.left, y: e.clientY - c.top } });
  }

  private listen(): void {
    const canvas = this.canvas;
    const onMove = (e: PointerEvent) => {
      const p = this.local(e);
      if (this.drag) {
        if (!this.drag.moved && Math.abs(p.x - this.drag.x0) < DRAG_THRESHOLD) return;
        this.drag.moved = true;
        this.drag.x = p.x;
        this.setHover(-1, null);
        this.schedule();
        return;
      }
      this.setHover(this.model ? hitBox(this.model, this.window, this.geometry(), p.x, p.y) : -1, e);
    };
    const onDown = (e: PointerEvent) => {
      if (e.button !== 0 || !this.model) return;
      const p = this.local(e);
      this.drag = { x0: p.x, x: p.x, moved: false };
      canvas.setPointerCapture?.(e.pointerId);
    };
    const onUp = () => {
      const d = this.drag;
      if (!d) return;
      const range = this.dragSelection();
      this.drag = null;
      // Nanoseconds are the finest perf prints; rounding keeps the link and the store equal.
      const round = (x: number) => Number(x.toFixed(9));
      if (d.moved && range) useStore.getState().setTimeRange({ from: round(range.from), to: round(range.to) });
      this.schedule();
    };
    const onLeave = () => {
      if (!this.drag) this.setHover(-1, null);
    };
    const onDouble = () => this.showAll();
    const onWheel = (e: WheelEvent) => {
      const m = this.model;
      if (!m || this.width <= 0 || e.shiftKey) return; // shift+wheel scrolls the rows
      e.preventDefault();
      const unit = e.deltaMode === 1 ? 16 : e.deltaMode === 2 ? 400 : 1;
      if (Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        const dt = ((e.deltaX * unit) / this.width) * (this.window.to - this.window.from);
        this.window = clampWindow(m, this.window.from + dt, this.window.to + dt);
      } else {
        const factor = Math.exp(Math.max(-300, Math.min(300, e.deltaY * unit)) * 0.002);
        const at = timeAt(this.window, this.width, this.local(e).x);
        this.window = clampWindow(m, at - (at - this.window.from) * factor, at + (this.window.to - at) * factor);
      }
      this.setHover(-1, null);
      this.schedule();
    };
    canvas.addEventListener('pointermove', onMove);
    canvas.addEventListener('pointerdown', onDown);
    window.addEventListener('pointerup', onUp);
    canvas.addEventListener('pointerleave', onLeave);
    canvas.addEventListener('dblclick', onDouble);
    this.container.addEventListener('wheel', onWheel, { passive: false });
    this.cleanups.push(() => {
      canvas.removeEventListener('pointermove', onMove);
      canvas.removeEventListener('pointerdown', onDown);
      window.removeEventListener('pointerup', onUp);
      canvas.removeEventListener('pointerleave', onLeave);
      canvas.removeEventListener('dblclick', onDouble);
      this.container.removeEventListener('wheel', onWheel);
    });
  }
}

/** A window inside the recording, at least a microsecond wide. */
function clampWindow(m: StackChartModel, from: number, to: number): TimeWindow {
  const full = m.t1 - m.t0;
  let span = Math.max(1e-6, Math.min(full, to - from));
  if (!(span > 0)) span = full;
  let a = Math.max(m.t0, Math.min(from, m.t1 - span));
  if (!Number.isFinite(a)) a = m.t0;
  return { from: a, to: a + span };
}

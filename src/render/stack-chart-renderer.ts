// The time-order chart's drawing and hit-testing: pure functions of a StackChartModel, a visible
// time window and the canvas geometry. No React, no store; the chart controller calls them.
//
//   y = 0 … AXIS_HEIGHT        the time axis (seconds from the first sample, d3-scale ticks)
//   then the rows              lane after lane (stack-chart-model.ts), each with its process or
//                              thread at the top, like the Firefox Profiler's stack chart
//   x = (t - window.from) / (window.to - window.from) * width
//
// Invariants: boxes are coloured like the flame graph (palette.ts, by frame name); per row at most
// one box is drawn per pixel column where boxes are narrower than a pixel (the rest of that column
// is skipped by binary search), so a draw costs O(rows × width × log boxes), not O(boxes);
// labels only on boxes wide enough (labels.ts fits them).

import { scaleLinear } from 'd3-scale';
import type { FrameTable } from '../core/model/frame-table';
import { boxAt, firstBoxEndingAfter, type StackChartModel } from './stack-chart-model';
import type { LabelFitter } from './labels';
import type { FrameColours, Theme } from '../core/palette';
import { formatTick } from '../format';

export const AXIS_HEIGHT = 20;
export const ROW_HEIGHT = 16;
const LABEL_MIN_WIDTH = 22;
export const CHART_FONT = '11px system-ui, -apple-system, "Segoe UI", Roboto, Arial, sans-serif';

/** The visible span of time, absolute seconds. */
export interface TimeWindow {
  from: number;
  to: number;
}

export interface ChartGeometry {
  /** CSS px. */
  width: number;
  height: number;
  /** How far the rows are scrolled up (px). */
  scrollTop: number;
}

export function xOf(w: TimeWindow, width: number, t: number): number {
  return ((t - w.from) / (w.to - w.from)) * width;
}

export function timeAt(w: TimeWindow, width: number, x: number): number {
  return w.from + (x / width) * (w.to - w.from);
}

/** Content height of the rows (without the axis). */
export function rowsHeight(m: StackChartModel): number {
  return m.maxDepth * ROW_HEIGHT;
}

/** The depth of the row at y (px from the canvas top), or 0 on the axis / below the rows. */
export function depthAt(m: StackChartModel, g: ChartGeometry, y: number): number {
  if (y < AXIS_HEIGHT) return 0;
  const d = Math.floor((y - AXIS_HEIGHT + g.scrollTop) / ROW_HEIGHT) + 1;
  return d >= 1 && d <= m.maxDepth ? d : 0;
}

/** The box under (x, y), or -1. */
export function hitBox(m: StackChartModel, w: TimeWindow, g: ChartGeometry, x: number, y: number): number {
  if (x < 0 || x >= g.width) return -1;
  const d = depthAt(m, g, y);
  return d > 0 ? boxAt(m, d, timeAt(w, g.width, x)) : -1;
}

export interface DrawOptions {
  theme: Theme;
  colours: FrameColours;
  labels: LabelFitter;
  frames: FrameTable;
  /** The selected range (store) or the one being dragged. */
  selection: TimeWindow | null;
  hoverBox: number;
}

export interface DrawResult {
  /** Rectangles drawn (merged narrow boxes count once). */
  rects: number;
}

/** Scratch for grouping rectangles by colour, grown as needed; one per chart, reused by its draws. */
export class RectScratch {
  rx = new Float64Array(4096);
  rw = new Float64Array(4096);
  ry = new Float64Array(4096);
  rc = new Int32Array(4096);
  rbox = new Int32Array(4096);

  push(n: number, x: number, w: number, y: number, colour: number, box: number): void {
    if (n === this.rx.length) {
      const grow = <T extends Float64Array | Int32Array>(a: T): T => {
        const b = new (a.constructor as new (n: number) => T)(a.length * 2);
        b.set(a);
        return b;
      };
      this.rx = grow(this.rx);
      this.rw = grow(this.rw);
      this.ry = grow(this.ry);
      this.rc = grow(this.rc);
      this.rbox = grow(this.rbox);
    }
    this.rx[n] = x;
    this.rw[n] = w;
    this.ry[n] = y;
    this.rc[n] = colour;
    this.rbox[n] = box;
  }
}

export function drawStackChart(ctx: CanvasRenderingContext2D, m: StackChartModel, w: TimeWindow, g: ChartGeometry, o: DrawOptions, scratch = new RectScratch()): DrawResult {
  const { width, height } = g;
  const bg = o.theme.background;
  ctx.fillStyle = `rgb(${bg[0]},${bg[1]},${bg[2]})`;
  ctx.fillRect(0, 0, width, height);
  const span = w.to - w.from;
  if (!(span > 0) || width <= 0) return { rects: 0 };
  const scale = width / span;
  const { chart, tree } = m;
  const first = Math.max(1, Math.floor(g.scrollTop / ROW_HEIGHT) + 1);
  const last = Math.min(m.maxDepth, Math.floor((g.scrollTop + height - AXIS_HEIGHT) / ROW_HEIGHT) + 1);
  let n = 0;
  for (let d = first; d <= last; d++) {
    const y = AXIS_HEIGHT + (d - 1) * ROW_HEIGHT - g.scrollTop;
    const endK = m.rowStart[d + 1];
    let k = firstBoxEndingAfter(m, d, w.from);
    let lastPx = -Infinity;
    while (k < endK) {
      const box = m.rowBoxes[k];
      const s = chart.start[box];
      if (s >= w.to) break;
      const x0 = (s - w.from) * scale;
      const x1 = (chart.end[box] - w.from) * scale;
      const colour = o.colours.id(tree.frame[chart.node[box]]);
      if (x1 - x0 >= 1) {
        scratch.push(n++, x0, x1 - x0, y, colour, box);
        lastPx = Math.floor(x1);
        k++;
        continue;
      }
      // Narrower than a pixel: one 1 px rect for the column, then skip the column's other boxes.
      const px = Math.floor(x0);
      if (px > lastPx) {
        scratch.push(n++, px, 1, y, colour, box);
        lastPx = px;
      }
      const next = firstBoxEndingAfter(m, d, w.from + (lastPx + 1) / scale);
      k = next > k ? next : k + 1;
    }
  }
  // Rectangles grouped by colour: one fillStyle and one path per colour.
  const { rx, rw, ry, rc, rbox } = scratch;
  const order = Int32Array.from({ length: n }, (_, i) => i).sort((a, b) => rc[a] - rc[b]);
  for (let i = 0; i < n; ) {
    const id = rc[order[i]];
    ctx.fillStyle = o.colours.cssOf(id);
    ctx.beginPath();
    for (; i < n && rc[order[i]] === id; i++) {
      const r = order[i];
      const x = rx[r] < -1 ? -1 : rx[r];
      const right = rx[r] + rw[r] > width + 1 ? width + 1 : rx[r] + rw[r];
      const ww = right - x;
      ctx.rect(x, ry[r], ww > 2 ? ww - 1 : ww, ROW_HEIGHT - 1);
    }
    ctx.fill();
  }
  // A line above every lane but the first.
  ctx.fillStyle = o.theme.dark ? 'rgba(255,255,255,0.45)' : 'rgba(0,0,0,0.45)';
  for (let l = 1; l < m.laneRow.length; l++) {
    const y = AXIS_HEIGHT + (m.laneRow[l] - 1) * ROW_HEIGHT - g.scrollTop;
    if (y >= AXIS_HEIGHT && y < height) ctx.fillRect(0, y - 1, width, 1);
  }
  // Labels.
  ctx.font = CHART_FONT;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = o.theme.frameText;
  const { frames } = o;
  for (let r = 0; r < n; r++) {
    const x = Math.max(rx[r], 0);
    const ww = Math.min(rx[r] + rw[r], width) - x;
    if (ww < LABEL_MIN_WIDTH) continue;
    const f = tree.frame[chart.node[rbox[r]]];
    const label = o.labels.fit(f, frames.strings[frames.name[f]], ww - 6);
    if (label) ctx.fillText(label, x + 3, ry[r] + ROW_HEIGHT / 2);
  }
  if (o.hoverBox >= 0 && o.hoverBox < chart.count) {
    const d = chart.depth[o.hoverBox];
    const y = AXIS_HEIGHT + (d - 1) * ROW_HEIGHT - g.scrollTop;
    const x0 = Math.max(-1, xOf(w, width, chart.start[o.hoverBox]));
    const x1 = Math.min(width + 1, xOf(w, width, chart.end[o.hoverBox]));
    if (y >= AXIS_HEIGHT - ROW_HEIGHT && y < height && x1 > 0 && x0 < width) {
      ctx.strokeStyle = o.theme.hover;
      ctx.lineWidth = 1;
      ctx.strokeRect(x0 + 0.5, y + 0.5, Math.max(1, x1 - x0 - 2), ROW_HEIGHT - 2);
    }
  }
  drawAxis(ctx, m, w, g, o.theme);
  if (o.selection) drawSelection(ctx, w, g, o.selection, o.theme);
  return { rects: n };
}

/** Ticks of the time axis: positions (px) and labels, in seconds from the first sample. */
export function axisTicks(m: StackChartModel, w: TimeWindow, width: number): { x: number; label: string }[] {
  const scale = scaleLinear()
    .domain([w.from - m.t0, w.to - m.t0])
    .range([0, width]);
  const ticks = scale.ticks(Math.max(2, Math.floor(width / 110)));
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : w.to - w.from;
  return ticks.map((t) => ({ x: scale(t), label: formatTick(t, step) }));
}

function drawAxis(ctx: CanvasRenderingContext2D, m: StackChartModel, w: TimeWindow, g: ChartGeometry, theme: Theme): void {
  const bg = theme.background;
  ctx.fillStyle = `rgb(${bg[0]},${bg[1]},${bg[2]})`;
  ctx.fillRect(0, 0, g.width, AXIS_HEIGHT);
  ctx.fillStyle = theme.dark ? 'rgba(255,255,255,0.08)' : 'rgba(0,0,0,0.05)';
  ctx.fillRect(0, 0, g.width, AXIS_HEIGHT - 1);
  ctx.strokeStyle = theme.dark ? 'rgba(255,255,255,0.35)' : 'rgba(0,0,0,0.3)';
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(0, AXIS_HEIGHT - 0.5);
  ctx.lineTo(g.width, AXIS_HEIGHT - 0.5);
  ctx.font = CHART_FONT;
  ctx.textBaseline = 'middle';
  ctx.fillStyle = theme.text;
  for (const t of axisTicks(m, w, g.width)) {
    const x = Math.round(t.x) + 0.5;
    ctx.moveTo(x, AXIS_HEIGHT - 6);
    ctx.lineTo(x, AXIS_HEIGHT);
    if (x + 3 < g.width - 20) ctx.fillText(t.label, x + 3, AXIS_HEIGHT / 2 - 1);
  }
  ctx.stroke();
}

function drawSelection(ctx: CanvasRenderingContext2D, w: TimeWindow, g: ChartGeometry, sel: TimeWindow, theme: Theme): void {
  const x0 = Math.max(-2, xOf(w, g.width, sel.from));
  const x1 = Math.min(g.width + 2, xOf(w, g.width, sel.to));
  // Outside the range is shaded, the range itself keeps its colours (as the Firefox Profiler).
  ctx.fillStyle = theme.dark ? 'rgba(0,0,0,0.55)' : 'rgba(60,60,70,0.35)';
  if (x0 > 0) ctx.fillRect(0, 0, Math.min(x0, g.width), g.height);
  if (x1 < g.width) ctx.fillRect(Math.max(0, x1), 0, g.width - Math.max(0, x1), g.height);
  ctx.strokeStyle = theme.selection;
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (const x of [x0, x1]) {
    if (x < -1 || x > g.width + 1) continue;
    ctx.moveTo(x, 0);
    ctx.lineTo(x, g.height);
  }
  ctx.stroke();
}

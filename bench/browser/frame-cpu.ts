// Per-frame script work by CPU time, from a Chromium trace: wall-clock frame times (the probe's
// frameWork) grow several-fold when the machine is loaded, thread CPU time much less. Each
// animation frame's work is the CPU time (tdur) of its rAF callbacks ('FireAnimationFrame') plus
// the input events dispatched since the previous frame ('EventDispatch'), on the page's main thread.

import type { Page } from '@playwright/test';
import { timelineTrace } from '../../e2e/helpers';

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string; data?: { type?: string } };
}

/** Runs `action` under a trace; returns the CPU milliseconds of script work per animation frame. */
export async function traceFrameCpu(page: Page, action: () => Promise<void>): Promise<number[]> {
  return frameCpu(await timelineTrace(page, action));
}

export function frameCpu(json: string): number[] {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set<string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') main.add(`${e.pid}:${e.tid}`);
  const work = events
    .filter((e) => e.ph === 'X' && (e.name === 'FireAnimationFrame' || e.name === 'EventDispatch') && main.has(`${e.pid}:${e.tid}`))
    .sort((a, b) => a.ts - b.ts);
  // rAF callbacks of one frame run back to back; input events before them belong to that frame.
  const frames: number[] = [];
  let pending = 0;
  let lastRafEnd = -Infinity;
  for (const e of work) {
    const cpu = (e.tdur ?? e.dur ?? 0) / 1000;
    if (e.name === 'EventDispatch') {
      pending += cpu;
      continue;
    }
    if (e.ts - lastRafEnd < 1000 && frames.length > 0 && pending === 0) frames[frames.length - 1] += cpu;
    else frames.push(pending + cpu);
    pending = 0;
    lastRafEnd = e.ts + (e.dur ?? 0);
  }
  return frames;
}

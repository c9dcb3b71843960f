// For tests: an independent oracle of off-CPU intervals from a perf script text's own
// sched_switch lines (issue 27, item 3): each switch-out of a thread of one COMM (not an exit) to
// the first sign, in time order, that it runs again: its switch-in, or a sample of the thread
// (perf may lose a switch-in: then the thread's next sample ends the wait, as the README says);
// clipped to a time range. It shares nothing with
// the importer (src/core/import/perf/perf-offcpu.ts), so a test that compares them can fail.

export interface SampleHeader {
  comm: string;
  tid: number;
  time: number;
  event: string;
  period: number;
  rest: string;
}

export interface Wait {
  tid: number;
  start: number;
  end: number;
}

/** Every sample header of the text, in the order printed. */
export function sampleHeaders(text: string): SampleHeader[] {
  return [...text.matchAll(/^(\S.*?)\s+(-?\d+)\s+\[\d+\]\s+(\d+\.\d+):\s+(?:(\d+)\s+)?(\S+):\s*(.*)$/gm)].map((m) => ({
    comm: m[1],
    tid: Number(m[2]),
    time: Number(m[3]),
    period: Number(m[4] ?? 0),
    event: m[5],
    rest: m[6],
  }));
}

/**
 * The off-CPU intervals of `comm`'s threads (null: every thread but the idle task, TID 0); one
 * still off CPU at the end lasts to the last header.
 */
export function offCpuWaits(headers: readonly SampleHeader[], comm: string | null): Wait[] {
  const lastTime = Math.max(...headers.map((h) => h.time));
  const ordered = headers
    .map((h, i) => ({ h, i }))
    // perf -a writes each CPU's buffer on its own: time order, ties in printed order.
    .sort((a, b) => a.h.time - b.h.time || a.i - b.i);
  const pending = new Map<number, number>();
  const out: Wait[] = [];
  const end = (tid: number, at: number) => {
    const start = pending.get(tid);
    if (start === undefined) return;
    out.push({ tid, start, end: at });
    pending.delete(tid);
  };
  for (const { h } of ordered) {
    // The thread of any sample runs (a sample at its own switch-out time was taken on the way out).
    if ((pending.get(h.tid) ?? Infinity) < h.time) end(h.tid, h.time);
    if (h.event !== 'sched:sched_switch') continue;
    const m = /prev_comm=(.*) prev_pid=(\d+) .*prev_state=(\S+) ==> next_comm=.* next_pid=(\d+)/.exec(h.rest);
    if (!m) throw new Error(`unread switch ${h.rest}`);
    const [, prevComm, prev, state, next] = m;
    end(Number(next), h.time);
    if ((comm === null ? Number(prev) > 0 : prevComm === comm) && !/^[XZ]/.test(state)) pending.set(Number(prev), h.time);
  }
  for (const [tid, start] of pending) out.push({ tid, start, end: lastTime });
  return out;
}

/** Nanoseconds of the waits inside [from, to). */
export function clippedNs(waits: readonly Wait[], from: number, to: number): number {
  let ns = 0;
  for (const w of waits) ns += Math.max(0, Math.min(to, w.end) - Math.max(from, w.start)) * 1e9;
  return ns;
}

/** Period of `comm`'s CPU samples (cpu-clock; null: every task's) with from ≤ time < to. */
export function cpuPeriodIn(headers: readonly SampleHeader[], comm: string | null, from: number, to: number): number {
  return headers.filter((h) => (comm === null || h.comm === comm) && h.event.startsWith('cpu-clock') && h.time >= from && h.time < to).reduce((n, h) => n + h.period, 0);
}

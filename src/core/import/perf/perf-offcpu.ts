// Off-CPU intervals from `sched:sched_switch` samples (issue 27): the two derived events of a
// perf script recording, "Off-CPU" and "Wall clock", are built from them by the perf script
// parser (./perf-script.ts), which feeds this module the parsed samples and adds what it returns.
//
//   switch-out of T at t0 (prev_pid=T, prev_state, the sample's stack)
//     … T is off CPU …
//   switch-in of T at t1 (a sched_switch with next_pid=T), or T seen running (a sample of T)
//   ⇒ one interval of T: t1 − t0 ns, on the switch-out stack, ending in a leaf per state
//   sched_wakeup / sched_waking of T by task W between t0 and t1 (when recorded)
//   ⇒ the state leaf has a child `[woken by: W's COMM TID]`, as `perf sched timehist -w` names
//     the waker: the task that ran the wakeup; but a wakeup run in an interrupt only interrupted
//     W, so its stack decides: `[woken by: timer]` (hrtimer_wakeup: a sleep's or a timeout's
//     timer) or `[woken by: interrupt]` (an interrupt entry, e.g. a device's)
//
// Invariants:
// - intervals are formed in time order, whatever the input order: `perf record -a` writes each
//   CPU's buffer on its own, and perf script can print a later CPU's events first; ties keep
//   input order, so a switch-out still comes before the switch-in printed after it;
// - the end of an interval is the first evidence that the thread runs again: the switch-in when
//   it was recorded (always, system-wide), else the thread's next sample of any event (a
//   recording of one process records only its own threads' switch-outs), counted as `inferred`;
// - a wait's waker is the last wakeup of its thread within it (sched_waking and sched_wakeup of
//   one wake name the same task); a wait with none (preempted: runnable, nobody wakes it; or the
//   wakeup was not recorded) ends at its state leaf; waker names are interned once each;
// - a thread that exits (prev_state X or Z) and the idle task (TID 0) have no interval; a thread
//   still off CPU at the last timestamp counts up to it, counted as `unfinished`;
// - memory is a few typed columns per sample header, grown by doubling: bounded by the input.

import { grown } from '../../model/grown';
import { eventBaseName } from '../../model/profile';
import { parsePeriod, parseTimeInto, type HeaderFields } from './perf-line';
import { WAKER_PREFIX } from '../../model/off-cpu-leaves';

/** The leaf frame that ends off-CPU time, per state class (indexed by SLEEPING … OTHER). */
export { STATE_LEAVES } from '../../model/off-cpu-leaves';

/** The derived events, as meta.events lists them and the event picker and `event=` name them. */
export const OFF_CPU_EVENT = 'Off-CPU';
export const WALL_EVENT = 'Wall clock';
export const SWITCH_EVENT = 'sched:sched_switch';
/** The wakeup tracepoints that name a wait's waker. */
const WAKE_EVENTS: ReadonlySet<string> = new Set(['sched:sched_wakeup', 'sched:sched_waking']);

export type DerivedEvent = 'off-cpu' | 'wall';

/** The derived event an `event` option asks for (`Off-CPU`, `off-cpu`, `Wall clock`, `wall`…). */
export function derivedEvent(wanted: string | null | undefined): DerivedEvent | null {
  if (!wanted) return null;
  const w = wanted.toLowerCase().replace(/[\s_]+/g, '-');
  if (w === 'off-cpu' || w === 'offcpu') return 'off-cpu';
  if (w === 'wall' || w === 'wall-clock') return 'wall';
  return null;
}

/** The state classes, in the order of STATE_LEAVES. */
export const SLEEPING = 0;
export const IO = 1;
export const PREEMPTED = 2;
export const OTHER = 3;
/** prev_state X or Z: the thread exits, it waits for nothing. */
export const EXITED = -1;

/** The state class of perf's prev_state text: `S`, `D`, `D|K`, `R`, `R+`, `I`, `X`… */
export function stateClass(state: string): number {
  const c = state.charAt(0);
  if (c === 'S') return SLEEPING;
  if (c === 'D') return IO;
  if (c === 'R') return PREEMPTED;
  if (c === 'X' || c === 'Z') return EXITED;
  return OTHER;
}

export interface SwitchFields {
  prev: number;
  state: number;
  next: number;
}

/**
 * Reads `prev_comm=A prev_pid=1 prev_prio=120 prev_state=S ==> next_comm=B next_pid=2 …` from
 * `start`. A COMM may hold spaces and `=`, so fields are found by their last ` prev_pid=` before
 * ` ==> ` and the last ` next_pid=` after it. Returns false when the text is not such a tail.
 */
export function parseSwitch(text: string, start: number, out: SwitchFields): boolean {
  const arrow = text.indexOf(' ==> ', start);
  if (arrow < 0) return false;
  const prevAt = text.lastIndexOf(' prev_pid=', arrow);
  const stateAt = text.lastIndexOf(' prev_state=', arrow);
  const nextAt = text.lastIndexOf(' next_pid=');
  if (prevAt < start || stateAt < prevAt || nextAt < arrow) return false;
  const prev = intAt(text, prevAt + 10);
  const next = intAt(text, nextAt + 10);
  let end = text.indexOf(' ', stateAt + 12);
  if (end < 0 || end > arrow) end = arrow;
  const state = text.slice(stateAt + 12, end);
  if (prev === null || next === null || state === '') return false;
  out.prev = prev;
  out.next = next;
  out.state = stateClass(state);
  return true;
}

/** The decimal integer (optionally negative) at `at`, ended by a space or the line end. */
function intAt(text: string, at: number): number | null {
  let end = text.indexOf(' ', at);
  if (end < 0) end = text.length;
  const s = text.slice(at, end);
  return /^-?\d{1,9}$/.test(s) ? Number(s) : null;
}

/** What the intervals came to, for the warnings. */
export interface OffCpuSummary {
  intervals: number;
  /** Intervals whose end is the thread's next sample, not a recorded switch-in. */
  inferred: number;
  /** Threads still off CPU at the last timestamp: their last interval ends there. */
  unfinished: number;
  /** Waits that began at the last timestamp itself (nothing of their thread after): not counted. */
  unended: number;
  lastTime: number;
}

/**
 * Receives one interval: the switch-out's node, the state class, nanoseconds, start, thread, and
 * its waker's frame name (`[woken by: …]`) or null.
 */
export type IntervalSink = (node: number, state: number, ns: number, start: number, thread: number, waker: string | null) => void;

const SEEN = 0;
const SWITCH = 1;
const WAKE = 2;

const TIMER_WAKER = `${WAKER_PREFIX}timer]`;
const IRQ_WAKER = `${WAKER_PREFIX}interrupt]`;

/** The frame a waker's name is drawn in, above the state leaf. */
export function wakerFrame(comm: string, tid: number): string {
  return `${WAKER_PREFIX}${comm} ${tid}]`;
}

/**
 * The wakee of a sched_wakeup / sched_waking tail (`comm=NAME pid=N prio=P target_cpu=C`), or
 * -1. The COMM may hold spaces: the last ` pid=` before ` prio=` is the field.
 */
export function parseWakee(text: string, start: number): number {
  const prio = text.lastIndexOf(' prio=');
  const at = text.lastIndexOf(' pid=', prio < 0 ? text.length : prio);
  if (at < start - 1) return -1;
  const pid = intAt(text, at + 5);
  return pid === null ? -1 : pid;
}

/** OffCpuIntervals.header's answer for a sched_switch sample whose fields do not read. */
export const BAD_SWITCH = -2;

export class OffCpuIntervals {
  private readonly fields: SwitchFields = { prev: 0, state: 0, next: 0 };

  /**
   * A sample header (fields `h` of `text`): the thread runs; a kept sched_switch sample starts an
   * interval. Writes the time into `time[0]`; returns the switch's record, -1 for another sample,
   * or BAD_SWITCH.
   */
  header(text: string, h: HeaderFields, kept: boolean, time: Float64Array): number {
    parseTimeInto(text, h.timeStart, h.timeEnd, time);
    this.wakeRecord = -1;
    // A TID may be printed -1 (a task perf could not name).
    const thread = h.tidEnd - h.tidStart > 9 || text.charCodeAt(h.tidStart) === 45 ? -1 : parsePeriod(text, h.tidStart, h.tidEnd);
    const event = eventBaseName(text.slice(h.eventStart, h.eventEnd));
    if (!kept || event !== SWITCH_EVENT) {
      this.seen(time[0], thread);
      if (WAKE_EVENTS.has(event) && h.restStart >= 0 && thread >= 0) this.wake(time[0], thread, text.slice(h.commStart, h.commEnd), parseWakee(text, h.restStart));
      return -1;
    }
    if (h.restStart < 0 || !parseSwitch(text, h.restStart, this.fields) || time[0] < 0) return BAD_SWITCH;
    return this.switchOut(time[0], thread, this.fields);
  }

  private count = 0;
  private time = new Float64Array(1024);
  private kind = new Uint8Array(1024);
  // SEEN: the sample's thread; SWITCH: prev_pid.
  private tid = new Int32Array(1024);
  private next = new Int32Array(1024);
  private state = new Int32Array(1024);
  // SWITCH: the switch-out stack's leaf node, set when the sample ends (-1: none yet).
  private node = new Int32Array(1024);
  // WAKE: the wakee is `next`, the waker's name `wakerNames[node]`.
  private readonly wakerIds = new Map<string, number>();
  private readonly wakerNames: string[] = [];

  // The wakeup sample being read (its frames may show an interrupt), or -1.
  private wakeRecord = -1;

  /** A wakeup of `wakee` run by the thread `waker` (COMM `comm`) at `time`. */
  wake(time: number, waker: number, comm: string, wakee: number): void {
    if (wakee <= 0 || !(time >= 0)) return;
    const i = this.add(time, WAKE);
    this.tid[i] = waker;
    this.next[i] = wakee;
    this.node[i] = this.wakerId(wakerFrame(comm, waker));
    this.wakeRecord = i;
  }

  /**
   * A frame line of the sample whose header was read last (leaf first). For a wakeup, a timer's
   * or an interrupt's frame names the waker instead of the interrupted task.
   */
  frameLine(text: string): void {
    const r = this.wakeRecord;
    if (r < 0) return;
    if (text.includes(' hrtimer_wakeup')) {
      this.node[r] = this.wakerId(TIMER_WAKER);
      this.wakeRecord = -1;
    } else if (text.includes(' asm_sysvec_') || text.includes(' asm_common_interrupt')) {
      this.node[r] = this.wakerId(IRQ_WAKER);
      this.wakeRecord = -1;
    }
  }

  private wakerId(name: string): number {
    let id = this.wakerIds.get(name);
    if (id === undefined) {
      this.wakerIds.set(name, (id = this.wakerNames.length));
      this.wakerNames.push(name);
    }
    return id;
  }

  /** A sample of any event: `thread` was running at `time` (seconds). */
  seen(time: number, thread: number): void {
    if (thread <= 0 || !(time >= 0)) return;
    const i = this.add(time, SEEN);
    this.tid[i] = thread;
  }

  /** A sched_switch sample; returns its record, whose node is set by setNode. */
  switchOut(time: number, header: number, fields: SwitchFields): number {
    // The header's thread ran too (it is prev_pid, or -1 for a task perf could not name).
    if (header !== fields.prev) this.seen(time, header);
    const i = this.add(time, SWITCH);
    this.tid[i] = fields.prev;
    this.next[i] = fields.next;
    this.state[i] = fields.state;
    this.node[i] = -1;
    return i;
  }

  setNode(record: number, node: number): void {
    this.node[record] = node;
  }

  /** Forms the intervals in time order and hands each to `sink`. */
  finish(sink: IntervalSink): OffCpuSummary {
    const n = this.count;
    const time = this.time;
    const order = timeOrder(time, n);
    const pending = new Map<number, number>();
    // Per pending switch record, its waker's name id.
    const wokenBy = new Map<number, number>();
    const summary: OffCpuSummary = { intervals: 0, inferred: 0, unfinished: 0, unended: 0, lastTime: 0 };
    for (let i = 0; i < n; i++) if (time[i] > summary.lastTime) summary.lastTime = time[i];
    const close = (thread: number, at: number, inferred: boolean): void => {
      const r = pending.get(thread);
      // A sample stamped with its thread's switch-out time was taken on the way out, not after.
      if (r === undefined || (inferred && at <= time[r])) return;
      pending.delete(thread);
      const waker = wokenBy.get(r);
      wokenBy.delete(r);
      if (this.emit(r, at, sink, waker)) {
        summary.intervals++;
        if (inferred) summary.inferred++;
      }
    };
    for (let k = 0; k < n; k++) {
      const r = order === null ? k : order[k];
      const t = time[r];
      const thread = this.tid[r];
      // A thread seen running, or switched out again, without its switch-in in the recording.
      close(thread, t, true);
      if (this.kind[r] === WAKE) {
        const waiting = pending.get(this.next[r]);
        if (waiting !== undefined) wokenBy.set(waiting, this.node[r]);
        continue;
      }
      if (this.kind[r] !== SWITCH) continue;
      if (thread > 0 && this.state[r] !== EXITED && this.node[r] >= 0) pending.set(thread, r);
      if (this.next[r] > 0) close(this.next[r], t, false);
    }
    for (const r of pending.values()) {
      if (this.emit(r, summary.lastTime, sink, wokenBy.get(r))) {
        summary.intervals++;
        summary.unfinished++;
      } else summary.unended++;
    }
    return summary;
  }

  private emit(r: number, end: number, sink: IntervalSink, waker: number | undefined): boolean {
    const ns = Math.round((end - this.time[r]) * 1e9);
    if (ns <= 0) return false;
    sink(this.node[r], this.state[r], ns, this.time[r], this.tid[r], waker === undefined ? null : this.wakerNames[waker]);
    return true;
  }

  private add(time: number, kind: number): number {
    const i = this.count++;
    if (i === this.time.length) {
      const size = i * 2;
      this.time = grown(this.time, size);
      this.kind = grown(this.kind, size);
      this.tid = grown(this.tid, size);
      this.next = grown(this.next, size);
      this.state = grown(this.state, size);
      this.node = grown(this.node, size);
    }
    this.time[i] = time;
    this.kind[i] = kind;
    return i;
  }
}

/** Record indices by time, ties in input order; null when the input is already in order. */
function timeOrder(time: Float64Array, n: number): Uint32Array | null {
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = time[i - 1] <= time[i];
  if (sorted) return null;
  const order = new Uint32Array(n);
  for (let i = 0; i < n; i++) order[i] = i;
  return order.sort((a, b) => time[a] - time[b] || a - b);
}

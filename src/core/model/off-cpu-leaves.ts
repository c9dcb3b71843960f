// The leaf frames that end off-CPU time (issue 27), one per state a thread was switched out in:
// named here, beside the frame table, because the importer that adds them (import/perf/
// perf-offcpu.ts) and the palette that draws them apart both read them.

/** Per state class: sleeping (S), I/O (D), preempted (R, R+), other (I, T, …). */
export const STATE_LEAVES = ['[off-CPU: sleeping]', '[off-CPU: I/O]', '[off-CPU: preempted]', '[off-CPU: other]'] as const;

/** The frame above a state leaf that names the task that woke the thread (`[woken by: COMM TID]`). */
export const WAKER_PREFIX = '[woken by: ';
/** offCpuLeafIndex's answer for a waker frame (after the four states). */
export const WAKER_INDEX = STATE_LEAVES.length;

/**
 * The state index (0..3) of an off-CPU leaf's name, WAKER_INDEX for a waker frame, or -1 for any
 * other frame.
 */
export function offCpuLeafIndex(name: string): number {
  if (name.startsWith(WAKER_PREFIX) && name.endsWith(']')) return WAKER_INDEX;
  return name.startsWith('[off-CPU: ') ? (STATE_LEAVES as readonly string[]).indexOf(name) : -1;
}

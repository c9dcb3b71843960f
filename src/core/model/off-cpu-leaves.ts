// The leaf frames that end off-CPU time (issue 27), one per state a thread was switched out in:
// named here, beside the frame table, because the importer that adds them (import/perf/
// perf-offcpu.ts) and the palette that draws them apart both read them.

/** Per state class: sleeping (S), I/O (D), preempted (R, R+), other (I, T, …). */
export const STATE_LEAVES = ['[off-CPU: sleeping]', '[off-CPU: I/O]', '[off-CPU: preempted]', '[off-CPU: other]'] as const;

/** The state index (0..3) of an off-CPU leaf's name, or -1 for any other frame. */
export function offCpuLeafIndex(name: string): number {
  return name.startsWith('[off-CPU: ') ? (STATE_LEAVES as readonly string[]).indexOf(name) : -1;
}

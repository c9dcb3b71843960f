// CPU time of the calling thread (Linux: /proc/thread-self/stat), for benchmarks of parallel
// parsing: process.cpuUsage() sums every thread, and on a shared machine the slowest part's own
// CPU time says more about an idle machine's wall time than the wall time itself does.
// NaN where /proc is not there.

import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS = 100;

export function threadCpuMs(): number {
  try {
    const stat = readFileSync('/proc/thread-self/stat', 'latin1');
    // Fields after the command name (which may hold spaces) in parentheses: utime and stime are
    // the 14th and 15th fields of the line, the 12th and 13th after it.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(rest[11]) + Number(rest[12])) * 1000) / TICKS;
  } catch {
    return NaN;
  }
}

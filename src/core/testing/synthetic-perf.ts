// A generated perf script recording for tests of parallel parsing (no test framework imported:
// the browser tests use it too).

/**
 * A perf script recording of `samples` samples with call chains, inline groups, several threads
 * and kernel frames, and no recursion (no sample waits for the whole recording: its parts merge).
 */
export function syntheticPerf(samples: number): string {
  const names = ['main', 'run', 'parse', 'lex', 'emit', 'hash_one', 'alloc', 'memcpy'];
  const out: string[] = [];
  let seed = 1;
  const next = (n: number) => {
    seed = (Math.imul(seed, 1103515245) + 12345) & 0x7fffffff;
    return seed % n;
  };
  for (let s = 0; s < samples; s++) {
    const tid = 100 + next(4);
    out.push(`toyc ${tid} [00${next(4)}] ${(1000 + s * 0.001).toFixed(6)}: ${1_000_000 + next(1000)} cpu-clock:ppp: `);
    const depth = 2 + next(6);
    for (let d = depth - 1; d >= 0; d--) {
      const address = (0x401000 + d * 0x100 + next(3)).toString(16).padStart(16);
      if (next(4) === 0) out.push(`\t${address} ${names[(d + 3) % names.length]}_inl+0x1 (inlined)`);
      out.push(`\t${address} ${names[d % names.length]}+0x${next(200).toString(16)} (${d === 0 && next(5) === 0 ? '[kernel.kallsyms]' : '/build/toyc'})`);
    }
    out.push('');
  }
  return out.join('\n') + '\n';
}

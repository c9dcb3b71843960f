// `npm run bench:startup` (also the first part of `npm run bench`): how long `flameview --help`
// takes from exec to exit, the fixed cost every command pays. Runs bin/flameview as a user does
// (the sh wrapper, then node on the compiled dist/node/flameview.mjs), beside the same command
// run from the TypeScript sources through tsx (FLAMEVIEW_FROM_SOURCE=1, how every command ran
// before the build) and a bare `node -e 0`, alternating so the machine's load hits all three
// alike. Prints medians (and min/max) of N runs.
//
//   npm run bench:startup [-- --runs N]      (default 21; builds dist/node first)

import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildNode } from '../scripts/build.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'flameview');
/** The target for `flameview --help`. */
const TARGET_MS = 100;

interface Variant {
  label: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const variants: Variant[] = [
  { label: 'flameview --help (compiled)', command: BIN, args: ['--help'] },
  { label: 'flameview --help (tsx, from source)', command: BIN, args: ['--help'], env: { FLAMEVIEW_FROM_SOURCE: '1' } },
  { label: 'node -e 0 (floor)', command: process.execPath, args: ['-e', '0'] },
];

function once(v: Variant): number {
  const start = process.hrtime.bigint();
  const r = spawnSync(v.command, v.args, { env: { ...process.env, ...v.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${v.label} exited with ${r.status}: ${r.stderr}`);
  return ms;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function startupBench(runs: number): { label: string; medianMs: number }[] {
  for (const v of variants) once(v); // warm the page cache
  const times = variants.map(() => [] as number[]);
  for (let i = 0; i < runs; i++) variants.forEach((v, j) => times[j].push(once(v)));
  return variants.map((v, j) => {
    const t = times[j];
    const med = median(t);
    console.log(`${v.label.padEnd(38)} median ${med.toFixed(1).padStart(6)} ms  (min ${Math.min(...t).toFixed(1)}, max ${Math.max(...t).toFixed(1)}, ${runs} runs)`);
    return { label: v.label, medianMs: med };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--runs');
  const runs = Math.max(1, Number(i >= 0 ? process.argv[i + 1] : 21));
  await buildNode({ quiet: true });
  const [compiled, source] = startupBench(runs);
  console.log(`compiled / tsx: ${(compiled.medianMs / source.medianMs).toFixed(2)}; target for the compiled CLI: under ${TARGET_MS} ms (${compiled.medianMs < TARGET_MS ? 'met' : 'NOT met'})`);
}

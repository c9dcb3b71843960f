// `npm run bench:startup` (also the first part of `npm run bench`): how long `flameview --help`
// takes from exec to exit, the fixed cost every command pays. Runs bin/flameview as a user does
// (the sh wrapper, then node on the compiled dist/node/flameview.mjs), beside the same command
// run from the TypeScript sources through tsx (FLAMEVIEW_FROM_SOURCE=1, how every command ran
// before the build) and a bare `node -e 0`, alternating so the machine's load hits all three
// alike. Prints medians (and min/max) of N runs: wall time, and the CPU time (user + sys, from
// GNU time, 10 ms resolution) that is less swayed by other load on a shared machine.
//
//   npm run bench:startup [-- --runs N]      (default 21; builds dist/node first)

import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

const GNU_TIME = '/usr/bin/time';
const scratch = mkdtempSync(join(tmpdir(), 'flameview-startup-'));
const cpuFile = join(scratch, 'cpu');

/** Wall and CPU milliseconds of one run (CPU NaN without GNU time). */
function once(v: Variant): { wall: number; cpu: number } {
  const timed = existsSync(GNU_TIME);
  const [command, args] = timed ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, v.command, ...v.args]] : [v.command, v.args];
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { env: { ...process.env, ...v.env }, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${v.label} exited with ${r.status}: ${r.stderr}`);
  const cpu = timed ? readFileSync(cpuFile, 'utf8').trim().split(/\s+/).slice(-2).reduce((sum, x) => sum + Number(x) * 1000, 0) : NaN;
  return { wall, cpu };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

export function startupBench(runs: number): { label: string; medianMs: number; medianCpuMs: number }[] {
  for (const v of variants) once(v); // warm the page cache
  const times = variants.map(() => [] as { wall: number; cpu: number }[]);
  for (let i = 0; i < runs; i++) variants.forEach((v, j) => times[j].push(once(v)));
  return variants.map((v, j) => {
    const wall = times[j].map((t) => t.wall);
    const med = median(wall);
    const cpu = median(times[j].map((t) => t.cpu));
    console.log(
      `${v.label.padEnd(38)} median ${med.toFixed(1).padStart(6)} ms wall (min ${Math.min(...wall).toFixed(1)}, max ${Math.max(...wall).toFixed(1)}), ` +
        `${cpu.toFixed(0)} ms CPU; ${runs} runs`,
    );
    return { label: v.label, medianMs: med, medianCpuMs: cpu };
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const i = process.argv.indexOf('--runs');
  const runs = Math.max(1, Number(i >= 0 ? process.argv[i + 1] : 21));
  await buildNode({ quiet: true });
  const [compiled, source, floor] = startupBench(runs);
  rmSync(scratch, { recursive: true, force: true });
  console.log(
    `compiled / tsx: ${(compiled.medianMs / source.medianMs).toFixed(2)} wall, ${(compiled.medianCpuMs / source.medianCpuMs).toFixed(2)} CPU; ` +
      `target for the compiled CLI: under ${TARGET_MS} ms (${compiled.medianMs < TARGET_MS ? 'met' : 'NOT met'}; node alone takes ${floor.medianMs.toFixed(0)} ms here now)`,
  );
}

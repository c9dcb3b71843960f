// The cost of source lines (issue 25): the engine (bench/measure.ts: file → loadProfile →
// makeSnapshot, one parser) on a generated perf script and on the same recording as
// `perf script -F +srcline` prints it, alternating fresh processes; medians of MB/s, CPU and
// peak RSS, and their ratios (targets: MB/s ≥ 0.8x, peak RSS ≤ 1.25x).
//
//   npx tsx bench/srcline-bench.ts [--size 160] [--runs 3] [--workers N]
//   npx tsx bench/srcline-bench.ts --plain A.txt --srcline B.txt [--runs 3]   (any twin pair)
//
// The srcline twin is made from the plain file as perf 6.x prints it: after each frame line a
// line `  FILE:LINE`, ` (inlined)` moved from the frame line to it, `[kernel.kallsyms][ADDR]` for
// kernel frames, none after an `[unknown]` DSO. FILE is a hash of the function name; LINE the
// function's first line (a hash of its name) plus one line per 8 bytes of its `+0x` offset, as
// compiled code has (one source line per few instructions): a frame line always has the same
// srcline, as with perf, and the sampled leaves of a function spread over its lines.

import { spawn } from 'node:child_process';
import { createReadStream, createWriteStream, existsSync, renameSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadavg } from 'node:os';
import { ensureInput, MB } from './generate';
import type { Measurement } from './measure';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function hash(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** The srcline line perf would print after this frame line, and the frame line as printed then. */
export function withSrcline(frameLine: string): string {
  const m = /^(\t\s*([0-9a-f]+) (.*?)(\+0x[0-9a-f]+)?) \((.*)\)$/.exec(frameLine);
  if (!m) return frameLine;
  const [, head, address, name, offset, dso] = m;
  if (dso === '[unknown]') return frameLine;
  if (dso.startsWith('[')) return `${frameLine}\n  ${dso}[${address}]`;
  const file = `src/${(hash(name) % 97).toString(36)}/${name.replace(/[^A-Za-z0-9_]/g, '').slice(0, 24) || 'anon'}.rs`;
  const line = 1 + (hash(name) % 3000) + (offset ? Math.floor(parseInt(offset.slice(3), 16) / 8) : 0);
  if (dso === 'inlined') return `${head}\n  ${file}:${line} (inlined)`;
  return `${frameLine}\n  ${file}:${line}`;
}

async function srclineTwin(plain: string): Promise<string> {
  const path = plain.replace(/\.perf-script\.txt$/, '.srcline-v2.perf-script.txt');
  if (existsSync(path) && statSync(path).mtimeMs >= statSync(plain).mtimeMs) return path;
  const out = createWriteStream(`${path}.partial`);
  const lines = createInterface({ input: createReadStream(plain), crlfDelay: Infinity });
  let buf = '';
  for await (const line of lines) {
    buf += (line.charCodeAt(0) === 9 ? withSrcline(line) : line) + '\n';
    if (buf.length > 1 << 20) {
      if (!out.write(buf)) await once(out, 'drain');
      buf = '';
    }
  }
  out.end(buf);
  await once(out, 'close');
  renameSync(`${path}.partial`, path);
  return path;
}

function measure(path: string, workers: number): Promise<Measurement> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench', 'measure.ts'), 'engine', path, String(workers)], {
      env: { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.hugetlb=1' },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let text = '';
    child.stdout.on('data', (d: Buffer) => (text += d.toString()));
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(text) as Measurement) : reject(new Error(`measure exited ${code}`))));
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(argv: string[]): Promise<void> {
  const arg = (name: string) => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const size = Number(arg('--size') ?? 160);
  const runs = Number(arg('--runs') ?? 3);
  const workers = Number(arg('--workers') ?? 1);
  const plain = arg('--plain') ?? (await ensureInput('perf', size, 1, console.log));
  const lines = arg('--srcline') ?? (await srclineTwin(plain));
  console.log(`plain ${(statSync(plain).size / MB).toFixed(1)} MB, srcline ${(statSync(lines).size / MB).toFixed(1)} MB; load ${loadavg()[0].toFixed(1)}`);
  const results: Record<'plain' | 'srcline', Measurement[]> = { plain: [], srcline: [] };
  for (let r = 0; r < runs; r++) {
    for (const kind of r % 2 === 0 ? (['plain', 'srcline'] as const) : (['srcline', 'plain'] as const)) {
      const m = await measure(kind === 'plain' ? plain : lines, workers);
      if (m.skippedLines) throw new Error(`${kind}: ${m.skippedLines} skipped lines`);
      results[kind].push(m);
      console.log(`${kind} run ${r + 1}: ${(m.bytes / MB / (m.ms / 1000)).toFixed(1)} MB/s, ${(m.bytes / MB / (m.cpuMs / 1000)).toFixed(1)} MB/cpu-s, ${m.maxRssMB.toFixed(0)} MB RSS, ${m.inlineNodes} nodes, ${m.lineNodes ?? 0} line-tree nodes`);
    }
  }
  const summary = (kind: 'plain' | 'srcline') => {
    const ms = results[kind];
    return {
      mbps: median(ms.map((m) => m.bytes / MB / (m.ms / 1000))),
      mbPerCpuS: median(ms.map((m) => m.bytes / MB / (m.cpuMs / 1000))),
      rss: median(ms.map((m) => m.maxRssMB)),
    };
  };
  const a = summary('plain');
  const b = summary('srcline');
  console.log(`plain:   ${a.mbps.toFixed(1)} MB/s, ${a.mbPerCpuS.toFixed(1)} MB/cpu-s, ${a.rss.toFixed(0)} MB peak RSS`);
  console.log(`srcline: ${b.mbps.toFixed(1)} MB/s, ${b.mbPerCpuS.toFixed(1)} MB/cpu-s, ${b.rss.toFixed(0)} MB peak RSS`);
  console.log(`ratios:  MB/s ${(b.mbps / a.mbps).toFixed(2)}x (target ≥ 0.8), MB/cpu-s ${(b.mbPerCpuS / a.mbPerCpuS).toFixed(2)}x, peak RSS ${(b.rss / a.rss).toFixed(2)}x (target ≤ 1.25); load ${loadavg()[0].toFixed(1)}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}

// Generates large, realistic benchmark inputs (perf script text and folded stacks) into
// bench/data/, from a model learnt from the real fixtures (see ./model.ts).
//
//   npx tsx bench/generate.ts [--sizes 5,50,200,1000] [--formats perf,folded] [--seed 1]
//
// Why not repeat one fixture: a repeated file gives the importer the same few hundred stacks
// over and over, so every lookup hits a warm cache and the tree stops growing. Here each sample
// is drawn from a skewed pool of call paths (hot paths recur, as in real profiles) and a third of
// them branch off into fresh Markov walks; addresses vary as in real recordings (a fresh leaf
// instruction per sample, return addresses per call site, see frameOffset), names of generic
// frames vary with the path (see namesFor), sample times advance, and a few samples recurse
// thousands of frames deep.
//
// Invariants: output is a pure function of (format, size, seed, GENERATOR_VERSION); it is
// streamed in ~1 MB chunks, never built as one string; a file in bench/data is only written
// under a temporary name and renamed when complete, so a cached file is always whole.

import { createWriteStream, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { learnProgram, walk, type Group, type ProgramModel } from './model';
import { Rng } from './prng';

/** Bump when the output for a given seed changes, so stale cached files are not reused. */
export const GENERATOR_VERSION: Record<BenchFormat, number> = { perf: 3, folded: 2, 'perf-sched': 1 };
const FOLDED_BLOCK_BYTES = 32 * 1024 * 1024;
export const MB = 1_000_000;
/**
 * perf-sched: the perf samples with the scheduler's events between them (issue 27): after about
 * a third of the samples its thread is switched out (a sched_switch with the sample's stack under
 * `__schedule`), woken by another thread (a sched_wakeup with a short kernel stack) and switched
 * back in (a sched_switch from that thread), as `perf record -e cpu-clock -e sched:sched_switch
 * -e sched:sched_wakeup --call-graph dwarf -a` prints them; read with the Wall clock event.
 */
export type BenchFormat = 'perf' | 'folded' | 'perf-sched';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** Where generated inputs are cached; FLAMEVIEW_BENCH_DATA moves them (1 GB inputs to /tmp, say). */
export const DATA_DIR = process.env.FLAMEVIEW_BENCH_DATA || join(ROOT, 'bench', 'data');
const fixture = (name: string): string => join(ROOT, 'fixtures', name);

interface Thread {
  comm: string;
  pid: number;
  tid: number;
  cpu: number;
  style: 'tid' | 'cpu' | 'pid/tid';
  program: number;
  period: number;
}

export interface GenerateOptions {
  format: BenchFormat;
  /** Stop after the first sample (perf) or line (folded) that reaches this many bytes. */
  bytes: number;
  seed: number;
  /** Distinct call paths per program in the hot pool (default 3000). */
  poolSize?: number;
}

export interface GenerateStats {
  bytes: number;
  samples: number;
  lines: number;
  maxGroups: number;
  /** Sum of the sample periods (perf) or of the counts (folded): the tree's total weight. */
  weight: number;
}

let cachedModels: ProgramModel[] | null = null;

/** The two programs of the fixtures: a heavily inlined Rust compiler and SQLite (kernel-heavy). */
export function loadModels(): ProgramModel[] {
  cachedModels ??= [
    learnProgram('toyc', [fixture('rust-toyc.perf-script.txt'), fixture('rust-toyc.run-b.perf-script.txt')]),
    learnProgram('sqlite3', [fixture('sqlite.perf-script.txt')]),
  ];
  return cachedModels;
}

function makeThreads(rng: Rng): { threads: Thread[]; cum: number[]; total: number } {
  const threads: Thread[] = [];
  const weights: number[] = [];
  const pid = rng.range(2000, 30000);
  const add = (comm: string, tid: number, style: Thread['style'], program: number, period: number, w: number) => {
    threads.push({ comm, pid: program === 0 ? pid : pid + 7919, tid, cpu: rng.int(16), style, program, period });
    weights.push(w);
  };
  add('toyc', pid, 'tid', 0, 2004008, 1);
  // Comms with spaces, and one ending in a number (`toyc worker 1`), as in the fixtures.
  for (let i = 0; i < 8; i++) add(`toyc cgu.${i}`, pid + 1 + i, i % 2 === 0 ? 'tid' : 'pid/tid', 0, 2004008, 4);
  add('toyc worker 1', pid + 20, 'pid/tid', 0, 2004008, 2);
  add('sqlite3', pid + 7919, 'cpu', 1, 1001001, 14);
  const cum: number[] = [];
  let total = 0;
  for (const w of weights) cum.push((total += w));
  return { threads, cum, total };
}

/** Draws root-first stacks of group ids: hot pool paths, fresh branches, rare deep recursion. */
class StackSource {
  private readonly pools: number[][][];
  private readonly deepSeeds: { pool: number; at: number; group: number }[][];

  constructor(
    private readonly models: ProgramModel[],
    private readonly rng: Rng,
    poolSize: number,
    private readonly branchChance: number,
  ) {
    this.pools = models.map((m) => Array.from({ length: poolSize }, () => walk(m.chain, rng, [], 400)));
    this.deepSeeds = models.map((m, p) => {
      const rec = new Set(m.chain.recursive);
      const seeds: { pool: number; at: number; group: number }[] = [];
      this.pools[p].forEach((stack, i) => {
        const at = stack.findIndex((g) => rec.has(g));
        if (at >= 0) seeds.push({ pool: i, at, group: stack[at] });
      });
      return seeds;
    });
  }

  /** A root-first stack; `deep` forces one of the rare very deep samples. */
  next(program: number, deep = false): number[] {
    const rng = this.rng;
    const pool = this.pools[program];
    const seeds = this.deepSeeds[program];
    if (seeds.length > 0 && (rng.chance(1 / 2500) || deep)) {
      // A very deep sample: a recursive frame repeated hundreds to thousands of times.
      const s = seeds[rng.int(seeds.length)];
      const stack = pool[s.pool].slice(0, s.at);
      const depth = rng.range(300, 3000);
      for (let i = 0; i < depth; i++) stack.push(s.group);
      return walk(this.models[program].chain, rng, stack, depth + 200);
    }
    // Hot paths first: u^2 skews the choice towards the start of the pool.
    const u = rng.float();
    const base = pool[Math.floor(u * u * pool.length)];
    if (!rng.chance(this.branchChance)) return base;
    const keep = Math.max(1, Math.floor(base.length * (0.3 + 0.7 * rng.float())));
    return walk(this.models[program].chain, rng, base.slice(0, keep), 400);
  }
}

// Generic instantiations. The fixtures are small programs (~800 distinct names); a big Rust
// recording has thousands of monomorphised copies of the same generic function. So an inlined
// generic frame of the Rust program gets a type argument chosen by a hash of the path that leads
// to it: one path always prints the same names (the tree does not grow from this), but the same
// function reached from different callers becomes different frames, as monomorphisation does.
const TYPE_ARGS = ['u8', 'u32', 'u64', 'usize', 'i64', '&str', 'alloc::string::String', 'toyc::Token', 'toyc::Expr', 'toyc::Stmt', 'toyc::Symbol', 'alloc::vec::Vec<toyc::Token>'];
const variantCache = new Map<Group, string[][]>();

/** Names of a group's lines (leaf-first) for a path hash; index 0 of the cache is the original. */
function namesFor(model: ProgramModel, g: Group, pathHash: number): string[] {
  let cache = variantCache.get(g);
  if (!cache) {
    cache = [g.lines.map((l) => l.name)];
    variantCache.set(g, cache);
  }
  const generic = model.name === 'toyc' && g.lines.length > 1;
  const v = generic ? (pathHash >>> 7) % (2 * TYPE_ARGS.length) : TYPE_ARGS.length;
  if (v >= TYPE_ARGS.length) return cache[0];
  let names = cache[v + 1];
  if (!names) {
    names = g.lines.map((l, j) => (j < g.lines.length - 1 && l.name.includes('<') ? `${l.name}::<${TYPE_ARGS[v]}>` : l.name));
    cache[v + 1] = names;
  }
  return names;
}

/** Root-first running hashes of a stack of group ids. */
function pathHashes(stack: number[]): Int32Array {
  const out = new Int32Array(stack.length);
  let h = 0x2545f491;
  for (let i = 0; i < stack.length; i++) {
    h = Math.imul(h ^ stack[i], 0x9e3779b1);
    h ^= h >>> 15;
    out[i] = h;
  }
  return out;
}

function hexAddress(g: Group, offset: number): string {
  const low = (g.addrLow + offset) >>> 0;
  return g.addrHigh === '' ? low.toString(16) : g.addrHigh + low.toString(16).padStart(8, '0');
}

const SPACES = ' '.repeat(32);
const padStart = (s: string, n: number): string => (s.length >= n ? s : SPACES.slice(0, n - s.length) + s);

function perfHeader(t: Thread, micros: number): string {
  return `${headStart(t, micros)} ${padStart(String(t.period), 10)} cpu-clock:ppp: \n`;
}

/** COMM, TID (or PID/TID), [CPU] and TIME: of a header. */
function headStart(t: Thread, micros: number): string {
  const time = `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  let who = t.style === 'pid/tid' ? `${t.pid}/${t.tid}` : padStart(String(t.tid), 5);
  if (t.style === 'cpu') who += ` [${String(t.cpu).padStart(3, '0')}]`;
  return `${t.comm} ${who} ${padStart(time, 12)}:`;
}

const SCHEDULE_FRAMES = ['__schedule+0x2f5', 'schedule+0x5e', 'futex_wait_queue+0x61', 'futex_wait+0x16f', 'do_futex+0x12b', '__x64_sys_futex+0x127', 'do_syscall_64+0x5b', 'entry_SYSCALL_64_after_hwframe+0x6e'];
const WAKE_FRAMES = ['ttwu_do_activate+0x175', 'try_to_wake_up+0x279', 'wake_up_q+0x33', 'futex_wake+0x199', 'do_futex+0x183', '__x64_sys_futex+0x12d', 'do_syscall_64+0x71', 'entry_SYSCALL_64_after_hwframe+0x76'];
// Kernel addresses are past 2^53: written as text, the low half a number.
const kernelFrames = (names: readonly string[]): string => names.map((n, i) => `\tffffffff81${(0x3b4585 + i * 0x3c1).toString(16).padStart(6, '0')} ${n} ([kernel.kallsyms])\n`).join('');

/**
 * `t` switched out after its sample (its stack under the scheduler's frames) to the idle task,
 * woken by `u` and switched back in from idle `waitMicros` later: three samples, as perf script
 * prints them.
 */
function schedSamples(t: Thread, u: Thread, at: number, waitMicros: number, body: string): string {
  const idle: Thread = { ...t, comm: 'swapper', pid: 0, tid: 0 };
  const out = `${headStart(t, at)}  sched:sched_switch: prev_comm=${t.comm} prev_pid=${t.tid} prev_prio=120 prev_state=S ==> next_comm=swapper/${t.cpu} next_pid=0 next_prio=120\n${kernelFrames(SCHEDULE_FRAMES)}${body}\n`;
  const wake = `${headStart(u, at + waitMicros - 1)}  sched:sched_wakeup: comm=${t.comm} pid=${t.tid} prio=120 target_cpu=${String(t.cpu).padStart(3, '0')}\n${kernelFrames(WAKE_FRAMES)}\n`;
  const back = `${headStart(idle, at + waitMicros)}  sched:sched_switch: prev_comm=swapper/${t.cpu} prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=${t.comm} next_pid=${t.tid} next_prio=120\n${kernelFrames(['__schedule+0x2f5', 'schedule_idle+0x26', 'do_idle+0x1c1'])}\n`;
  return out + wake + back;
}

/**
 * The offset of a frame's address in its function. The sampled leaf is any instruction: a fresh
 * random offset per sample. A caller's address is a return address, fixed by the call site: one
 * per (caller, callee) pair, and a second one a quarter of the time (two calls of the same
 * function). So, as in real recordings (fixtures: about 10 % distinct frame lines, saturating
 * with length), caller lines repeat and leaf lines vary.
 */
function frameOffset(g: Group, stack: number[], i: number, rng: Rng): number {
  const span = g.maxOffset + 64;
  if (i === stack.length - 1) return rng.int(span);
  let h = Math.imul(stack[i] ^ 0x5bd1e995, 0x9e3779b1) ^ Math.imul(stack[i + 1] + 1, 0x85ebca6b);
  if (rng.chance(0.25)) h = Math.imul(h ^ 0x27d4eb2d, 0xc2b2ae35);
  h ^= h >>> 13;
  return (h >>> 0) % span;
}

function perfSample(model: ProgramModel, rng: Rng, stack: number[]): string {
  let out = '';
  const hashes = pathHashes(stack);
  for (let i = stack.length - 1; i >= 0; i--) {
    const g = model.groups[stack[i]];
    if (g.fixed) {
      const addr = padStart(g.addrText, 16);
      for (const l of g.lines) out += `\t${addr} ${l.name} (${l.dso})\n`;
      continue;
    }
    const off = frameOffset(g, stack, i, rng);
    const addr = padStart(hexAddress(g, off), 16);
    const offText = off.toString(16);
    const names = namesFor(model, g, hashes[i]);
    for (let j = 0; j < g.lines.length; j++) {
      const l = g.lines[j];
      out += l.offset ? `\t${addr} ${names[j]}+0x${offText} (${l.dso})\n` : `\t${addr} ${names[j]} (${l.dso})\n`;
    }
  }
  return out;
}

/** The folded stack text of a sample: `comm;outer;…;leaf`, inlined frames marked `_[i]`, kernel `_[k]`. */
function foldedStack(model: ProgramModel, t: Thread, stack: number[]): string {
  let out = t.comm.replace(/ /g, '_');
  const hashes = pathHashes(stack);
  for (let i = 0; i < stack.length; i++) {
    const g = model.groups[stack[i]];
    const names = namesFor(model, g, hashes[i]);
    // Root-first: the physical frame (last line of the group) first, then its inlined callees.
    for (let j = g.lines.length - 1; j >= 0; j--) {
      const name = names[j].replace(/;/g, ':');
      out += ';' + name + (j < g.lines.length - 1 ? '_[i]' : g.kernel ? '_[k]' : '');
    }
  }
  return out;
}

/** A skewed sample count times the period; 1 % of them fractional (folded counts may be). */
function foldedCount(rng: Rng, t: Thread): number {
  const u = rng.float();
  const k = 1 + Math.floor(u * u * u * 60);
  return rng.chance(0.01) ? k + rng.range(1, 99) / 100 : k * t.period;
}

const formatCount = (n: number): string => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(2))));

const PERF_HEADER_BLOCK = [
  '# ========',
  '# captured on    : Sun Nov 29 12:00:00 2026',
  '# hostname : bench',
  '# os release : 6.18.44',
  '# perf version : 6.1.187',
  '# arch : x86_64',
  '# nrcpus online : 16',
  '# cmdline : /usr/bin/perf record -F 999 --call-graph dwarf -a ',
  "# event : name = cpu-clock:ppp, , id = { 1 }, type = 1 (PERF_TYPE_SOFTWARE), size = 136, config = 0, { sample_period, sample_freq } = 999",
  '# ========',
  '#',
  '',
].join('\n');

/** Writes one generated input through `sink` in chunks of about 1 MB. */
export async function writeInput(sink: (chunk: string) => void | Promise<void>, options: GenerateOptions): Promise<GenerateStats> {
  // perf-sched draws the same samples as perf (same seed), then the scheduler's events.
  const perf = options.format !== 'folded';
  const rng = new Rng(options.seed * 2 + (perf ? 0 : 1));
  const schedRng = new Rng(options.seed * 2 + 7);
  const models = loadModels();
  const { threads, cum, total } = makeThreads(rng);
  const source = new StackSource(models, rng, options.poolSize ?? 3000, perf ? 0.35 : 0.8);
  const stats: GenerateStats = { bytes: 0, samples: 0, lines: 0, maxGroups: 0, weight: 0 };
  let buf = perf ? PERF_HEADER_BLOCK : '';
  let micros = rng.range(100, 900) * 1e6;
  // Folded output comes in sorted blocks of unique stacks: each block is what a collapser
  // (stackcollapse-perf.pl, inferno, `flameview collapse`) prints, so neighbouring lines share
  // long prefixes as in real folded files; the whole file is several such outputs concatenated,
  // which bounds the generator's memory.
  const block = new Map<string, number>();
  let blockBytes = 0;
  const emitBlock = async (): Promise<void> => {
    for (const key of [...block.keys()].sort()) {
      const count = formatCount(block.get(key)!);
      stats.weight += Number(count);
      stats.lines++;
      buf += `${key} ${count}\n`;
      if (buf.length >= 1 << 20) await flush();
    }
    block.clear();
    blockBytes = 0;
  };
  const flush = async (): Promise<void> => {
    stats.bytes += Buffer.byteLength(buf);
    const chunk = buf;
    buf = '';
    await sink(chunk);
  };
  while (stats.bytes + buf.length + blockBytes < options.bytes) {
    const t = threads[rng.pickCumulative(cum, total)];
    const model = models[t.program];
    // Sample 200 is always a deep one, so even the smallest input has a deep stack.
    const stack = source.next(t.program, stats.samples === 200);
    if (stack.length > stats.maxGroups) stats.maxGroups = stack.length;
    stats.samples++;
    if (perf) {
      micros += rng.range(50, 1200);
      const body = perfSample(model, rng, stack);
      buf += perfHeader(t, micros) + body + '\n';
      stats.weight += t.period;
      for (let i = 0; i < body.length; i = body.indexOf('\n', i) + 1) stats.lines++;
      stats.lines += 2;
      if (options.format === 'perf-sched' && schedRng.range(0, 2) === 0) {
        const u = threads[schedRng.range(0, threads.length - 1)];
        const wait = schedRng.range(2, 40);
        if (u.tid !== t.tid) buf += schedSamples(t, u, micros + 1, wait, body);
      }
    } else {
      const key = foldedStack(model, t, stack);
      const old = block.get(key);
      block.set(key, (old ?? 0) + foldedCount(rng, t));
      if (old === undefined) blockBytes += key.length + 12;
      if (blockBytes >= Math.min(FOLDED_BLOCK_BYTES, options.bytes - stats.bytes - buf.length)) await emitBlock();
    }
    if (buf.length >= 1 << 20) await flush();
  }
  if (block.size > 0) await emitBlock();
  if (buf.length > 0) await flush();
  return stats;
}

export function inputPath(format: BenchFormat, sizeMB: number, seed: number): string {
  const ext = format === 'folded' ? 'folded' : 'perf-script.txt';
  return join(DATA_DIR, `${format}-${sizeMB}MB-seed${seed}-v${GENERATOR_VERSION[format]}.${ext}`);
}

/** The cached input for (format, size, seed), generated when missing. */
export async function ensureInput(format: BenchFormat, sizeMB: number, seed: number, log = (_: string) => {}): Promise<string> {
  const path = inputPath(format, sizeMB, seed);
  if (existsSync(path) && statSync(path).size >= sizeMB * MB) return path;
  mkdirSync(DATA_DIR, { recursive: true });
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  const started = performance.now();
  const stats = await writeInput(async (chunk) => {
    if (!out.write(chunk)) await once(out, 'drain');
  }, { format, bytes: sizeMB * MB, seed });
  out.end();
  await once(out, 'close');
  renameSync(partial, path);
  const secs = (performance.now() - started) / 1000;
  log(`generated ${path}: ${(stats.bytes / MB).toFixed(1)} MB, ${stats.samples} samples, ${stats.lines} lines, deepest ${stats.maxGroups} groups (${secs.toFixed(1)} s)`);
  return path;
}

export function parseList(value: string | undefined, fallback: string[]): string[] {
  return value ? value.split(',').map((s) => s.trim()).filter(Boolean) : fallback;
}

async function main(argv: string[]): Promise<void> {
  const arg = (name: string): string | undefined => {
    const i = argv.indexOf(name);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const sizes = parseList(arg('--sizes'), ['5', '50', '200', '1000']).map(Number);
  const formats = parseList(arg('--formats'), ['perf', 'folded']) as BenchFormat[];
  const seed = Number(arg('--seed') ?? 1);
  for (const format of formats) for (const size of sizes) console.log(await ensureInput(format, size, seed, console.log));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main(process.argv.slice(2)).catch((e) => {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  });
}

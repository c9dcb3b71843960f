// Mutation fuzzing of the importers from the real recordings in fixtures/: byte flips, cuts,
// splices of two recordings, huge numbers, deep and long lines, gzip wrapped and cut. Shared by the
// fixed-seed CI pass (src/core/import/fuzz.test.ts) and long runs (`npm run fuzz -- --minutes N`,
// scripts/fuzz.ts). Each input goes through loadProfile as a dropped file does (gzip, sniffing,
// every importer), and what comes out is checked against the properties every importer promises:
//
// - it fails only with an ImportError (format expected, line, what was found), never another
//   exception;
// - a profile it returns is consistent (every node inside its parent's range, totals the sums of
//   the selfs below, frame and string indices in range) and no larger than a stated multiple of
//   the input (MAX_GROWTH nodes, frames and name characters per input byte);
// - it ends within a time proportional to its size (reported; long runs flag the slow inputs).

import { gunzipSync, gzipSync } from 'node:zlib';
import { Rng } from '../../../bench/prng';
import { toProcessed } from '../export/processed';
import { concatBytes } from '../import/byte-stream';
import { loadProfileFromText } from '../import/load';
import { ImportError, type Profile } from '../model/profile';
import { fixtureBytes } from './fixtures';

// One recording per importer (the processed one made from a perf recording), small enough that
// a few hundred mutants each run in about a minute on CI's 2 cores.
export const SEEDS: Record<string, () => Promise<Uint8Array> | Uint8Array> = {
  'perf script': () => fixtureBytes('cpp/recur.perf-script.txt'),
  'perf script, no call chains': () => fixtureBytes('sqlite.no-callchain.perf-script.txt'),
  // The first 200 samples of a -F +srcline printing (source lines under each frame).
  'perf script -F +srcline': () => firstSamples(gunzipSync(fixtureBytes('srcline/hashack.srcline.perf-script.txt.gz')), 200),
  folded: () => fixtureBytes('cpp/recur.folded'),
  // Decompressed, so that flips reach the protobuf (the gzip mutations wrap it again).
  pprof: () => gunzipSync(fixtureBytes('interchange/go-cpu.pb.gz')),
  cpuprofile: () => fixtureBytes('interchange/node.cpuprofile'),
  'chrome trace': () => fixtureBytes('interchange/chrome-trace.json'),
  speedscope: () => fixtureBytes('interchange/node.speedscope.json'),
  'flamegraph SVG': () => fixtureBytes('rust-toyc.svg'),
  processed: async () => toProcessed(await loadProfileFromText(fixtureBytes('cpp/recur.perf-script.txt'))),
};

/** Nodes, frames and name characters a profile may hold per byte of input (plus a constant). */
export const MAX_GROWTH = 4;

export type Mutation = 'flip' | 'cut' | 'splice' | 'number' | 'deep' | 'long-line' | 'gzip' | 'gzip-cut' | 'delete-lines' | 'swap-lines' | 'json';
export const MUTATIONS: readonly Mutation[] = ['flip', 'cut', 'splice', 'number', 'deep', 'long-line', 'gzip', 'gzip-cut', 'delete-lines', 'swap-lines', 'json'];

// Numbers that are still JSON numbers, so a JSON recording stays JSON.
const HUGE = ['9007199254740993', '1e308', '-1', '0', '99999999999999999999999', '-0', '4294967296', '1.5e-320', '-9007199254740993'];

function lineStarts(b: Uint8Array): number[] {
  const out = [0];
  for (let i = 0; i < b.length; i++) if (b[i] === 10 && i + 1 < b.length) out.push(i + 1);
  return out;
}

/** One mutant of `input` (another recording `other` for splices). Deterministic in the Rng's state. */
export function mutate(rng: Rng, input: Uint8Array, other: Uint8Array, kind: Mutation): Uint8Array {
  const at = () => rng.int(Math.max(1, input.length));
  switch (kind) {
    case 'flip': {
      // A copy: a Buffer's slice() is a view, and flipping it would damage the seed itself.
      const out = new Uint8Array(input);
      for (let k = rng.range(1, 16); k > 0; k--) if (out.length) out[at()] = rng.int(256);
      return out;
    }
    case 'cut':
      return input.subarray(0, at());
    case 'splice': {
      const a = at();
      const b = rng.int(Math.max(1, other.length));
      return concat(input.subarray(0, a), other.subarray(b, b + rng.range(1, 64 * 1024)));
    }
    case 'number': {
      // A number in the text replaced by a huge, negative or odd one.
      const text = new TextDecoder().decode(input);
      let hits = 0;
      const out = text.replace(/\d+(\.\d+)?/g, (m) => (rng.chance(0.02) && hits++ < 20 ? HUGE[rng.int(HUGE.length)] : m));
      return new TextEncoder().encode(out);
    }
    case 'deep': {
      // One line repeated thousands of times: a very deep stack, or many equal samples.
      const starts = lineStarts(input);
      const i = rng.int(starts.length);
      const line = input.subarray(starts[i], i + 1 < starts.length ? starts[i + 1] : input.length);
      // At most ~8 MB: a one-line JSON recording repeated 20,000 times proves nothing more.
      const times = Math.max(2, Math.min(rng.range(1000, 20000), Math.floor((8 << 20) / Math.max(1, line.length))));
      const out = new Uint8Array(starts[i] + line.length * times + (input.length - starts[i]));
      out.set(input.subarray(0, starts[i]));
      for (let k = 0; k < times; k++) out.set(line, starts[i] + k * line.length);
      out.set(input.subarray(starts[i]), starts[i] + line.length * times);
      return out;
    }
    case 'long-line': {
      const a = at();
      const long = new Uint8Array(rng.range(64 * 1024, 1536 * 1024)).fill(rng.chance(0.5) ? 0x61 : 0x3b);
      return concat(input.subarray(0, a), long, input.subarray(a));
    }
    case 'gzip':
      return gzipSync(mutate(rng, input, other, 'flip'));
    case 'gzip-cut': {
      const z = gzipSync(input);
      return z.subarray(0, rng.range(1, z.length - 1));
    }
    case 'delete-lines': {
      const starts = lineStarts(input);
      const keep: Uint8Array[] = [];
      for (let i = 0; i < starts.length; i++) if (!rng.chance(0.05)) keep.push(input.subarray(starts[i], i + 1 < starts.length ? starts[i + 1] : input.length));
      return concat(...keep);
    }
    case 'json': {
      // Values inside a JSON recording: numbers made huge or negative, strings long or empty,
      // arrays cut or repeated, keys dropped; the result is still JSON. Other inputs: flips.
      let doc: unknown;
      try {
        doc = JSON.parse(new TextDecoder().decode(input));
      } catch {
        return mutate(rng, input, other, 'flip');
      }
      // A few values changed, each at a random place in the document.
      const places: Array<[Record<string, unknown> | unknown[], string | number]> = [];
      const stack: unknown[] = [doc];
      while (stack.length) {
        const v = stack.pop();
        if (v && typeof v === 'object') {
          for (const [k, x] of Object.entries(v)) {
            places.push([v as Record<string, unknown>, Array.isArray(v) ? Number(k) : k]);
            stack.push(x);
          }
        }
      }
      for (let k = rng.range(1, 3); k > 0 && places.length; k--) {
        const [holder, key] = places[rng.int(places.length)];
        const h = holder as Record<string | number, unknown>;
        const v = h[key];
        if (typeof v === 'number') h[key] = Number(HUGE[rng.int(HUGE.length)]);
        else if (typeof v === 'string') h[key] = rng.chance(0.5) ? '' : 'x'.repeat(rng.range(1, 200_000));
        else if (Array.isArray(v)) {
          if (rng.chance(0.5)) v.length = rng.int(v.length + 1);
          else v.push(...v.slice(0, rng.range(1, 1000)));
        } else if (!Array.isArray(holder)) delete h[key];
      }
      return new TextEncoder().encode(JSON.stringify(doc));
    }
    case 'swap-lines': {
      const starts = lineStarts(input);
      const lines = starts.map((s, i) => input.subarray(s, i + 1 < starts.length ? starts[i + 1] : input.length));
      for (let k = rng.range(1, 20); k > 0; k--) {
        const i = rng.int(lines.length);
        const j = rng.int(lines.length);
        [lines[i], lines[j]] = [lines[j], lines[i]];
      }
      return concat(...lines);
    }
  }
}

function concat(...parts: Uint8Array[]): Uint8Array {
  // A copy even of one part: the mutants must never share the seed's bytes.
  return concatBytes([...parts, new Uint8Array(0)], parts.reduce((n, p) => n + p.length, 0));
}

export interface Outcome {
  kind: 'loaded' | 'import-error';
  ms: number;
}

/** Loads one input and checks the properties; throws (with what broke) when one fails. */
export async function check(input: Uint8Array): Promise<Outcome> {
  const start = performance.now();
  let profile: Profile;
  try {
    profile = await loadProfileFromText(input, { source: 'fuzz' });
  } catch (e) {
    if (e instanceof ImportError) {
      if (!e.expected || e.found === undefined) throw new Error(`an ImportError without what was expected and found: ${e.message}`);
      return { kind: 'import-error', ms: performance.now() - start };
    }
    throw new Error(`not an ImportError: ${e instanceof Error ? `${e.name}: ${e.message}\n${e.stack}` : String(e)}`);
  }
  consistent(profile, input.length);
  return { kind: 'loaded', ms: performance.now() - start };
}

function consistent(p: Profile, inputBytes: number): void {
  const fail = (what: string): never => {
    throw new Error(`an inconsistent profile: ${what}`);
  };
  const { tree, frames } = p;
  const bound = MAX_GROWTH * inputBytes + 1024;
  if (tree.nodeCount > bound) fail(`${tree.nodeCount} nodes from ${inputBytes} bytes`);
  if (frames.count > bound) fail(`${frames.count} frames from ${inputBytes} bytes`);
  let chars = 0;
  for (const s of frames.strings) chars += s.length;
  if (chars > bound) fail(`${chars} characters of names from ${inputBytes} bytes`);
  if (tree.parent[0] !== -1) fail('a root with a parent');
  for (let n = 1; n < tree.nodeCount; n++) {
    const parent = tree.parent[n];
    if (!(parent >= 0 && parent < n && tree.end[n] <= tree.end[parent] && tree.end[n] > n)) fail(`node ${n} outside its parent ${parent}`);
    if (tree.depth[n] !== tree.depth[parent] + 1) fail(`node ${n} at depth ${tree.depth[n]} under depth ${tree.depth[parent]}`);
    const f = tree.frame[n];
    if (!(f >= 0 && f < frames.count)) fail(`node ${n} of frame ${f}`);
    if (!(frames.name[f] >= 0 && frames.name[f] < frames.strings.length)) fail(`frame ${f} named ${frames.name[f]}`);
    if (!Number.isFinite(tree.selfWeight[n]) || !Number.isFinite(tree.totalWeight[n])) fail(`node ${n} with weight ${tree.selfWeight[n]}`);
  }
  // Totals: each node's total is its self plus its children's totals (within rounding).
  const sum = new Float64Array(tree.nodeCount);
  for (let n = tree.nodeCount - 1; n >= 0; n--) {
    sum[n] += tree.selfWeight[n];
    const want = tree.totalWeight[n];
    if (Math.abs(sum[n] - want) > 1e-9 * Math.max(1, Math.abs(want))) fail(`node ${n}: total ${want}, its self and children sum to ${sum[n]}`);
    if (n > 0) sum[tree.parent[n]] += want;
  }
  if (p.samples) {
    for (let i = 0; i < p.samples.count; i++) if (!(p.samples.leaf[i] >= 0 && p.samples.leaf[i] < tree.nodeCount)) fail(`sample ${i} at node ${p.samples.leaf[i]}`);
  }
  if (p.lines) {
    // The line tree projects onto the tree, and holds no more weight than it.
    const lines = p.lines;
    const t = lines.tree;
    if (t.nodeCount > bound) fail(`${t.nodeCount} line-tree nodes from ${inputBytes} bytes`);
    for (let ln = 1; ln < t.nodeCount; ln++) {
      const k = t.frame[ln];
      if (!(k >= 0 && k < lines.locatedFrame.length)) fail(`line node ${ln} of located frame ${k}`);
      const n = lines.node[ln];
      if (!(n > 0 && n < tree.nodeCount) || tree.frame[n] !== lines.locatedFrame[k] || tree.parent[n] !== lines.node[t.parent[ln]]) fail(`line node ${ln} off the path of node ${n}`);
      const loc = lines.locatedLocation[k];
      if (!(loc >= -1 && loc < lines.locations.count)) fail(`line node ${ln} at location ${loc}`);
    }
    if (t.totalWeight[0] > tree.totalWeight[0] * (1 + 1e-9) + 1e-9) fail(`line tree weight ${t.totalWeight[0]} over the tree's ${tree.totalWeight[0]}`);
  }
}

/** The input up to the end of its `n`-th blank line (perf script: its first n samples). */
function firstSamples(input: Uint8Array, n: number): Uint8Array {
  let blanks = 0;
  for (let i = 1; i < input.length; i++) if (input[i] === 10 && input[i - 1] === 10 && ++blanks === n) return input.slice(0, i + 1);
  return input;
}

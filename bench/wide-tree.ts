// A folded-stacks input whose call tree has a chosen number of nodes (hundreds of thousands), for
// the renderer's zoom benchmark: issue #3 asks for per-frame work p95 under 8 ms on a profile of
// at least 500,000 tree nodes, and the realistic generator (./generate.ts) gives ~110,000 nodes
// at 200 MB.
//
//   npx tsx bench/wide-tree.ts [--nodes 600000] [--seed 1]
//
// Shape: a random recursive tree (node i hangs under node i-1 with probability 0.35, else under a
// uniformly chosen earlier node), so depth grows like log N with long chains here and there;
// one folded line per leaf with a heavy-tailed weight (1 to ~1e6), so most nodes are narrower
// than a pixel in the full view, as in real large profiles. Names come from a pool of ~50,000
// (`modK::fnJ`), siblings almost never share one (a shared name merges two nodes: the engine's
// node count is what the benchmark reports).
//
// Invariants: output is a pure function of (nodes, seed, WIDE_VERSION); written under a
// temporary name and renamed when complete; never held as one string.

import { once } from 'node:events';
import { createWriteStream, existsSync, mkdirSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATA_DIR } from './generate';
import { Rng } from './prng';

export const WIDE_VERSION = 1;
const NAME_POOL = 50021;

export function widePath(nodes: number, seed: number): string {
  return join(DATA_DIR, `wide-${nodes}-seed${seed}-v${WIDE_VERSION}.folded`);
}

/** Writes the folded lines of a tree with `nodes` generated nodes; returns the bytes written. */
export async function writeWideFolded(sink: (chunk: string) => void | Promise<void>, nodes: number, seed: number): Promise<{ bytes: number; lines: number }> {
  const rng = new Rng(seed);
  const parent = new Int32Array(nodes);
  const hasChild = new Uint8Array(nodes);
  parent[0] = -1;
  for (let i = 1; i < nodes; i++) {
    const p = rng.float() < 0.35 ? i - 1 : Math.floor(rng.float() * i);
    parent[i] = p;
    hasChild[p] = 1;
  }
  const name = (i: number) => {
    const k = i % NAME_POOL;
    return `mod${k % 97}::fn${k}`;
  };
  let buf = '';
  let bytes = 0;
  let lines = 0;
  const path: number[] = [];
  for (let leaf = 0; leaf < nodes; leaf++) {
    if (hasChild[leaf]) continue;
    path.length = 0;
    for (let n = leaf; n >= 0; n = parent[n]) path.push(n);
    let line = 'wide';
    for (let j = path.length - 1; j >= 0; j--) line += ';' + name(path[j]);
    const weight = 1 + Math.floor(2 ** (rng.float() * 20));
    buf += `${line} ${weight}\n`;
    lines++;
    if (buf.length >= 1 << 20) {
      bytes += buf.length;
      await sink(buf);
      buf = '';
    }
  }
  if (buf.length > 0) {
    bytes += buf.length;
    await sink(buf);
  }
  return { bytes, lines };
}

/** The cached wide input, generated when missing. */
export async function ensureWideInput(nodes: number, seed: number, log = (_: string) => {}): Promise<string> {
  const path = widePath(nodes, seed);
  if (existsSync(path)) return path;
  mkdirSync(DATA_DIR, { recursive: true });
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  const stats = await writeWideFolded(async (chunk) => {
    if (!out.write(chunk)) await once(out, 'drain');
  }, nodes, seed);
  out.end();
  await once(out, 'close');
  renameSync(partial, path);
  log(`generated ${path}: ${(stats.bytes / 1e6).toFixed(1)} MB, ${stats.lines} lines`);
  return path;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const arg = (name: string) => {
    const i = process.argv.indexOf(name);
    return i >= 0 ? process.argv[i + 1] : undefined;
  };
  ensureWideInput(Number(arg('--nodes') ?? 600_000), Number(arg('--seed') ?? 1), console.log)
    .then((p) => console.log(p))
    .catch((e) => {
      console.error(e);
      process.exit(1);
    });
}

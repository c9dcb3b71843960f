// Figures computed from FlameGraph's folded oracles, to check what the viewer shows: frame totals
// along a path, the heaviest path, and the Matched share (a sample counts once when any frame of
// its stack matches, which is what "without double counting nested matches" means).

import { readFileSync } from 'node:fs';
import { fixturePath } from './helpers';

export interface Folded {
  stacks: { frames: string[]; weight: number }[];
  total: number;
}

export function readFolded(name: string): Folded {
  const stacks = readFileSync(fixturePath(name), 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((line) => {
      const space = line.lastIndexOf(' ');
      return { frames: line.slice(0, space).split(';'), weight: Number(line.slice(space + 1)) };
    });
  return { stacks, total: stacks.reduce((s, x) => s + x.weight, 0) };
}

function startsWith(frames: string[], prefix: string[]): boolean {
  if (frames.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (frames[i] !== prefix[i]) return false;
  return true;
}

/** Total weight under a root-first path. */
export function totalOf(f: Folded, path: string[]): number {
  return f.stacks.reduce((s, x) => (startsWith(x.frames, path) ? s + x.weight : s), 0);
}

/** The path from the root that always steps to the heaviest child, `depth` frames long. */
export function heaviestPath(f: Folded, depth: number): string[] {
  const path: string[] = [];
  for (let d = 0; d < depth; d++) {
    const children = new Map<string, number>();
    for (const x of f.stacks) {
      if (x.frames.length > d && startsWith(x.frames, path)) children.set(x.frames[d], (children.get(x.frames[d]) ?? 0) + x.weight);
    }
    let best: string | null = null;
    let bestWeight = -1;
    for (const [name, w] of [...children].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))) {
      if (w > bestWeight) {
        best = name;
        bestWeight = w;
      }
    }
    if (best === null) break;
    path.push(best);
  }
  return path;
}

/** Share (0..1) of the weight under `within` whose stacks contain a frame matching `re`. */
export function matchedShare(f: Folded, re: RegExp, within: string[] = []): number {
  let hit = 0;
  let all = 0;
  for (const x of f.stacks) {
    if (!startsWith(x.frames, within)) continue;
    all += x.weight;
    if (x.frames.some((name) => re.test(name))) hit += x.weight;
  }
  return all > 0 ? hit / all : 0;
}

export function pct(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

/** As the viewer formats nanoseconds. */
export function formatNs(ns: number): string {
  if (ns < 1e3) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${(ns / 1e3).toFixed(1)} µs`;
  if (ns < 1e9) return `${(ns / 1e6).toFixed(1)} ms`;
  return `${(ns / 1e9).toFixed(2)} s`;
}

/**
 * stackcollapse-perf.pl's tidying of one frame name (cut at the first '(' unless it is an
 * "(anonymous namespace)", quotes deleted): the oracle's names are shortened this way, ours are
 * not, so names read from the page go through this before comparison.
 */
export function perlTidy(frame: string): string {
  let f = frame;
  if (!/\.\(.*\)\./.test(f)) f = f.replace(/\((?!anonymous namespace\)).*/, '');
  return f.replace(/["']/g, '');
}

// For tests: per-line self and total of every function, summed straight from an importer's
// decoded input (samples as root-first lists of (function name, `file:line`)), the oracle that the
// line tree's queries (../query/source-lines.ts) are checked against, in the inline-frame view.

import type { Profile } from '../model/profile';
import { framesMatching, functionLines } from '../query/source-lines';

export interface OracleFrame {
  name: string;
  /** `file:line`, or `?` when unknown. */
  where: string;
}

export type LineSums = Map<string, Map<string, { self: number; total: number }>>;

/** Self (the leaf's line) and total (once per sample and line) per function and line. */
export function lineSums(samples: Iterable<{ weight: number; frames: OracleFrame[] }>): LineSums {
  const out: LineSums = new Map();
  const row = (name: string, where: string) => {
    let fn = out.get(name);
    if (!fn) out.set(name, (fn = new Map()));
    let r = fn.get(where);
    if (!r) fn.set(where, (r = { self: 0, total: 0 }));
    return r;
  };
  for (const { weight, frames } of samples) {
    if (frames.length === 0) continue;
    const seen = new Set<string>();
    for (const f of frames) {
      const key = `${f.name}\u0000${f.where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      row(f.name, f.where).total += weight;
    }
    const leaf = frames[frames.length - 1];
    row(leaf.name, leaf.where).self += weight;
  }
  return out;
}

/** What flameview's query gives for one function by name, in the inline view, keyed as lineSums. */
export function queriedLines(profile: Profile, name: string): Map<string, { self: number; total: number }> {
  const fl = functionLines(profile, 'inline', framesMatching(profile, 'inline', (n) => n === name))!;
  return new Map(fl.lines.map((l) => [l.file === null ? '?' : `${l.file}:${l.line}`, { self: l.self, total: l.total }]));
}

/** Differences between the oracle and the query, for every function (empty: they agree). */
export function lineDifferences(profile: Profile, sums: LineSums, close = (a: number, b: number) => a === b): string[] {
  const out: string[] = [];
  for (const [name, want] of sums) {
    const got = queriedLines(profile, name);
    for (const [where, w] of want) {
      const g = got.get(where) ?? { self: 0, total: 0 };
      if (!close(g.self, w.self) || !close(g.total, w.total)) out.push(`${name} ${where}: self ${g.self} total ${g.total}, expected self ${w.self} total ${w.total}`);
    }
    for (const where of got.keys()) if (!want.has(where)) out.push(`${name} ${where}: not in the input`);
  }
  return out;
}

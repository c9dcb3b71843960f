// A generative model of perf recordings, learnt from the real fixtures, for benchmark inputs.
//
// The unit of the model is an *address group*: the lines perf prints for one return address
// (inlined callees first, the physical frame last), e.g. the 10 lines of `resolve_expr` at 22ae2
// in fixtures/rust-toyc.perf-script.txt. A sample is a root-first list of groups. The model is a
// first-order Markov chain over groups (caller → callee, plus "stop here" = the sample's leaf),
// one chain per program, with the outermost groups as start states.
//
// Invariants: everything derives from the fixture text and a seeded Rng, so the same seed gives
// the same model and the same output; no name is invented except where noted in generate.ts.

import { readFileSync } from 'node:fs';
import { Rng } from './prng';

export interface GroupLine {
  name: string;
  /** The text inside the trailing parentheses: a DSO path, `[kernel.kallsyms]`, `inlined`, `[unknown]`. */
  dso: string;
  /** Whether perf printed a `+0x…` offset (the `[unknown]` lines have none). */
  offset: boolean;
}

export interface Group {
  /** Leaf-first, as perf prints them: inlined callees, then the physical frame (last). */
  lines: GroupLine[];
  kernel: boolean;
  /** Address hex digits above the low 32 bits ('' for user space), and the low 32 bits of the base. */
  addrHigh: string;
  addrLow: number;
  /** Largest offset observed; generated offsets stay within a little more than that. */
  maxOffset: number;
  /** True for groups without offsets (`ffffffffffffffff [unknown]`): printed verbatim at addrText. */
  fixed: boolean;
  addrText: string;
}

export interface Chain {
  /** Callees of each group (ids), with cumulative weights; id -1 = stop (this group is the leaf). */
  next: Int32Array[];
  cum: Float64Array[];
  total: number[];
  roots: Int32Array;
  rootCum: Float64Array;
  rootTotal: number;
  /** Groups observed calling themselves (recursion), for the occasional very deep stack. */
  recursive: number[];
}

export interface ProgramModel {
  name: string;
  groups: Group[];
  chain: Chain;
  /** Mean lines per sample in the fixtures, for reports. */
  meanLines: number;
}

const HEADER = /^(\S.*?)\s+(\d+)(?:\/(\d+))?\s+(?:\[(\d+)\]\s+)?(\d+\.\d+):\s+(\d+)\s+(\S+):\s*$/;
// Greedy symbol, shortest DSO: symbols contain ` (` (`FnOnce<(), Output = ()>`), DSOs do not.
const FRAME = /^\s+([0-9a-f]+) (.*) \((.*?)\)$/;
const OFFSET = /\+0x([0-9a-f]+)$/;

interface RawSample {
  groups: number[]; // leaf-first
}

/** Builds one program's model from perf script files (dwarf recordings with inline frames). */
export function learnProgram(name: string, files: string[]): ProgramModel {
  const groups: Group[] = [];
  const byKey = new Map<string, number>();
  const samples: RawSample[] = [];
  let lineCount = 0;

  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    let current: RawSample | null = null;
    let open: { addr: string; lines: GroupLine[]; offsets: number[] } | null = null;

    const closeGroup = (): void => {
      if (!open || !current) return;
      const key = open.lines.map((l) => l.name + '\u0001' + l.dso).join('\u0002');
      let id = byKey.get(key);
      const off = Math.max(0, ...open.offsets);
      if (id === undefined) {
        id = groups.length;
        byKey.set(key, id);
        groups.push(makeGroup(open.addr, off, open.lines));
      } else if (off > groups[id].maxOffset) {
        groups[id].maxOffset = off;
      }
      current.groups.push(id);
      open = null;
    };

    for (const line of text.split('\n')) {
      if (line === '' || line.startsWith('#')) {
        closeGroup();
        if (current && current.groups.length > 0) samples.push(current);
        current = null;
        continue;
      }
      if (!/^\s/.test(line)) {
        if (HEADER.test(line)) current = { groups: [] };
        continue;
      }
      const m = FRAME.exec(line);
      if (!m || !current) continue;
      lineCount++;
      const [, addr, symbol, dso] = m;
      const off = OFFSET.exec(symbol);
      const sym = off ? symbol.slice(0, off.index) : symbol;
      if (open && open.addr !== addr) closeGroup();
      if (!open) open = { addr, lines: [], offsets: [] };
      open.lines.push({ name: sym, dso, offset: off !== null });
      open.offsets.push(off ? parseInt(off[1], 16) : 0);
      if (dso !== 'inlined') closeGroup();
    }
    closeGroup();
    if (current && (current as RawSample).groups.length > 0) samples.push(current);
  }

  return { name, groups, chain: buildChain(groups.length, samples), meanLines: lineCount / Math.max(1, samples.length) };
}

function makeGroup(addr: string, maxOffset: number, lines: GroupLine[]): Group {
  const fixed = lines.every((l) => !l.offset);
  const high = addr.length > 8 ? addr.slice(0, -8) : '';
  const low = parseInt(addr.slice(-8), 16);
  const base = Math.max(0, low - maxOffset);
  const kernel = lines[lines.length - 1].dso === '[kernel.kallsyms]';
  return { lines, kernel, addrHigh: high, addrLow: base, maxOffset, fixed, addrText: addr };
}

function buildChain(n: number, samples: RawSample[]): Chain {
  const edges: Map<number, number>[] = Array.from({ length: n }, () => new Map());
  const rootCounts = new Map<number, number>();
  const recursive = new Set<number>();
  for (const s of samples) {
    const g = s.groups;
    const outer = g[g.length - 1];
    rootCounts.set(outer, (rootCounts.get(outer) ?? 0) + 1);
    // Root-first walk: caller g[i], callee g[i-1]; the leaf g[0] gets a stop edge.
    for (let i = g.length - 1; i > 0; i--) {
      const m = edges[g[i]];
      m.set(g[i - 1], (m.get(g[i - 1]) ?? 0) + 1);
      if (g[i] === g[i - 1]) recursive.add(g[i]);
    }
    const leaf = edges[g[0]];
    leaf.set(-1, (leaf.get(-1) ?? 0) + 1);
  }
  const next: Int32Array[] = [];
  const cum: Float64Array[] = [];
  const total: number[] = [];
  for (const m of edges) {
    const ids = Int32Array.from(m.keys());
    const c = new Float64Array(ids.length);
    let t = 0;
    ids.forEach((id, i) => {
      t += m.get(id)!;
      c[i] = t;
    });
    next.push(ids);
    cum.push(c);
    total.push(t);
  }
  const roots = Int32Array.from(rootCounts.keys());
  const rootCum = new Float64Array(roots.length);
  let rt = 0;
  roots.forEach((id, i) => {
    rt += rootCounts.get(id)!;
    rootCum[i] = rt;
  });
  return { next, cum, total, roots, rootCum, rootTotal: rt, recursive: [...recursive].sort((a, b) => a - b) };
}

/** Continues a root-first stack by walking the chain until it stops or reaches maxDepth groups. */
export function walk(chain: Chain, rng: Rng, stack: number[], maxDepth: number): number[] {
  if (stack.length === 0) stack.push(chain.roots[rng.pickCumulative(chain.rootCum, chain.rootTotal)]);
  while (stack.length < maxDepth) {
    const g = stack[stack.length - 1];
    if (chain.total[g] === 0) break;
    const next = chain.next[g][rng.pickCumulative(chain.cum[g], chain.total[g])];
    if (next < 0) break;
    stack.push(next);
  }
  return stack;
}

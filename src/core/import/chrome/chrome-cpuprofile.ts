// Chrome / Node CPU profiles: the `.cpuprofile` JSON that `node --cpu-prof`, Chrome DevTools and
// the DevTools protocol's Profiler.stop write:
//
//   { "nodes": [{ "id": 1, "callFrame": { "functionName": "(root)", "url": "", "lineNumber": -1,
//                 "columnNumber": -1 }, "hitCount": 0, "children": [2, 3] }, …],
//     "startTime": µs, "endTime": µs, "samples": [nodeId, …], "timeDeltas": [µs, …] }
//
// The legacy form (nodes nested under "head", as DevTools wrote before 2016 and the v8-profiler
// npm modules still do) is converted to this one first. buildCpuProfile is shared with the
// trace-event importer (./chrome-trace.ts), whose nodes name their `parent` instead of listing
// `children`.
//
// Decisions and invariants:
// - A frame is named by its functionName; an anonymous function by `(anonymous file:line)` (the
//   url's last path part, 1-based line) so distinct anonymous callbacks stay distinct frames; the
//   module is the url. `(program)`, `(idle)`, `(garbage collector)` stay frames at depth 1; the
//   parentless `(root)` node is the tree's root, not a frame.
// - Weight: sample i lasts until sample i+1 (timestamps are startTime + running sum of
//   timeDeltas, in µs, put in time order when deltas are negative); the last one lasts until
//   endTime. Weights are in nanoseconds. Without usable timeDeltas the weight is the sample
//   count (weightUnit null). Without `samples`, each node's hitCount is its sample count.
// - Source lines (Profile.lines, ../../model/source-lines.ts): a node's self weight is split over
//   the lines of its `positionTicks` in proportion to their ticks (the line a sample was at is
//   recorded per node, not per sample), at `url`:LINE; without positionTicks it is at `url`:0 (the
//   file, no line). A frame below the leaf is at its url:0 too: a .cpuprofile records no call
//   sites (callFrame.lineNumber is where the function starts, not where it called). No url: the
//   unknown location. A profile without any url has no lines.
// - The tree is built from parent links with explicit stacks (no recursion). A cycle, a node
//   listed as the child of two parents, a missing child or sample id: a warning, never a hang or
//   an exception; the weight of an unknown sample id goes to a `[unknown node N]` frame.

import { FrameTableBuilder } from '../../model/frame-table';
import type { StringTable } from '../../model/string-table';
import { TreeBuilder, finishProfile } from '../../model/tree-builder';
import { ROOT_NODE, type NodeIndex } from '../../model/types';
import { ImportError, quoteInput, type EventSummary, type FormatId, type ImportWarning, type Profile } from '../../model/profile';
import type { BytesImporter, Detection, ImportOptions } from '../importer';
import { headText, parseJsonBytes } from '../whole-input';
import { withoutNul } from '../../util/wire';
import { NO_LOCATION, SourceLinesBuilder } from '../../model/source-lines';

const DESCRIPTION = 'a Chrome/Node CPU profile (.cpuprofile JSON)';

export interface CpuProfileNode {
  id: number;
  callFrame: { functionName?: string; url?: string; lineNumber?: number };
  hitCount?: number;
  children?: number[];
  parent?: number;
  /** Self hits per 1-based source line of the function (V8's positionTicks). */
  positionTicks?: { line: number; ticks: number }[];
}

export interface CpuProfileInput {
  nodes: CpuProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
  startTime?: number;
  endTime?: number;
}

export const cpuprofileImporter: BytesImporter = {
  format: 'cpuprofile',
  description: DESCRIPTION,
  detectBytes(head: Uint8Array): Detection {
    const text = headText(head).trimStart();
    if (!text.startsWith('{')) return 'no';
    if (/^\{\s*"nodes"\s*:\s*\[/.test(text)) return 'yes';
    if (/"traceEvents"|"\$schema"/.test(text)) return 'no';
    if (/"nodes"\s*:\s*\[/.test(text) && /"callFrame"\s*:/.test(text)) return 'yes';
    // The legacy form (DevTools before 2016, the v8-profiler npm modules): a nested "head".
    return /"head"\s*:\s*\{/.test(text) && /"functionName"\s*:/.test(text) ? 'yes' : 'no';
  },
  parseBytes(bytes: Uint8Array, options: ImportOptions): Profile {
    const json = parseJsonBytes(bytes, DESCRIPTION, options.source);
    const input = isLegacy(json) ? fromLegacy(json) : json;
    return buildCpuProfile(checkCpuProfile(input, DESCRIPTION, options.source), options, 'cpuprofile', [], null);
  },
};

/** Checks the shape of a .cpuprofile object; throws an ImportError saying what is missing. */
export function checkCpuProfile(json: unknown, expected: string, source?: string): CpuProfileInput {
  const fail = (found: string) => new ImportError(expected, 0, found, source);
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw fail(`JSON ${describe(json)}, not an object`);
  const p = json as Record<string, unknown>;
  if (!Array.isArray(p.nodes)) throw fail(`an object without a "nodes" array (keys: ${quoteInput(Object.keys(p).join(', '))})`);
  for (let i = 0; i < p.nodes.length; i++) {
    const n = p.nodes[i] as CpuProfileNode;
    if (typeof n !== 'object' || n === null || typeof n.id !== 'number' || typeof n.callFrame !== 'object' || n.callFrame === null) {
      throw fail(`nodes[${i}] without a numeric "id" and a "callFrame": ${quoteInput(JSON.stringify(n) ?? String(n))}`);
    }
  }
  for (const key of ['samples', 'timeDeltas'] as const) {
    const a = p[key];
    if (a !== undefined && (!Array.isArray(a) || a.some((x) => typeof x !== 'number'))) throw fail(`"${key}" that is not an array of numbers`);
  }
  return p as unknown as CpuProfileInput;
}

interface LegacyNode {
  id?: unknown;
  functionName?: unknown;
  url?: unknown;
  lineNumber?: unknown;
  hitCount?: unknown;
  children?: unknown;
}

function isLegacy(json: unknown): json is { head: LegacyNode; [key: string]: unknown } {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  const p = json as Record<string, unknown>;
  return p.nodes === undefined && typeof p.head === 'object' && p.head !== null;
}

/**
 * The legacy form: nodes nested under `head` (flattened here with an explicit stack), 1-based
 * line numbers, startTime/endTime in seconds and absolute `timestamps` in µs; converted as
 * DevTools' CPUProfileDataModel does.
 */
function fromLegacy(json: { head: LegacyNode; [key: string]: unknown }): CpuProfileInput {
  const nodes: CpuProfileNode[] = [];
  const used = new Set<number>();
  let nextId = 1;
  const pending: Array<[LegacyNode, CpuProfileNode | null]> = [[json.head, null]];
  while (pending.length > 0) {
    const [legacy, parent] = pending.pop()!;
    if (typeof legacy !== 'object' || legacy === null) continue;
    let id = typeof legacy.id === 'number' && !used.has(legacy.id) ? legacy.id : -1;
    if (id < 0) {
      while (used.has(nextId)) nextId++;
      id = nextId;
    }
    used.add(id);
    const line = typeof legacy.lineNumber === 'number' ? legacy.lineNumber - 1 : -1;
    const node: CpuProfileNode = {
      id,
      callFrame: {
        functionName: typeof legacy.functionName === 'string' ? legacy.functionName : '',
        url: typeof legacy.url === 'string' ? legacy.url : '',
        lineNumber: line,
      },
      hitCount: typeof legacy.hitCount === 'number' ? legacy.hitCount : 0,
      children: [],
    };
    nodes.push(node);
    if (parent) parent.children!.push(id);
    if (Array.isArray(legacy.children)) {
      for (let i = legacy.children.length - 1; i >= 0; i--) pending.push([legacy.children[i] as LegacyNode, node]);
    }
  }
  const input: CpuProfileInput = { nodes };
  const seconds = (v: unknown) => (typeof v === 'number' ? v * 1e6 : undefined);
  input.startTime = seconds(json.startTime);
  input.endTime = seconds(json.endTime);
  if (Array.isArray(json.samples)) input.samples = json.samples as number[];
  const stamps = json.timestamps;
  if (Array.isArray(stamps) && stamps.every((t) => typeof t === 'number')) {
    const deltas: number[] = [];
    let last = input.startTime ?? (stamps[0] as number) ?? 0;
    for (const t of stamps as number[]) {
      deltas.push(t - last);
      last = t;
    }
    input.timeDeltas = deltas;
  }
  return input;
}

function describe(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  return v === null ? 'null' : typeof v;
}

function frameLabel(cf: CpuProfileNode['callFrame']): string {
  const fn = typeof cf.functionName === 'string' ? cf.functionName : '';
  if (fn !== '') return clean(fn);
  const url = typeof cf.url === 'string' ? cf.url : '';
  if (url === '') return '(anonymous)';
  const file = url.slice(url.lastIndexOf('/') + 1) || url;
  const line = typeof cf.lineNumber === 'number' && cf.lineNumber >= 0 ? `:${cf.lineNumber + 1}` : '';
  return clean(`(anonymous ${file}${line})`);
}

function clean(name: string): string {
  return withoutNul(name);
}

export function buildCpuProfile(
  input: CpuProfileInput,
  _options: ImportOptions,
  format: FormatId,
  events: EventSummary[],
  event: string | null,
): Profile {
  const { nodes } = input;
  const n = nodes.length;
  const warnings: ImportWarning[] = [];
  const problems = new Map<string, number>();
  const problem = (what: string) => problems.set(what, (problems.get(what) ?? 0) + 1);

  const index = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    if (index.has(nodes[i].id)) problem(`node id ${nodes[i].id} occurs more than once; the first is used`);
    else index.set(nodes[i].id, i);
  }
  // parent[i]: index of the parent node, -1 for none.
  const parent = new Int32Array(n).fill(-1);
  for (let i = 0; i < n; i++) {
    const kids = nodes[i].children;
    if (Array.isArray(kids)) {
      for (const id of kids) {
        const c = index.get(id);
        if (c === undefined) problem(`a node lists a child id that is not in "nodes"`);
        else if (parent[c] !== -1 && parent[c] !== i) problem('a node is the child of two nodes; the first is used');
        else parent[c] = i;
      }
    }
  }
  for (let i = 0; i < n; i++) {
    const p = nodes[i].parent;
    if (typeof p !== 'number' || parent[i] !== -1) continue;
    const pi = index.get(p);
    if (pi === undefined) problem('a node names a parent id that is not in "nodes"');
    else parent[i] = pi;
  }

  const frames = new FrameTableBuilder();
  const builder = new TreeBuilder();
  // treeNode[i]: the builder node of nodes[i] (-1 until resolved). Walks go up the parent links
  // with an explicit stack; `walk[i]` marks nodes on the current walk, to find cycles.
  const treeNode = new Int32Array(n).fill(-1);
  // The url of each builder node (the first node that made it), and each node's self weight and samples.
  const nodeUrl = new Map<NodeIndex, string>();
  const selfWeight = new Float64Array(n);
  const selfSamples = new Float64Array(n);
  const walk = new Int32Array(n).fill(-1);
  const pending: number[] = [];
  const resolve = (start: number): NodeIndex => {
    pending.length = 0;
    let at = start;
    let base: NodeIndex = ROOT_NODE;
    while (at !== -1) {
      if (treeNode[at] !== -1) {
        base = treeNode[at];
        break;
      }
      if (walk[at] === start) {
        problem('the parent links of "nodes" form a cycle; it was cut');
        break;
      }
      walk[at] = start;
      pending.push(at);
      at = parent[at];
    }
    for (let k = pending.length - 1; k >= 0; k--) {
      const i = pending[k];
      const cf = nodes[i].callFrame;
      if (base === ROOT_NODE && parent[i] === -1 && cf.functionName === '(root)') {
        treeNode[i] = ROOT_NODE;
        continue;
      }
      const url = typeof cf.url === 'string' && cf.url !== '' ? cf.url : undefined;
      base = builder.child(base, frames.intern(frameLabel(cf), 0, url));
      if (url !== undefined && !nodeUrl.has(base)) nodeUrl.set(base, url);
      treeNode[i] = base;
    }
    return treeNode[start];
  };

  let weightUnit: 'nanoseconds' | null = 'nanoseconds';
  let samples = 0;
  const ids = input.samples;
  if (Array.isArray(ids) && ids.length > 0) {
    const weights = sampleWeights(input, problem);
    if (!weights) weightUnit = null;
    const unknown = new Map<number, NodeIndex>();
    for (let s = 0; s < ids.length; s++) {
      const i = index.get(ids[s]);
      let node: NodeIndex;
      if (i === undefined) {
        problem('a sample refers to a node id that is not in "nodes"');
        node = unknown.get(ids[s]) ?? builder.child(ROOT_NODE, frames.intern(`[unknown node ${ids[s]}]`, 0));
        unknown.set(ids[s], node);
      } else {
        node = resolve(i);
        selfWeight[i] += weights ? weights[s] : 1;
        selfSamples[i] += 1;
      }
      builder.addSelf(node, weights ? weights[s] : 1, 1);
    }
    samples = ids.length;
  } else {
    weightUnit = null;
    for (let i = 0; i < n; i++) {
      const hits = nodes[i].hitCount;
      if (typeof hits === 'number' && hits > 0) {
        builder.addSelf(resolve(i), hits, hits);
        selfWeight[i] += hits;
        selfSamples[i] += hits;
        samples += hits;
      }
    }
    if (n > 0) warnings.push({ line: 0, message: 'the profile has no "samples": weights are the nodes\' hit counts' });
  }
  for (const [what, count] of problems) warnings.push({ line: 0, message: count > 1 ? `${what} (${count} times)` : what });

  const lines = nodeUrl.size > 0 ? sourceLinesOf(nodes, treeNode, nodeUrl, selfWeight, selfSamples, builder, frames.strings) : null;
  return finishProfile(
    frames,
    builder,
    () => ({ format, events, event, weightUnit, samples, hasInlineInfo: false, skippedLines: 0, warnings }),
    lines && ((table, order) => lines.finish(table, order)),
  );
}

/**
 * The line tree (see the header): each node's self weight at its lines, its callers at their
 * files. A caller's located path depends on its tree node alone, so it is made once per tree node
 * (`located`), and the whole is linear in nodes however deep the chains.
 */
function sourceLinesOf(
  nodes: CpuProfileNode[],
  treeNode: Int32Array,
  nodeUrl: Map<NodeIndex, string>,
  selfWeight: Float64Array,
  selfSamples: Float64Array,
  builder: TreeBuilder,
  strings: StringTable,
): SourceLinesBuilder {
  const lines = new SourceLinesBuilder(strings);
  const fileOf = (b: NodeIndex) => {
    const url = nodeUrl.get(b);
    return url === undefined ? NO_LOCATION : lines.location(withoutNul(url), 0);
  };
  // Line-tree node of each tree node at its file (0: not made yet; the root is the root).
  const located = new Int32Array(builder.nodeCount);
  const pending: NodeIndex[] = [];
  const callerPath = (b: NodeIndex): NodeIndex => {
    pending.length = 0;
    let at = b;
    while (at !== ROOT_NODE && located[at] === 0) {
      pending.push(at);
      at = builder.parentOf(at);
    }
    let ln = at === ROOT_NODE ? ROOT_NODE : located[at];
    for (let k = pending.length - 1; k >= 0; k--) {
      const node = pending[k];
      ln = lines.child(ln, builder.frameOf(node), fileOf(node), node);
      located[node] = ln;
    }
    return ln;
  };
  for (let i = 0; i < nodes.length; i++) {
    const leaf = treeNode[i];
    if (leaf <= ROOT_NODE || (selfWeight[i] === 0 && selfSamples[i] === 0)) continue;
    const url = nodes[i].callFrame.url;
    // Ticks are counts (V8 writes integers); a huge one would make weight × ticks Infinity, so
    // the share is taken as a fraction first and only counts up to 2^53 are believed.
    const ticks = Array.isArray(nodes[i].positionTicks) ? nodes[i].positionTicks!.filter((t) => t && Number.isSafeInteger(t.line) && t.line > 0 && Number.isSafeInteger(t.ticks) && t.ticks > 0) : [];
    let all = 0;
    for (const t of ticks) all += t.ticks;
    if (typeof url !== 'string' || url === '' || all === 0) {
      lines.addSelf(callerPath(leaf), selfWeight[i], selfSamples[i]);
      continue;
    }
    const above = callerPath(builder.parentOf(leaf));
    for (const t of ticks) {
      const ln = lines.child(above, builder.frameOf(leaf), lines.location(withoutNul(url), t.line), leaf);
      lines.addSelf(ln, selfWeight[i] * (t.ticks / all), selfSamples[i] * (t.ticks / all));
    }
  }
  return lines;
}

/** Nanoseconds per sample (see the header), or null when timeDeltas cannot give them. */
function sampleWeights(input: CpuProfileInput, problem: (what: string) => void): Float64Array | null {
  const ids = input.samples!;
  const deltas = input.timeDeltas;
  const count = ids.length;
  if (!Array.isArray(deltas) || deltas.length !== count) {
    problem('"timeDeltas" is missing or does not match "samples": weights are sample counts');
    return null;
  }
  const t = new Float64Array(count);
  let now = typeof input.startTime === 'number' ? input.startTime : 0;
  let ordered = true;
  for (let s = 0; s < count; s++) {
    now += deltas[s];
    t[s] = now;
    if (s > 0 && t[s] < t[s - 1]) ordered = false;
  }
  if (!Number.isFinite(now)) {
    problem('"timeDeltas" holds values that are not finite: weights are sample counts');
    return null;
  }
  const order = new Int32Array(count);
  for (let s = 0; s < count; s++) order[s] = s;
  if (!ordered) {
    order.sort((a, b) => t[a] - t[b] || a - b);
    problem('samples are out of time order (negative timeDeltas); they were sorted by time');
  }
  const weights = new Float64Array(count);
  for (let k = 0; k < count; k++) {
    const s = order[k];
    const next = k + 1 < count ? t[order[k + 1]] : typeof input.endTime === 'number' ? Math.max(input.endTime, t[s]) : t[s];
    weights[s] = (next - t[s]) * 1000;
    // A time past 2^53 ns (104 days) after the previous one is no clock's: a few of them sum to Infinity.
    if (!(weights[s] <= Number.MAX_SAFE_INTEGER)) {
      problem('"timeDeltas" or "endTime" span more than 2^53 ns: weights are sample counts');
      return null;
    }
  }
  return weights;
}

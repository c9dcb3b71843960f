// The source lines of a split input (../model/source-lines.ts), merged from its parts into the
// line tree one parser gives, bit for bit: same locations, located ids, line tree in the same
// order, and each line-tree node's node in the merged call tree.
//
// Why it can be exact (as ./merge.ts for the call tree):
// - locations and located ids are numbered in order of first sight, and a part numbers its own in
//   that order, so interning part 0's, then part 1's, … gives the whole input's numbering; file
//   names are strings of the part's table, which the frame merge interned in the same order;
// - the line tree's siblings are sorted by their frame's (name, flags), then by located id, which
//   depends on the numbering: a part's siblings mix@8, mix@7 may be mix@7, mix@8 in the whole
//   input's, so the parts' trees cannot be merged as sorted lists (./merge.ts mergeTrees). Their
//   paths are added again to one TreeBuilder under the merged ids instead, and finished over a
//   table of located ids ranked as SourceLinesBuilder.finish ranks them: the order then depends
//   only on the ranks, and the weights are integer sums (exact in any order). Linear in the
//   parts' line-tree nodes, plus the builder's sort of siblings;
// - one parser adds every sample after its first source line to the line tree, unknown lines
//   included: a part that started its lines after samples of its own (or never) while an earlier
//   part had lines cannot say where those samples were, so such an input is not merged (null: one
//   parser reads it). Samples parts could not fold themselves (late samples: recursion through
//   one call site, a function inlined into itself) are the same case: a part gives up on the first
//   one with lines (WholeInputNeeded), since one parser numbers its located frames where it adds
//   it, which the late merge (../import/perf/perf-late.ts) would have to replay.

import type { FrameTable } from '../model/frame-table';
import { locatedTable, type SourceLines } from '../model/source-lines';
import { TreeBuilder } from '../model/tree-builder';
import { grown } from '../model/grown';

export interface LinesPart {
  /** The part's line tree, finished against the part's own frame table and tree. */
  sourceLines?: SourceLines | null;
  /** Samples the part added to its tree before its first source line (all of them without one). */
  samplesBeforeLines?: number;
  frames: FrameTable;
}

/**
 * The merged source lines, or undefined when no part has lines, or null when they cannot be
 * merged exactly. `frameMaps` and `nodeMaps` are the call-tree merge's (part frame and node →
 * merged); `frames` is the merged frame table, whose strings hold every part's strings.
 */
export function mergeSourceLines(
  parts: readonly LinesPart[],
  frames: FrameTable,
  frameMaps: readonly Int32Array[],
  nodeMaps: readonly Int32Array[],
  /** Filled per part with its line-tree node → merged line-tree node (what its samples' `line` go through). */
  lineMaps: Int32Array[] = [],
): SourceLines | null | undefined {
  const first = parts.findIndex((p) => p.sourceLines);
  if (first < 0) return undefined;
  for (let p = first + 1; p < parts.length; p++) if ((parts[p].samplesBeforeLines ?? 0) > 0) return null;

  const stringIndex = new Map<string, number>();
  frames.strings.forEach((s, i) => stringIndex.set(s, i));
  // Locations by (file string, line), located ids by (merged frame, merged location): first sight.
  const locationIds = new Map<string, number>();
  const file: number[] = [];
  const line: number[] = [];
  const locatedIds = new Map<number, Map<number, number>>();
  const locatedFrame: number[] = [];
  const locatedLocation: number[] = [];
  const builder = new TreeBuilder();
  // Per builder node, its node in the merged call tree.
  let plain = new Int32Array(1024);
  const built: Int32Array[] = [];
  parts.forEach((part, p) => {
    const lines = part.sourceLines;
    if (!lines) return;
    const strings = part.frames.strings;
    const locMap = new Int32Array(lines.locations.count);
    for (let l = 0; l < lines.locations.count; l++) {
      const f = stringIndex.get(strings[lines.locations.file[l]])!;
      const key = `${lines.locations.line[l]}:${f}`;
      let id = locationIds.get(key);
      if (id === undefined) {
        id = file.length;
        locationIds.set(key, id);
        file.push(f);
        line.push(lines.locations.line[l]);
      }
      locMap[l] = id;
    }
    const fm = frameMaps[p];
    const map = new Int32Array(lines.locatedFrame.length);
    for (let k = 0; k < map.length; k++) {
      const frame = fm[lines.locatedFrame[k]];
      const at = lines.locatedLocation[k];
      const location = at < 0 ? at : locMap[at];
      let byLocation = locatedIds.get(frame);
      if (!byLocation) locatedIds.set(frame, (byLocation = new Map()));
      let id = byLocation.get(location);
      if (id === undefined) {
        id = locatedFrame.length;
        byLocation.set(location, id);
        locatedFrame.push(frame);
        locatedLocation.push(location);
      }
      map[k] = id;
    }
    // The part's line tree, pre-order: each node's builder node is its parent's child for its merged id.
    const t = lines.tree;
    const own = lines.node;
    const toMerged = nodeMaps[p];
    const at = (built[p] = new Int32Array(t.nodeCount));
    for (let ln = 1; ln < t.nodeCount; ln++) {
      const b = builder.child(at[t.parent[ln]], map[t.frame[ln]]);
      at[ln] = b;
      if (b >= plain.length) plain = grown(plain, Math.max(b + 1, plain.length * 2));
      plain[b] = toMerged[own[ln]];
      if (t.selfWeight[ln] !== 0 || t.selfSamples[ln] !== 0) builder.addSelf(b, t.selfWeight[ln], t.selfSamples[ln]);
    }
  });

  const { tree, order } = builder.finish(locatedTable(frames, locatedFrame));
  const node = new Int32Array(tree.nodeCount);
  for (let b = 1; b < tree.nodeCount; b++) node[order[b]] = plain[b];
  parts.forEach((_, p) => (lineMaps[p] = built[p] ? built[p].map((b) => order[b]) : new Int32Array(0)));
  return {
    locations: { count: file.length, file: Int32Array.from(file), line: Int32Array.from(line) },
    locatedFrame: Int32Array.from(locatedFrame),
    locatedLocation: Int32Array.from(locatedLocation),
    tree,
    node,
  };
}

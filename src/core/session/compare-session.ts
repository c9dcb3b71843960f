// The session the compare worker wraps (workers/compare.worker.ts), also driven in-process by the
// tests: both recordings of a comparison, each sent once (typed-array columns and one joined
// string table, compare-protocol.ts), and the questions the comparison UI asks of them: the
// differential graph's colouring columns, one node's figures (tooltips, details) and the table of
// changed functions. The page never runs the diff itself.
//
// Invariants: a request names the recordings by id and answers null when the session holds other
// ones (the page sent newer recordings); diffs are memoised by tree identity (diff.ts), so every
// question after the first for a (view, shape) costs no new alignment; replies own their buffers
// (fresh or copied), so a host may transfer them without detaching a memo.

import type { CallTree } from '../model/call-tree';
import { frameName, type FrameTable } from '../model/frame-table';
import type { NodeIndex } from '../model/types';
import type { ViewKind } from '../model/view-types';
import { deltaColumn, diffTrees, nodeDelta, type DiffNorm, type DiffShape, type DiffSide, type TreeDiff } from '../views/diff';
import { functionDeltaOf, functionDeltas } from '../views/function-deltas';
import { groupDeltas, shareTable, type ShareTable } from '../views/group-deltas';
import { fromShareWire, type RunShares } from '../views/snapshot';
import type { ChangeTableReply, ColoursReply, CompareIds, FiguresReply, RecordingWire } from './compare-protocol';
import { packStrings, unpackStrings } from '../util/wire';

interface Held {
  id: number;
  frames: FrameTable;
  inline: CallTree;
  functions: CallTree | null;
  runShares: RunShares | null;
  sides: Partial<Record<ViewKind, DiffSide>>;
}

export class CompareSession {
  private held: { A: Held | null; B: Held | null } = { A: null, B: null };

  /** Keeps a recording as run A (baseline) or B (comparison), replacing the one there. */
  setRecording(slot: 'A' | 'B', id: number, wire: RecordingWire): void {
    const strings = unpackStrings(wire.strings);
    this.held[slot] = { id, frames: { ...wire.frames, strings }, inline: wire.inline, functions: wire.functions, runShares: wire.runShares, sides: {} };
  }

  /** The differential graph's colouring: B − A per node of the shaping tree, and which nodes both runs have. */
  colours(ids: CompareIds, view: ViewKind, shape: DiffShape, norm: DiffNorm, ignoreRoot = false): ColoursReply | null {
    const diff = this.diff(ids, view, shape, ignoreRoot);
    if (!diff) return null;
    const { delta, maxAbs } = deltaColumn(diff, 'total', { norm });
    return { delta, maxAbs, match: diff.match.slice() };
  }

  /** A node's figures in both runs (its path, and its function over every call site), for tooltips and details. */
  figures(ids: CompareIds, view: ViewKind, shape: DiffShape, node: NodeIndex, norm: DiffNorm, ignoreRoot = false): FiguresReply | null {
    const diff = this.diff(ids, view, shape, ignoreRoot);
    if (!diff) return null;
    const side = shape === 'B' ? diff.b : diff.a;
    if (node < 0 || node >= side.tree.nodeCount) return null;
    const name = node === 0 ? 'all' : frameName(side.frames, side.tree.frame[node]);
    return { name, path: nodeDelta(diff, node, { norm }), fn: node === 0 ? null : functionDeltaOf(diff.a, diff.b, name, { norm }) };
  }

  /** Every function of A or B, heaviest change of self weight first, as columns. */
  changeTable(ids: CompareIds, view: ViewKind, norm: DiffNorm): ChangeTableReply | null {
    const a = this.side('A', ids.a, view);
    const b = this.side('B', ids.b, view);
    if (!a || !b) return null;
    const rows = functionDeltas(a, b, { norm });
    const n = rows.length;
    const out: ChangeTableReply = {
      names: packStrings(rows.map((r) => r.name)),
      status: new Uint8Array(n),
      self: new Float64Array(4 * n),
      total: new Float64Array(4 * n),
      spread: null,
      noise: null,
    };
    const STATUS = { both: 0, new: 1, gone: 2 } as const;
    for (let i = 0; i < n; i++) {
      const r = rows[i];
      out.status[i] = STATUS[r.status];
      out.self.set([r.self.a, r.self.b, r.self.delta, r.self.deltaPct], 4 * i);
      out.total.set([r.total.a, r.total.b, r.total.delta, r.total.deltaPct], 4 * i);
    }
    const runsA = this.runs('A', view);
    const runsB = this.runs('B', view);
    // Spread only when a side is several runs: with one run per side nothing would be noise.
    if (runsA.runs > 1 || runsB.runs > 1) {
      // Noise is judged in percent of each side's total, whatever the table shows (groupDeltas).
      const group = new Map(groupDeltas(runsA, runsB, a, b).map((g) => [g.name, g.selfSpread]));
      out.spread = new Float64Array(2 * n);
      out.noise = new Uint8Array(n);
      for (let i = 0; i < n; i++) {
        const g = group.get(rows[i].name);
        if (!g) continue;
        out.spread[2 * i] = g.a;
        out.spread[2 * i + 1] = g.b;
        out.noise[i] = g.noise ? 1 : 0;
      }
    }
    return out;
  }

  /** A side's share table: its runs' when it is a sum of several, else its one recording's. */
  private runs(slot: 'A' | 'B', view: ViewKind): ShareTable {
    const h = this.held[slot]!;
    const wire = view === 'functions' && h.functions ? h.runShares?.functions : h.runShares?.inline;
    return wire ? fromShareWire(wire) : shareTable([this.side(slot, h.id, view)!]);
  }

  private side(slot: 'A' | 'B', id: number, view: ViewKind): DiffSide | null {
    const h = this.held[slot];
    if (!h || h.id !== id) return null;
    const tree = view === 'functions' && h.functions ? h.functions : h.inline;
    return (h.sides[view] ??= { tree, frames: h.frames });
  }

  /** ignoreRoot: the roots (processes) match whatever their names (diff.ts's pairRoots). */
  private diff(ids: CompareIds, view: ViewKind, shape: DiffShape, ignoreRoot: boolean): TreeDiff | null {
    const a = this.side('A', ids.a, view);
    const b = this.side('B', ids.b, view);
    return a && b ? diffTrees(a, b, shape, { ignoreRoot }) : null;
  }
}

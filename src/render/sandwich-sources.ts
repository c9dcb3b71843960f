// The callers and callees graphs of the selected function (the "sandwich"): flame sources over
// the core's calleesTree/callersTree (core/views/butterfly.ts, memoised there by tree, frames and
// name), each with its own zoom, selection and hover in the analysis slice.
//
// Invariants: both trees are derived from the tree the main graph shows (currentTree), so
// transforms, the reversed view and a time range apply to them too; a source reads null while no
// function is selected or the panel is closed; node indices in the panes refer to these trees
// (selectFunction resets the panes); a tree over SYNC_NODES nodes gets its sandwich from the
// analysis worker (analysis-controller.ts, via the store), and reads null until it arrives
// (sandwichPending is then true).

import { shallow } from 'zustand/shallow';
import type { CallTree } from '../core/model/call-tree';
import type { FrameTable } from '../core/model/frame-table';
import { FrameFlags, type NodeIndex } from '../core/model/types';
import { callersTree, calleesTree } from '../core/views/butterfly';
import type { FlameSource, FlameState } from './flame-source';
import type { SandwichPane, SandwichTrees } from '../store/analysis-slice';
import { FULL_PANE } from '../store/compare-slice';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import type { Orientation, StoreState } from '../store/types';
import { highlightOf, isReversed, nameIndex, shortLabeller, SYNC_NODES } from '../core/query/table-model';

export type { SandwichTrees };
export { isReversed };

/**
 * The callers and callees trees of `name` in `tree`, or null when no frame has that name. In a
 * reversed (bottom-up) tree a function's children are its callers, so the two swap.
 */
export function sandwichOf(tree: CallTree, frames: FrameTable, name: string, reversed = false): SandwichTrees | null {
  const s = nameIndex(frames, name);
  if (s < 0) return null;
  const down = calleesTree(tree, frames, s).tree;
  const up = callersTree(tree, frames, s).tree;
  const callees = reversed ? up : down;
  const callers = reversed ? down : up;
  // One object per pair of trees, so React selectors see the same value until the trees change.
  const hit = pairs.get(callees);
  if (hit && hit.callers === callers) return hit;
  const out = sandwichPair(callers, callees);
  pairs.set(callees, out);
  return out;
}

/** The SandwichTrees of a callers/callees pair. */
export function sandwichPair(callers: CallTree, callees: CallTree): SandwichTrees {
  return { callers, callees, total: callees.nodeCount > 0 ? callees.totalWeight[0] : 0 };
}

const pairs = new WeakMap<CallTree, SandwichTrees>();

/** The sandwich of the store's selected function, or null. */
export function currentSandwich(s: StoreState): SandwichTrees | null {
  const tree = currentTree(s);
  const name = s.analysis.selectedFunction;
  if (!tree || !s.snapshot || name === null) return null;
  const reversed = isReversed(s);
  const r = s.analysis.sandwichTrees;
  if (r && r.tree === tree && r.name === name && r.reversed === reversed) return r.trees;
  return tree.nodeCount <= SYNC_NODES ? sandwichOf(tree, s.snapshot.frames, name, reversed) : null;
}

/** True while the selected function's sandwich is being computed by the worker. */
export function sandwichPending(s: StoreState): boolean {
  const tree = currentTree(s);
  const name = s.analysis.selectedFunction;
  if (!tree || !s.snapshot || name === null || tree.nodeCount <= SYNC_NODES) return false;
  const r = s.analysis.sandwichTrees;
  return !(r && r.tree === tree && r.name === name && r.reversed === isReversed(s));
}

/**
 * Orientation of each graph so the function sits between them: with the main graph as a flame
 * (root at the bottom) the callees grow up above it and the callers hang below it (icicle); with
 * the main graph as an icicle, the other way round.
 */
export function paneOrientation(pane: SandwichPane, main: Orientation): Orientation {
  if (pane === 'callees') return main;
  return main === 'flame' ? 'icicle' : 'flame';
}

/** Which pane is drawn first (on top). */
export function topPane(main: Orientation): SandwichPane {
  return main === 'flame' ? 'callees' : 'callers';
}

function sandwichSource(pane: SandwichPane): FlameSource {
  const set = (p: Partial<typeof FULL_PANE>) => useStore.getState().setSandwichPane(pane, p);
  return {
    read: () => {
      const s = useStore.getState();
      if (s.analysis.panel !== 'sandwich' || !s.snapshot) return null;
      const trees = currentSandwich(s);
      if (!trees) return null;
      const tree = trees[pane];
      const p = s.analysis[pane];
      const ok = (n: NodeIndex) => (n < tree.nodeCount ? n : -1);
      const frames = s.snapshot.frames;
      const state: FlameState = {
        tree,
        frames,
        key: tree,
        orientation: paneOrientation(pane, s.orientation),
        zoomNode: p.zoomNode < tree.nodeCount ? p.zoomNode : 0,
        viewport: p.viewport,
        selectedNode: ok(p.selectedNode),
        hoverNode: ok(p.hoverNode),
        matches: s.search.matches,
        busy: s.loading !== null || s.search.status === 'searching' || s.analysis.pending,
        nodeColours: null,
        highlight: highlightOf(frames, s.analysis.selectedFunction),
        label: s.analysis.shortNames ? shortLabeller(frames) : null,
      };
      return state;
    },
    subscribe: (onChange) =>
      useStore.subscribe(
        (s) => [s.snapshot, s.view, s.derived, s.orientation, s.analysis.panel, s.analysis.selectedFunction, s.analysis.shortNames, s.analysis[pane], s.analysis.sandwichTrees, s.analysis.pending, s.search.matches, s.search.status, s.loading !== null],
        onChange,
        { equalityFn: shallow },
      ),
    hover: (node, pos) => {
      const cur = useStore.getState().analysis[pane];
      if (cur.hoverNode !== node || cur.hoverPos?.x !== pos?.x || cur.hoverPos?.y !== pos?.y) set({ hoverNode: node, hoverPos: pos });
    },
    select: (node) => set({ selectedNode: node }),
    zoom: (node) => set({ zoomNode: node, viewport: FULL_PANE.viewport }),
    setViewport: (zoomNode, viewport) => set({ zoomNode, viewport }),
    cancelAnimation: () => {},
  };
}

export const callersSource = sandwichSource('callers');
export const calleesSource = sandwichSource('callees');

export interface SandwichNodeInfo {
  name: string;
  inlined: boolean;
  totalWeight: number;
  selfWeight: number;
  totalSamples: number;
  selfSamples: number;
  /** Share of the selected function's total weight, 0..1. */
  ofFunction: number;
}

/** What the tooltip of a sandwich graph says about one of its nodes, or null. */
export function sandwichNodeInfo(tree: CallTree, frames: FrameTable, node: NodeIndex): SandwichNodeInfo | null {
  if (node < 0 || node >= tree.nodeCount) return null;
  const f = tree.frame[node];
  const total = tree.totalWeight[0];
  return {
    name: f < 0 ? 'all' : frames.strings[frames.name[f]],
    inlined: f >= 0 && (frames.flags[f] & FrameFlags.INLINED) !== 0,
    totalWeight: tree.totalWeight[node],
    selfWeight: tree.selfWeight[node],
    totalSamples: tree.totalSamples[node],
    selfSamples: tree.selfSamples[node],
    ofFunction: total > 0 ? tree.totalWeight[node] / total : 0,
  };
}

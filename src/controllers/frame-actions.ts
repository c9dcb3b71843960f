// What can be done to one frame of the graph or one function of a table: the context menu's items
// and their keyboard shortcuts (the Firefox Profiler's letters, so its users' hands know them).
// A target is a function name and, for a frame of the main graph, its node in currentTree (a row
// of the function table has no node: "this call path" and "Copy stack" need one).
//
//   key │ action                       key │ action
//   ────┼────────────────────────      ────┼──────────────────────────────
//    f  │ Focus on subtree only         c  │ Collapse function
//    F  │ Focus on function             C  │ Collapse library (else namespace)
//    g  │ Focus on library (else ns.)   r  │ Collapse recursion
//    m  │ Merge function                R  │ Collapse direct recursion only
//    d  │ Drop samples with function

import type { NodeIndex } from '../core/model/types';
import { exactPattern } from '../core/query/diff-sides';
import { segmentsOf } from '../core/views/zoom-path';
import { frameGroupNames, groupNamesOf } from '../core/views/frame-groups';
import type { PatternOp, Transform } from '../core/views/transforms';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { copyText } from './share';

export interface FrameTarget {
  name: string;
  /** The node in currentTree (a frame of the main graph), or null (a function of a table). */
  node: NodeIndex | null;
}

export interface FrameAction {
  id: string;
  label: string;
  /** The key that runs it while the graph or table has the focus, if any. */
  shortcut?: string;
  /** Why it cannot run here (shown as the item's tooltip), or null. */
  disabled: string | null;
  /** Starts a group of items (a separator above it). */
  group?: boolean;
  run(): void | Promise<unknown>;
}

/** The target's library and namespace names (a table row: its function's first frame's). */
function groupsOf(target: FrameTarget): { lib: string | null; ns: string | null } {
  const s = useStore.getState();
  const tree = currentTree(s);
  const frames = s.recordings.a.snapshot?.frames;
  if (!tree || !frames) return { lib: null, ns: null };
  if (target.node !== null) return groupNamesOf(tree, frames, target.node);
  for (let f = 0; f < frames.count; f++) if (frames.strings[frames.name[f]] === target.name) return frameGroupNames(frames, f);
  return { lib: null, ns: null };
}

/** The stack of a node, innermost first, one name per line (as a debugger prints a backtrace). */
export function stackText(node: NodeIndex): string {
  const s = useStore.getState();
  const tree = currentTree(s);
  if (!tree || !s.recordings.a.snapshot) return '';
  return segmentsOf(s.recordings.a.snapshot.frames, tree, node)
    .map((x) => (x.inlined ? `${x.name} [inlined]` : x.name))
    .reverse()
    .join('\n');
}

/** The pattern transforms, offered by the search box's Transform menu and the frame menu. */
export const PATTERN_ACTIONS: { op: PatternOp; label: string; title: string }[] = [
  { op: 'focus', label: 'Focus on matches', title: 'Each stack from its outermost matching frame; stacks without a match go' },
  { op: 'drop', label: 'Drop samples with a match', title: 'Remove every sample whose stack has a matching frame' },
  { op: 'merge', label: 'Merge matches into callers', title: 'Matching frames disappear; their time goes to their callers' },
  { op: 'collapse', label: 'Collapse runs of matches', title: 'Consecutive matching frames become the first of them' },
];

export function frameActions(target: FrameTarget): FrameAction[] {
  const s = useStore.getState();
  const push = (t: Transform) => () => useStore.getState().pushTransform(t);
  const name = target.name;
  const node = target.node !== null && target.node > 0 ? target.node : null;
  const { lib, ns } = groupsOf(target);
  const noNode = node === null ? 'Needs a frame of the flame graph (a call path), not a function' : null;
  const tree = currentTree(s);
  const actions: FrameAction[] = [
    {
      id: 'subtree',
      label: 'Focus on subtree only',
      shortcut: 'f',
      disabled: noNode ?? (s.reversed ? 'Not in the reversed (bottom-up) graph' : null),
      run: () => {
        const st = useStore.getState();
        if (node !== null && tree && st.recordings.a.snapshot) st.pushTransform({ kind: 'subtree', path: segmentsOf(st.recordings.a.snapshot.frames, tree, node) });
      },
    },
    { id: 'focus', label: 'Focus on function', shortcut: 'F', disabled: null, run: push({ kind: 'focus', name }) },
  ];
  if (lib !== null) actions.push({ id: 'focus-lib', label: `Focus on library ${lib}`, shortcut: 'g', disabled: null, run: push({ kind: 'focus-group', group: 'lib', name: lib }) });
  if (ns !== null) actions.push({ id: 'focus-ns', label: `Focus on namespace ${ns}`, shortcut: lib === null ? 'g' : undefined, disabled: null, run: push({ kind: 'focus-group', group: 'ns', name: ns }) });
  actions.push(
    { id: 'merge', label: 'Merge function into callers', shortcut: 'm', disabled: null, run: push({ kind: 'merge', name }) },
    { id: 'drop', label: 'Drop samples with this function', shortcut: 'd', disabled: null, run: push({ kind: 'drop', name }) },
    { id: 'collapse', label: 'Collapse function', shortcut: 'c', disabled: null, run: push({ kind: 'collapse', name }) },
  );
  if (lib !== null) actions.push({ id: 'collapse-lib', label: `Collapse library ${lib}`, shortcut: 'C', disabled: null, run: push({ kind: 'collapse-group', group: 'lib', name: lib }) });
  if (ns !== null) actions.push({ id: 'collapse-ns', label: `Collapse namespace ${ns}`, shortcut: lib === null ? 'C' : undefined, disabled: null, run: push({ kind: 'collapse-group', group: 'ns', name: ns }) });
  actions.push(
    { id: 'rec', label: 'Collapse recursion', shortcut: 'r', disabled: null, run: push({ kind: 'rec', name }) },
    { id: 'drec', label: 'Collapse direct recursion only', shortcut: 'R', disabled: null, run: push({ kind: 'direct-rec', name }) },
  );
  // The search's pattern, once it has matched in time (the pattern gate's condition): its
  // transforms from the frame menu too, so a frame's neighbours by name go in one step.
  const { pattern, status, matches, error, caseInsensitive } = s.search;
  if (pattern && status === 'done' && matches && !error) {
    PATTERN_ACTIONS.forEach((a, i) =>
      actions.push({ id: `pattern-${a.op}`, label: `${a.label} /${pattern}/${caseInsensitive ? 'i' : ''}`, disabled: null, group: i === 0, run: push({ kind: 'pattern', op: a.op, pattern, ignoreCase: caseInsensitive }) }),
    );
  }
  actions.push(
    { id: 'copy-name', label: 'Copy name', disabled: null, group: true, run: () => copyText(name) },
    { id: 'copy-stack', label: 'Copy stack', disabled: noNode, run: () => (node === null ? undefined : copyText(stackText(node))) },
    { id: 'search', label: 'Search for this name', disabled: null, run: () => useStore.getState().setSearchPattern(exactPattern(name)) },
    {
      id: 'callers',
      label: 'Open callers & callees',
      disabled: null,
      run: () => {
        const st = useStore.getState();
        st.selectFunction(name);
        st.setAnalysisPanel('callersCallees');
      },
    },
  );
  return actions;
}

/** Runs the action a key stands for on the target; true when one ran. */
export function runFrameShortcut(key: string, target: FrameTarget): boolean {
  const action = frameActions(target).find((a) => a.shortcut === key);
  if (!action || action.disabled !== null) return false;
  void action.run();
  return true;
}

/** The target for a node of the main graph (null for the root or no node). */
export function frameTargetOf(node: NodeIndex): FrameTarget | null {
  const s = useStore.getState();
  const tree = currentTree(s);
  if (!tree || !s.recordings.a.snapshot || node <= 0 || node >= tree.nodeCount) return null;
  return { name: s.recordings.a.snapshot.frames.strings[s.recordings.a.snapshot.frames.name[tree.frame[node]]], node };
}

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { dumpTree, profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { inlineBackend, type DeriveBackend } from './derive-backend';
import { startDeriveController } from './derive-controller';
import type { FunctionTable } from '../core/views/function-table';
import { currentCallersCallees, currentTable } from '../store/selectors';

// Worked out by hand from the stacks below: self is where samples end, total counts a function
// once per stack (11 samples in all).
const FIGURES = { main: [0, 11], a: [0, 4], b: [6, 11], c: [5, 5], d: [0, 2], sys: [0, 5] };
/** name → [self, total] of every row of a function table. */
function figures(t: FunctionTable): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  for (let r = 0; r < t.count; r++) out[snapshot.frames.strings[t.name[r]]] = [t.selfWeight[r], t.totalWeight[r]];
  return out;
}

const snapshot = makeSnapshot(
  profileFrom(`
    main;a;b;c 3
    main;a;b 1
    main;d;b;c 2
    main;sys_[k];b 5
  `),
);

let stop: () => void = () => {};
let tables = 0;
let recentCallersCallees = 0;
function start() {
  const b = inlineBackend();
  const counting: DeriveBackend = {
    ...b,
    table: (...args) => (tables++, b.table!(...args)),
    callersCallees: (...args) => (recentCallersCallees++, b.callersCallees!(...args)),
  };
  stop = startDeriveController(counting);
}
const idle = () =>
  expect
    .poll(() => {
      const s = useStore.getState();
      return s.deriving || s.analysis.pending;
    })
    .toBe(false);

beforeEach(() => {
  tables = recentCallersCallees = 0;
  useStore.getState().setSyncNodes(0); // every tree goes to the backend
  useStore.setState({ transforms: [], reversed: false, derived: null, deriving: false, timeRange: null });
  useStore.getState().finishLoading(snapshot, 'test', { kind: 'file' });
  useStore.getState().setAnalysisResults({ table: null, callersCalleesTrees: null, pending: false });
});
afterEach(() => {
  stop();
  useStore.getState().setSyncNodes(100_000);
  useStore.getState().setAnalysisPanel('none');
  useStore.getState().selectFunction(null);
});

describe('analysis controller', () => {
  it('asks the backend for the table of the shown tree only while the table panel is open', async () => {
    start();
    expect(currentTable(useStore.getState())).toBeNull();
    expect(tables).toBe(0);
    useStore.getState().setAnalysisPanel('table');
    expect(useStore.getState().analysis.pending).toBe(true);
    await idle();
    const t = currentTable(useStore.getState())!;
    expect(figures(t)).toEqual(FIGURES);
    expect(tables).toBe(1);

    // A derived (reversed) tree: its own table, bottom-up selves; going back costs no round trip.
    useStore.getState().setReversed(true);
    await idle();
    const r = currentTable(useStore.getState())!;
    expect(r).not.toBe(t);
    expect(figures(r)).toEqual(FIGURES);
    expect(tables).toBe(2);
    useStore.getState().setReversed(false);
    await idle();
    expect(currentTable(useStore.getState())).toBe(t);
    expect(tables).toBe(2);
  });

  it('a tree derived while the panel was closed is derived again by the backend, not sent back', async () => {
    start();
    useStore.getState().setReversed(true);
    await idle();
    const s = useStore.getState();
    expect(s.derived?.reversed).toBe(true);
    useStore.getState().setAnalysisPanel('table');
    await idle();
    const t = currentTable(useStore.getState())!;
    expect(figures(t)).toEqual(FIGURES);
    expect(tables).toBe(1);
  });

  it('asks for the callersCallees of the selected function; the latest function wins', async () => {
    start();
    useStore.getState().setAnalysisPanel('callersCallees');
    useStore.getState().selectFunction('a');
    useStore.getState().selectFunction('b');
    await idle();
    const got = currentCallersCallees(useStore.getState())!;
    // b's callees merged over its call sites, and the inverted tree of its callers.
    const callees = profileFrom('b;c 5\nb 6');
    const callers = profileFrom('b;a;main 4\nb;d;main 2\nb;sys_[k];main 5');
    expect(dumpTree(got.callees, snapshot.frames)).toBe(dumpTree(callees.tree, callees.frames));
    expect(dumpTree(got.callers, snapshot.frames)).toBe(dumpTree(callers.tree, callers.frames));
    expect(got.total).toBe(11);
    expect(recentCallersCallees).toBeGreaterThanOrEqual(1);
    expect(useStore.getState().analysis.callersCalleesTrees?.name).toBe('b');

    useStore.getState().selectFunction('no such function');
    await idle();
    expect(currentCallersCallees(useStore.getState())).toBeNull();
  });
});

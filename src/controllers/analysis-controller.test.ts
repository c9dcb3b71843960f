import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSnapshot } from '../core/session/snapshot';
import { dumpTree, profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { inlineBackend, startDeriveController, type DeriveBackend } from './derive-controller';
import { currentSandwich, sandwichOf } from '../render/sandwich-sources';
import { currentTable, setSyncNodes, tableFor } from '../core/query/table-model';

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
let sandwiches = 0;
function start() {
  const b = inlineBackend();
  const counting: DeriveBackend = {
    ...b,
    table: (...args) => (tables++, b.table!(...args)),
    sandwich: (...args) => (sandwiches++, b.sandwich!(...args)),
  };
  stop = startDeriveController(counting);
}
const idle = () =>
  vi.waitFor(() => {
    const s = useStore.getState();
    expect(s.deriving || s.analysis.pending).toBe(false);
  });

beforeEach(() => {
  tables = sandwiches = 0;
  setSyncNodes(0); // every tree goes to the backend
  useStore.setState({ transforms: [], reversed: false, derived: null, deriving: false, timeRange: null });
  useStore.getState().finishLoading(snapshot, 'test', { kind: 'file' });
  useStore.getState().setAnalysisResults({ table: null, sandwichTrees: null, pending: false });
});
afterEach(() => {
  stop();
  setSyncNodes(100_000);
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
    const want = tableFor(snapshot.inline, snapshot.frames);
    expect(Array.from(t.selfWeight.subarray(0, t.count))).toEqual(Array.from(want.selfWeight.subarray(0, want.count)));
    expect(Array.from(t.totalWeight.subarray(0, t.count))).toEqual(Array.from(want.totalWeight.subarray(0, want.count)));
    expect(tables).toBe(1);

    // A derived (reversed) tree: its own table, bottom-up selves; going back costs no round trip.
    useStore.getState().setReversed(true);
    await idle();
    const s = useStore.getState();
    const r = currentTable(s)!;
    const wantR = tableFor(s.derived!.tree, snapshot.frames, true);
    expect(Array.from(r.selfWeight)).toEqual(Array.from(wantR.selfWeight));
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
    expect(Array.from(t.selfWeight)).toEqual(Array.from(tableFor(s.derived!.tree, snapshot.frames, true).selfWeight));
    expect(tables).toBe(1);
  });

  it('asks for the sandwich of the selected function; the latest function wins', async () => {
    start();
    useStore.getState().setAnalysisPanel('sandwich');
    useStore.getState().selectFunction('a');
    useStore.getState().selectFunction('b');
    await idle();
    const got = currentSandwich(useStore.getState())!;
    const want = sandwichOf(snapshot.inline, snapshot.frames, 'b')!;
    expect(dumpTree(got.callees, snapshot.frames)).toBe(dumpTree(want.callees, snapshot.frames));
    expect(dumpTree(got.callers, snapshot.frames)).toBe(dumpTree(want.callers, snapshot.frames));
    expect(got.total).toBe(11);
    expect(useStore.getState().analysis.sandwichTrees?.name).toBe('b');

    useStore.getState().selectFunction('no such function');
    await idle();
    expect(currentSandwich(useStore.getState())).toBeNull();
  });
});

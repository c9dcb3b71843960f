import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { findChild } from '../core/model/call-tree';
import { makeSnapshot } from '../core/views/snapshot';
import { dumpTree, profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { useLinkNotices } from './url-sync';
import { inlineBackend, type DeriveBackend } from './derive-backend';
import { startDeriveController } from './derive-controller';

const snapshot = makeSnapshot(
  profileFrom(`
    main;a;b;c 3
    main;a;b 1
    main;d;b;c 2
    main;sys_[k];b 5
  `),
);
const frameOf = (name: string) => snapshot.frames.name.findIndex((s) => snapshot.frames.strings[s] === name);
const at = (names: string[]) => names.reduce((n, name) => (n < 0 ? -1 : findChild(currentTree(useStore.getState())!, n, frameOf(name))), 0);
const idle = () => expect.poll(() => useStore.getState().deriving).toBe(false);

let stop: () => void = () => {};
let calls = 0;
function start(backend: DeriveBackend = inlineBackend()) {
  const counting: DeriveBackend = { ...backend, derive: (...args) => (calls++, backend.derive(...args)) };
  stop = startDeriveController(counting);
}

beforeEach(() => {
  calls = 0;
  useStore.setState({ transforms: [], reversed: false, derived: null, deriving: false, timeRange: null });
  useStore.getState().finishLoading(snapshot, 'test', { kind: 'file' });
});
afterEach(() => stop());

describe('derive controller', () => {
  it('derives on a pushed transform, keeps the previous tree meanwhile, and maps the selection', async () => {
    start();
    const base = currentTree(useStore.getState());
    useStore.getState().select(at(['main', 'a', 'b', 'c']));
    useStore.getState().pushTransform({ kind: 'focus', name: 'b' });
    expect(useStore.getState().deriving).toBe(true);
    expect(currentTree(useStore.getState())).toBe(base);
    await idle();
    const s = useStore.getState();
    expect(dumpTree(currentTree(s)!, snapshot.frames)).toBe(['b 11/6', '  c 5/5'].join('\n'));
    expect(s.panes.main.selectedNode).toBe(at(['b', 'c']));

    // Undo: back to the base tree, the selection through its heaviest call site.
    s.popTransforms(0);
    await idle();
    expect(useStore.getState().derived).toBeNull();
    expect(currentTree(useStore.getState())).toBe(snapshot.inline);
    expect(useStore.getState().panes.main.selectedNode).toBe(at(['main', 'a', 'b', 'c']));
  });

  it('the latest request wins', async () => {
    start();
    useStore.getState().pushTransform({ kind: 'focus', name: 'b' });
    useStore.getState().pushTransform({ kind: 'hide', what: 'kernel' });
    useStore.getState().setReversed(true);
    await idle();
    const s = useStore.getState();
    expect(s.derived?.reversed).toBe(true);
    expect(s.derived?.transforms).toHaveLength(2);
    expect(dumpTree(currentTree(s)!, snapshot.frames).split('\n')[0]).toBe('b 6/6');
  });

  it('an identity request needs no round trip', async () => {
    start();
    useStore.getState().setTransforms([]);
    useStore.getState().setReversed(false);
    await Promise.resolve();
    expect(calls).toBe(0);
    expect(useStore.getState().deriving).toBe(false);
  });

  it('a parked zoom (a link) resolves once the derived tree is shown', async () => {
    start();
    useStore.getState().pushTransform({ kind: 'focus', name: 'b' });
    const run = vi.fn(() => useStore.getState().zoomTo(1));
    useStore.getState().parkZoom({ path: [], run });
    await idle();
    expect(run).toHaveBeenCalledTimes(1);
    expect(useStore.getState().panes.main.zoomNode).toBe(1);
  });

  it('a failed derivation clears the busy flag and keeps the tree', async () => {
    const failing: DeriveBackend = { setBase: () => {}, derive: () => Promise.reject(new Error('boom')) };
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    start(failing);
    useStore.getState().pushTransform({ kind: 'hide', what: 'kernel' });
    await idle();
    expect(currentTree(useStore.getState())).toBe(snapshot.inline);
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });

  it('a failed derivation says why and undoes the step that failed', async () => {
    const failing: DeriveBackend = { setBase: () => {}, derive: () => Promise.reject(new Error('The reversed view of this profile would have more than 8,000,000 frames')) };
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    useLinkNotices.setState({ notices: [] });
    start(failing);
    useStore.getState().setReversed(true);
    await expect.poll(() => useStore.getState().reversed).toBe(false);
    expect(useLinkNotices.getState().notices.map((n) => n.text)).toEqual([
      'This view could not be computed: The reversed view of this profile would have more than 8,000,000 frames',
    ]);
    useStore.getState().pushTransform({ kind: 'hide', what: 'kernel' });
    await expect.poll(() => useStore.getState().transforms).toEqual([]);
    error.mockRestore();
  });
});

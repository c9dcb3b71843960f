import { beforeEach, describe, expect, it } from 'vitest';
import { findChild } from '../core/model/call-tree';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { frameActions, frameTargetOf, runFrameShortcut, stackText } from './frame-actions';
import { handleFlameKey } from './keyboard';

const snapshot = makeSnapshot(
  profileFrom(`
    main⟨/bin/app⟩;std::sort⟨/usr/lib/libstdc++.so.6⟩;std::swap_[i];cmp⟨/bin/app⟩ 3
    main⟨/bin/app⟩;visit⟨/bin/app⟩;walk⟨/bin/app⟩;visit⟨/bin/app⟩ 2
  `),
);
const frameOf = (name: string) => snapshot.frames.name.findIndex((s) => snapshot.frames.strings[s] === name);
const at = (names: string[]) => names.reduce((n, name) => (n < 0 ? -1 : findChild(currentTree(useStore.getState())!, n, frameOf(name))), 0);

beforeEach(() => {
  useStore.setState({ view: 'functions', transforms: [], reversed: false, derived: null, deriving: false, timeRange: null });
  useStore.getState().finishLoading(snapshot, 'test', { kind: 'file' });
});

describe('frame actions', () => {
  it('one shortcut per action, the letters of the Firefox Profiler; library and namespace of the frame', () => {
    useStore.setState({ view: 'inline' });
    const swap = frameTargetOf(at(['main', 'std::sort', 'std::swap']))!;
    expect(swap.name).toBe('std::swap');
    const actions = frameActions(swap);
    const keys = actions.flatMap((a) => (a.shortcut ? [a.shortcut] : []));
    expect(keys).toEqual(['f', 'F', 'g', 'm', 'd', 'c', 'C', 'r', 'R']);
    // an inlined frame belongs to the library of the function it is inlined into
    expect(actions.map((a) => a.label)).toContain('Collapse library libstdc++.so.6');
    expect(actions.map((a) => a.label)).toContain('Collapse namespace std::');
    expect(actions.every((a) => a.disabled === null)).toBe(true);
    // a function (a table row) has no call path
    const row = frameActions({ name: 'visit', node: null });
    expect(row.find((a) => a.id === 'subtree')!.disabled).toMatch(/call path/);
    expect(row.find((a) => a.id === 'copy-stack')!.disabled).not.toBeNull();
    expect(row.find((a) => a.id === 'focus-lib')!.label).toBe('Focus on library app');
    expect(row.some((a) => a.id === 'focus-ns')).toBe(false);
  });

  it('letters push their transform; the stack is copied innermost first', () => {
    const node = at(['main', 'visit', 'walk', 'visit']);
    expect(stackText(node)).toBe('visit\nwalk\nvisit\nmain');
    expect(runFrameShortcut('r', frameTargetOf(node)!)).toBe(true);
    expect(useStore.getState().transforms).toEqual([{ kind: 'rec', name: 'visit' }]);
    expect(runFrameShortcut('x', frameTargetOf(node)!)).toBe(false);
    expect(runFrameShortcut('f', { name: 'visit', node: null })).toBe(false);
    useStore.getState().select(node);
    expect(handleFlameKey('f')).toBe(true);
    expect(useStore.getState().transforms.at(-1)).toEqual({
      kind: 'subtree',
      path: ['main', 'visit', 'walk', 'visit'].map((name) => ({ name, inlined: false })),
    });
    expect(handleFlameKey('R')).toBe(true);
    expect(useStore.getState().transforms.at(-1)).toEqual({ kind: 'direct-rec', name: 'visit' });
  });
});

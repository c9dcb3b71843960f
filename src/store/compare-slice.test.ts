import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from './store';

const initial = useStore.getState();
const A = makeSnapshot(profileFrom('main;parse;lex 4\nmain;emit 4'));
const B = makeSnapshot(profileFrom('main;parse;lex 4\nmain;optimize;fold 8\nmain;emit 2'));

beforeEach(() => useStore.setState(initial, true));

describe('compare slice', () => {
  it('loads a comparison without touching the baseline, and a failure keeps both', () => {
    const s = useStore.getState();
    s.finishLoading(A, 'a.txt', { kind: 'file' });
    s.startLoading('b.txt', 10, 'B');
    s.loadProgress(5, 3, 'B');
    expect(useStore.getState().compare.loading).toMatchObject({ bytesRead: 5, samples: 3 });
    s.finishCompare(B, 'b.txt', null);
    s.startLoading('c.txt', null, 'B');
    s.failLoading('Comparison (c.txt): not a recording', 'B');
    const after = useStore.getState();
    expect(after.snapshot).toBe(A);
    expect(after.compare.snapshot).toBe(B);
    expect(after.compare.error).toMatch(/not a recording/);
    expect(after.error).toBeNull();
    s.dismissError('B');
    expect(useStore.getState().compare.error).toBeNull();
  });

  it('close keeps the chosen mode and normalisation', () => {
    const s = useStore.getState();
    s.finishLoading(A, 'a.txt', { kind: 'file' });
    s.finishCompare(B, 'b.txt', 'b.txt');
    s.setCompareMode('diff');
    s.setCompareNorm('abs');
    s.closeCompare();
    expect(useStore.getState().compare).toMatchObject({ snapshot: null, mode: 'diff', norm: 'abs' });
  });
});

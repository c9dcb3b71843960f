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
    s.startLoading('b.txt', 10, 'b');
    s.loadProgress(5, 3, 'b');
    expect(useStore.getState().recordings.b.loading).toMatchObject({ bytesRead: 5, samples: 3 });
    s.finishCompare(B, 'b.txt', null);
    s.startLoading('c.txt', null, 'b');
    s.failLoading('Comparison (c.txt): not a recording', 'b');
    const after = useStore.getState();
    expect(after.recordings.a.snapshot).toBe(A);
    expect(after.recordings.b.snapshot).toBe(B);
    expect(after.recordings.b.error).toMatch(/not a recording/);
    expect(after.recordings.a.error).toBeNull();
    s.dismissError('b');
    expect(useStore.getState().recordings.b.error).toBeNull();
  });

  it('close keeps the chosen mode and normalisation', () => {
    const s = useStore.getState();
    s.finishLoading(A, 'a.txt', { kind: 'file' });
    s.finishCompare(B, 'b.txt', 'b.txt');
    s.setCompareMode('diff');
    s.setCompareNorm('abs');
    s.closeCompare();
    expect(useStore.getState().recordings.b.snapshot).toBeNull();
    expect(useStore.getState().compare).toMatchObject({ mode: 'diff', norm: 'abs' });
  });
});

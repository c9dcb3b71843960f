import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { openCompareUrl, openUrl } from './recordings';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

// Both loaders answer through one sink (recordings.ts, sinkOf); a URL refused before any worker
// starts shows where each slot's answers go and how they are worded.
describe('the recordings’ one load sink', () => {
  it('puts A’s failure in A and B’s in B, worded for the comparison, each keeping what is open', async () => {
    const A = makeSnapshot(profileFrom('main;a 3'));
    useStore.getState().finishLoading(A, 'a.txt', { kind: 'file' });
    await openCompareUrl('ftp://example.com/b.txt', 'http://h/');
    let s = useStore.getState();
    expect(s.recordings.b.error).toMatch(/^Comparison: .*ftp/);
    expect(s.recordings.a.error).toBeNull();
    expect(s.recordings.a.snapshot).toBe(A);
    await openUrl('ftp://example.com/c.txt', 'http://h/');
    s = useStore.getState();
    expect(s.recordings.a.error).not.toMatch(/^Comparison/);
    expect(s.recordings.a.error).toMatch(/ftp/);
    expect(s.recordings.a.snapshot).toBe(A);
    s.dismissError('b');
    expect(useStore.getState().recordings.b.error).toBeNull();
    expect(useStore.getState().recordings.a.error).not.toBeNull();
  });
});

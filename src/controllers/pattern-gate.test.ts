// The derive controller runs a pattern transform only once the search worker has matched the
// pattern in time (pattern-gate.ts): the search box's own pattern at once, a link's after a try,
// and a pattern that times out there is removed with a notice, never sent to the analysis worker.

import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InlineSearchWorker } from '../core/testing/inline-search-worker';
import { dumpTree, profileFrom } from '../core/testing/tree-dsl';
import { makeSnapshot } from '../core/views/snapshot';
import type { DeriveRequest } from '../core/views/derive';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { inlineBackend, type DeriveBackend } from './derive-backend';
import { startDeriveController } from './derive-controller';
import { PatternGate } from './pattern-gate';
import { SearchClient } from './search-client';
import { useLinkNotices } from './url-sync';

const snapshot = makeSnapshot(
  profileFrom(`
    main;std::sort;std::less 3
    main;run;aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!;leaf 2
  `),
);

let stop: () => void = () => {};
let tried: string[] = [];
let sent: DeriveRequest[] = [];
function start() {
  const backend = inlineBackend();
  const counting: DeriveBackend = { ...backend, derive: (id, seq, request, keep) => (sent.push(request), backend.derive(id, seq, request, keep)) };
  const makeWorker = () =>
    new InlineSearchWorker((pattern) => {
      tried.push(pattern);
      return pattern.includes('+)+');
    });
  stop = startDeriveController(counting, new PatternGate(() => new SearchClient(makeWorker, 50)));
}

const idle = () => expect.poll(() => useStore.getState().deriving).toBe(false);

beforeEach(() => {
  tried = [];
  sent = [];
  useLinkNotices.setState({ notices: [] });
  useStore.setState({ transforms: [], reversed: false, derived: null, deriving: false, timeRange: null });
  useStore.getState().finishLoading(snapshot, 'test', { kind: 'file' });
});
afterEach(() => stop());

describe('the pattern gate', () => {
  it("the search box's pattern, once its search is done, derives at once", async () => {
    start();
    useStore.setState((s) => ({ search: { ...s.search, pattern: '^std::', caseInsensitive: false, status: 'done', matches: new Uint8Array(snapshot.frames.count), error: null } }));
    useStore.getState().pushTransform({ kind: 'pattern', op: 'merge', pattern: '^std::', ignoreCase: false });
    await idle();
    expect(tried).toEqual([]);
    expect(dumpTree(currentTree(useStore.getState())!, snapshot.frames)).not.toContain('std::');
  });

  it("another pattern (a link's) is tried in the search worker first, then derived", async () => {
    start();
    useStore.getState().setTransforms([{ kind: 'pattern', op: 'focus', pattern: '^run$', ignoreCase: false }]);
    await idle();
    expect(tried).toEqual(['^$', '^run$']); // the worker started by a trivial pattern, then the link's
    expect(sent.map((r) => r.transforms.length)).toEqual([1]);
    expect(dumpTree(currentTree(useStore.getState())!, snapshot.frames).split('\n')[0]).toBe('run 2/0');
  });

  it('a pattern that times out in the search worker is removed with a notice and never derived', async () => {
    start();
    useStore.getState().setTransforms([
      { kind: 'drop', name: 'leaf' },
      { kind: 'pattern', op: 'drop', pattern: '(a+)+!', ignoreCase: false },
    ]);
    await expect.poll(() => useStore.getState().transforms).toEqual([{ kind: 'drop', name: 'leaf' }]);
    await idle();
    expect(sent.every((r) => r.transforms.every((t) => t.kind !== 'pattern'))).toBe(true);
    const notices = JSON.stringify(useLinkNotices.getState());
    expect(notices).toContain('The pattern /(a+)+!/ took longer than 1.5 s');
  });
});

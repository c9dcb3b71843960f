import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { InlineSearchWorker as InlineWorker } from '../core/testing/inline-search-worker';
import type { SearchWorker } from '../core/query/search-protocol';
import { SearchClient } from './search-client';
import { startSearchController } from './search-controller';

const initial = useStore.getState();
let stop: () => void = () => {};
beforeEach(() => useStore.setState(initial, true));
afterEach(() => stop());

/** Waits until the store's search state passes `check` (no fixed sleeps; vi.waitFor's 1 s default is short on a loaded machine). */
const until = (check: () => void) => vi.waitFor(check, { timeout: 30_000, interval: 1 });

describe('search controller', () => {
  it('searches the open recording when the pattern changes and clears on empty', async () => {
    const snap = makeSnapshot(profileFrom('main;parse;lex 3\nmain;emit 2'));
    useStore.getState().finishLoading(snap, 'x', { kind: 'file' });
    stop = startSearchController(new SearchClient(() => new InlineWorker(), 500));
    useStore.getState().setSearchPattern('^(lex|emit)$');
    await until(() => expect(useStore.getState().search.status).toBe('done'));
    const { search } = useStore.getState();
    const hits = [...search.matches!].flatMap((m, f) => (m ? [snap.frames.strings[snap.frames.name[f]]] : []));
    expect(hits.sort()).toEqual(['emit', 'lex']);
    useStore.getState().setSearchPattern('');
    await until(() => expect(useStore.getState().search).toMatchObject({ matches: null, status: 'idle' }));
  });

  it('keeps the pattern across a new recording and searches it again', async () => {
    stop = startSearchController(new SearchClient(() => new InlineWorker(), 500));
    useStore.getState().setSearchPattern('b');
    useStore.getState().finishLoading(makeSnapshot(profileFrom('a;b 1')), 'x', { kind: 'file' });
    await until(() => expect(useStore.getState().search.matches).toEqual(new Uint8Array([0, 1])));
    useStore.getState().finishLoading(makeSnapshot(profileFrom('b;c;b 1')), 'y', { kind: 'file' });
    await until(() => expect(useStore.getState().search.matches).toEqual(new Uint8Array([1, 0])));
  });

  it("searches the comparison's recording in its own worker, and reports its timeout as for the open one", async () => {
    useStore.getState().finishLoading(makeSnapshot(profileFrom('a;b 1')), 'a', { kind: 'file' });
    useStore.getState().finishCompare(makeSnapshot(profileFrom('x;b;aaaa 1')), 'b', 'b');
    let compareWorkers = 0;
    // B's worker never answers a pattern with "+)+" (as a catastrophic regex would not).
    const stuckOnCatastrophic = (): SearchWorker => {
      const inner = new InlineWorker();
      const match = (pattern: string, flags: string) => (pattern.includes('+)+') ? new Promise<Uint8Array>(() => {}) : inner.api.match(pattern, flags));
      return { api: { setNames: inner.api.setNames, match }, terminate: () => inner.terminate() };
    };
    const compareClient = new SearchClient(() => (compareWorkers++, stuckOnCatastrophic()), 50);
    stop = startSearchController(new SearchClient(() => new InlineWorker(), 500), compareClient);
    useStore.getState().setSearchPattern('^b$');
    await until(() => expect(useStore.getState().search.compare).toEqual({ matches: new Uint8Array([0, 1, 0]), status: 'done' }));
    expect(useStore.getState().search.matches).toEqual(new Uint8Array([0, 1]));
    useStore.getState().setSearchPattern('(a+)+$');
    await until(() => expect(useStore.getState().search.compare).toEqual({ matches: null, status: 'timeout' }));
    expect(compareWorkers).toBeGreaterThan(0);
    // A new comparison is searched again with the pattern in force.
    useStore.getState().setSearchPattern('aaaa');
    useStore.getState().finishCompare(makeSnapshot(profileFrom('aaaa 2')), 'c', 'c');
    await until(() => expect(useStore.getState().search.compare).toEqual({ matches: new Uint8Array([1]), status: 'done' }));
    // Closing the comparison leaves nothing to search there.
    useStore.getState().setSearchPattern('');
    await until(() => expect(useStore.getState().search.compare).toEqual({ matches: null, status: 'idle' }));
  });
});

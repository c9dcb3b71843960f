import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/session/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from '../store/store';
import { matchNames } from '../core/query/match-names';
import type { SearchRequest, SearchResponse } from '../core/query/search-protocol';
import { SearchClient, type WorkerLike } from './search-client';
import { startSearchController } from './search-controller';

class InlineWorker implements WorkerLike {
  onmessage: ((event: MessageEvent<SearchResponse>) => void) | null = null;
  private strings: string[] = [];
  private name: Int32Array = new Int32Array(0);
  postMessage(msg: SearchRequest): void {
    if (msg.type === 'names') {
      this.strings = msg.strings.split('\0');
      this.name = msg.name;
    } else {
      const matches = matchNames(this.strings, this.name, new RegExp(msg.pattern, msg.flags));
      queueMicrotask(() => this.onmessage?.({ data: { id: msg.id, matches } } as MessageEvent<SearchResponse>));
    }
  }
  terminate(): void {}
}

const initial = useStore.getState();
let stop: () => void = () => {};
beforeEach(() => useStore.setState(initial, true));
afterEach(() => stop());

const settle = () => new Promise((r) => setTimeout(r, 10));

describe('search controller', () => {
  it('searches the open recording when the pattern changes and clears on empty', async () => {
    const snap = makeSnapshot(profileFrom('main;parse;lex 3\nmain;emit 2'));
    useStore.getState().finishLoading(snap, 'x', { kind: 'file' });
    stop = startSearchController(new SearchClient(() => new InlineWorker(), 500));
    useStore.getState().setSearchPattern('^(lex|emit)$');
    await settle();
    const { search } = useStore.getState();
    expect(search.status).toBe('done');
    const hits = [...search.matches!].flatMap((m, f) => (m ? [snap.frames.strings[snap.frames.name[f]]] : []));
    expect(hits.sort()).toEqual(['emit', 'lex']);
    useStore.getState().setSearchPattern('');
    await settle();
    expect(useStore.getState().search).toMatchObject({ matches: null, status: 'idle' });
  });

  it('keeps the pattern across a new recording and searches it again', async () => {
    stop = startSearchController(new SearchClient(() => new InlineWorker(), 500));
    useStore.getState().setSearchPattern('b');
    useStore.getState().finishLoading(makeSnapshot(profileFrom('a;b 1')), 'x', { kind: 'file' });
    await settle();
    expect(useStore.getState().search.matches).toEqual(new Uint8Array([0, 1]));
    useStore.getState().finishLoading(makeSnapshot(profileFrom('b;c;b 1')), 'y', { kind: 'file' });
    await settle();
    expect(useStore.getState().search.matches).toEqual(new Uint8Array([1, 0]));
  });
});

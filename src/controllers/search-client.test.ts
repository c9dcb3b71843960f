import { describe, expect, it } from 'vitest';
import { matchNames } from '../core/model/match-names';
import type { SearchWorker } from '../core/query/search-protocol';
import { unpackStrings } from '../core/util/wire';
import { SearchClient } from './search-client';

/** A worker that answers 5 ms later, or never for patterns containing "+)+". */
class FakeWorker implements SearchWorker {
  static created = 0;
  static terminated = 0;
  private strings: readonly string[] = [];
  private name: Int32Array = new Int32Array(0);
  readonly api = {
    setNames: (strings: string, name: Int32Array) => {
      this.strings = unpackStrings(strings);
      this.name = name;
    },
    match: (pattern: string, flags: string) =>
      new Promise<Uint8Array>((resolve) => {
        if (pattern.includes('+)+')) return; // "catastrophic": never answers
        const matches = matchNames(this.strings, this.name, new RegExp(pattern, flags));
        setTimeout(() => resolve(matches), 5);
      }),
  };
  constructor() {
    FakeWorker.created++;
  }
  terminate(): void {
    FakeWorker.terminated++;
  }
}

describe('SearchClient', () => {
  it('matches names off the main thread and returns one flag per frame', async () => {
    const client = new SearchClient(() => new FakeWorker(), 200);
    client.setNames(['main', 'parse', 'Lex'], new Int32Array([0, 1, 2, 1]));
    const outcome = await client.search('^(parse|lex)$', true);
    expect(outcome).toEqual({ kind: 'done', matches: new Uint8Array([0, 1, 1, 1]) });
    client.dispose();
  });

  it('times out a stuck search by terminating the worker, then works again', async () => {
    FakeWorker.created = FakeWorker.terminated = 0;
    const client = new SearchClient(() => new FakeWorker(), 50);
    client.setNames(['aaaa'], new Int32Array([0]));
    expect(await client.search('(a+)+$', false)).toEqual({ kind: 'timeout' });
    expect(FakeWorker.terminated).toBe(1);
    expect(await client.search('a', false)).toEqual({ kind: 'done', matches: new Uint8Array([1]) });
    expect(FakeWorker.created).toBe(2);
    client.dispose();
  });

  it('counts only the matching against the timeout: a worker slow to start and take the names is not a timeout', async () => {
    // setNames answers 120 ms after the worker is made, as a fresh worker on a loaded machine; the
    // timeout is 50 ms. Counting the start too would call the plain pattern catastrophic.
    const slow = () => {
      const w = new FakeWorker();
      const setNames = w.api.setNames;
      w.api.setNames = ((strings: string, name: Int32Array) => new Promise<void>((r) => setTimeout(() => r(setNames(strings, name)), 120))) as typeof w.api.setNames;
      return w;
    };
    const client = new SearchClient(slow, 50);
    client.setNames(['main', 'parse'], new Int32Array([0, 1]));
    expect(await client.search('parse', false)).toEqual({ kind: 'done', matches: new Uint8Array([0, 1]) });
    client.dispose();
  });

  it('a worker that never starts fails the search after its own bound, and the next search starts a fresh one', async () => {
    FakeWorker.created = FakeWorker.terminated = 0;
    let first = true;
    const make = () => {
      const w = new FakeWorker();
      if (first) w.api.setNames = (() => new Promise<void>(() => {})) as typeof w.api.setNames;
      first = false;
      return w;
    };
    const client = new SearchClient(make, 50, 100);
    client.setNames(['a'], new Int32Array([0]));
    expect(await client.search('a', false)).toEqual({ kind: 'error', message: 'the search worker did not start' });
    expect(FakeWorker.terminated).toBe(1);
    expect(await client.search('a', false)).toEqual({ kind: 'done', matches: new Uint8Array([1]) });
    expect(FakeWorker.created).toBe(2);
    client.dispose();
  });

  it('lets the latest request win', async () => {
    const client = new SearchClient(() => new FakeWorker(), 200);
    client.setNames(['x', 'y'], new Int32Array([0, 1]));
    const first = client.search('x', false);
    const second = client.search('y', false);
    expect(await first).toEqual({ kind: 'cancelled' });
    expect(await second).toEqual({ kind: 'done', matches: new Uint8Array([0, 1]) });
    client.dispose();
  });

  it('reports an invalid pattern as an error, not a hang', async () => {
    const client = new SearchClient(() => new FakeWorker(), 200);
    client.setNames(['x'], new Int32Array([0]));
    const outcome = await client.search('(', false);
    expect(outcome.kind).toBe('error');
    client.dispose();
  });
});

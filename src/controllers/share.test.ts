import { beforeEach, describe, expect, it, vi } from 'vitest';

const bytes = vi.hoisted(() => ({
  a: null as { body: string; name: string } | null,
  b: null as { body: string; name: string } | null,
  requested: null as string | null,
  adopted: [] as string[],
}));

vi.mock('./recordings', () => ({
  openedBytes: () => bytes.a,
  compareOpenedBytes: () => bytes.b,
  requestedCompareUrl: () => bytes.requested,
  adoptCompareUrl: (url: string) => {
    bytes.adopted.push(url);
    bytes.requested = url;
  },
}));

// The processed form of each open recording, as the export worker makes it: here its raw body, marked.
const SNAP_A = vi.hoisted(() => ({ pane: 'A' }));
const SNAP_B = vi.hoisted(() => ({ pane: 'B' }));
vi.mock('./recording-file', () => ({
  recordingBlob: async (snapshot: unknown) => `P:${(snapshot === SNAP_A ? bytes.a : bytes.b)!.body}`,
}));

import { rebaseUrl, shareRecordings, storedBytesPath, withHashParam } from './share';
import { useStore } from '../store/store';
import type { ProfileSnapshot } from '../core/views/snapshot';

const ID_A = 'a'.repeat(64);
const ID_B = 'b'.repeat(64);

/** Just enough of a window: a location that replaceState moves, and a base URI. */
function fakeWindow(href: string) {
  let url = new URL(href);
  const win = {
    get location() {
      return { origin: url.origin, pathname: url.pathname, search: url.search, hash: url.hash, href: url.href };
    },
    get document() {
      return { baseURI: url.href };
    },
    history: {
      state: null,
      replaceState: (_s: unknown, _t: string, next: string) => {
        url = new URL(next, url);
      },
    },
  };
  return win as unknown as Window;
}

type Answer = { status: number; body: unknown };

/** fetch that answers each upload by its body, after `release()` (so both are in flight at once). */
function stubFetch(answers: Record<string, Answer>) {
  const calls: { url: string; name: string | null; body: string }[] = [];
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    const body = String(init.body);
    calls.push({ url, name: (init.headers as Record<string, string>)['x-filename'] ?? null, body });
    await gate;
    const a = answers[body];
    if (!a) throw new TypeError('Failed to fetch');
    return new Response(JSON.stringify(a.body), { status: a.status, headers: { 'content-type': 'application/json' } });
  });
  return { calls, release };
}

beforeEach(() => {
  bytes.a = null;
  bytes.b = null;
  bytes.requested = null;
  bytes.adopted = [];
  vi.unstubAllGlobals();
  const s = useStore.getState();
  useStore.setState({ recordings: { a: { ...s.recordings.a, snapshot: SNAP_A as unknown as ProfileSnapshot }, b: { ...s.recordings.b, snapshot: SNAP_B as unknown as ProfileSnapshot } } });
});

describe('shareRecordings', () => {
  it('uploads both recordings in parallel and links /p/<A> with compare= naming the stored bytes of B', async () => {
    bytes.a = { body: 'A-bytes', name: 'a.txt' };
    bytes.b = { body: 'B-bytes', name: 'b.txt' };
    const f = stubFetch({ 'P:A-bytes': { status: 201, body: { id: ID_A, url: `/p/${ID_A}` } }, 'P:B-bytes': { status: 201, body: { id: ID_B, url: `/p/${ID_B}` } } });
    const win = fakeWindow('http://h:1/#v=1&view=inline&mode=diff');
    const pending = shareRecordings({ baseline: true, comparison: true }, win);
    await expect.poll(() => f.calls).toHaveLength(2);
    f.release();
    const r = await pending;
    expect(f.calls.map((c) => [c.url, c.name])).toEqual([
      ['http://h:1/api/profiles', 'a.txt.flameview'],
      ['http://h:1/api/profiles', 'b.txt.flameview'],
    ]);
    expect(r).toEqual({ ok: true, url: `http://h:1/p/${ID_A}#v=1&view=inline&mode=diff&compare=%2Fapi%2Fprofiles%2F${ID_B}`, uploaded: { baseline: true, comparison: true, original: false } });
    expect(f.calls.map((c) => c.body)).toEqual(['P:A-bytes', 'P:B-bytes']);
    expect(bytes.adopted).toEqual([`/api/profiles/${ID_B}`]);
  });

  it('links nothing when either upload fails, and says which', async () => {
    bytes.a = { body: 'A-bytes', name: 'a.txt' };
    bytes.b = { body: 'B-bytes', name: 'b.txt' };
    const f = stubFetch({ 'P:A-bytes': { status: 201, body: { id: ID_A, url: `/p/${ID_A}` } }, 'P:B-bytes': { status: 415, body: { error: 'not a recording flameview reads' } } });
    f.release();
    const win = fakeWindow('http://h/#view=inline');
    const r = await shareRecordings({ baseline: true, comparison: true }, win);
    expect(r).toEqual({ ok: false, message: 'the comparison (b.txt): the server refused it (415): not a recording flameview reads; nothing was linked' });
    expect(win.location.href).toBe('http://h/#view=inline');
    expect(bytes.adopted).toEqual([]);

    const g = stubFetch({});
    g.release();
    const both = await shareRecordings({ baseline: true, comparison: true }, win);
    expect(both.ok).toBe(false);
    expect(!both.ok && both.message).toMatch(/^the baseline \(a\.txt\): the upload failed: .*; the comparison \(b\.txt\): the upload failed/);
    expect(win.location.href).toBe('http://h/#view=inline');
  });

  it('a server answer without a link is a failure, not a half link', async () => {
    bytes.b = { body: 'B-bytes', name: 'b.txt' };
    stubFetch({ 'P:B-bytes': { status: 201, body: { id: 'x' } } }).release();
    const win = fakeWindow(`http://h/p/${ID_A}#view=inline`);
    expect(await shareRecordings({ baseline: false, comparison: true }, win)).toEqual({ ok: false, message: 'the comparison: the server gave no link for the upload' });
    expect(win.location.href).toBe(`http://h/p/${ID_A}#view=inline`);
  });

  it('with the baseline already linked, uploads only the comparison and keeps the page', async () => {
    bytes.b = { body: 'B-bytes', name: 'b.txt' };
    const f = stubFetch({ 'P:B-bytes': { status: 200, body: { id: ID_B, url: `/p/${ID_B}` } } });
    f.release();
    const win = fakeWindow(`http://h/base/p/${ID_A}#zoom=main`);
    const r = await shareRecordings({ baseline: false, comparison: true }, win);
    expect(f.calls.map((c) => c.url)).toEqual(['http://h/base/api/profiles']);
    expect(r.ok && r.url).toBe(`http://h/base/p/${ID_A}#zoom=main&compare=%2Fbase%2Fapi%2Fprofiles%2F${ID_B}`);
  });

  it('a comparison from a relative URL still resolves once the page moves to /p/<id>', async () => {
    bytes.a = { body: 'A-bytes', name: 'a.txt' };
    bytes.requested = 'data/b.txt';
    stubFetch({ 'P:A-bytes': { status: 201, body: { id: ID_A, url: `/p/${ID_A}` } } }).release();
    const win = fakeWindow('http://h/app/#compare=data%2Fb.txt&norm=abs');
    const r = await shareRecordings({ baseline: true, comparison: false }, win);
    expect(r.ok && r.url).toBe(`http://h/p/${ID_A}#compare=%2Fapp%2Fdata%2Fb.txt&norm=abs`);
    expect(bytes.adopted).toEqual(['/app/data/b.txt']);
  });
});

describe('shareRecordings with keepOriginal', () => {
  const ID_O = 'c'.repeat(64);

  it('uploads the processed form and the original in parallel, and links the original as original=', async () => {
    bytes.a = { body: 'A-bytes', name: 'a.txt' };
    const f = stubFetch({ 'P:A-bytes': { status: 201, body: { id: ID_A, url: `/p/${ID_A}` } }, 'A-bytes': { status: 201, body: { id: ID_O, url: `/p/${ID_O}` } } });
    const win = fakeWindow('http://h/#view=inline&original=%2Fapi%2Fprofiles%2Fold');
    const pending = shareRecordings({ baseline: true, comparison: false, keepOriginal: true }, win);
    await expect.poll(() => f.calls).toHaveLength(2);
    f.release();
    const r = await pending;
    expect(f.calls.map((c) => [c.name, c.body]).sort()).toEqual([
      ['a.txt', 'A-bytes'],
      ['a.txt.flameview', 'P:A-bytes'],
    ]);
    expect(r).toEqual({ ok: true, url: `http://h/p/${ID_A}#view=inline&original=%2Fapi%2Fprofiles%2F${ID_O}`, uploaded: { baseline: true, comparison: false, original: true } });
  });

  it('without it, a new baseline drops the original= an earlier Share wrote; a failed original links nothing', async () => {
    bytes.a = { body: 'A-bytes', name: 'a.txt' };
    stubFetch({ 'P:A-bytes': { status: 201, body: { id: ID_A, url: `/p/${ID_A}` } } }).release();
    const win = fakeWindow('http://h/#view=inline&original=%2Fapi%2Fprofiles%2Fold');
    const r = await shareRecordings({ baseline: true, comparison: false }, win);
    expect(r.ok && r.url).toBe(`http://h/p/${ID_A}#view=inline`);

    const other = fakeWindow('http://h/#view=inline');
    stubFetch({ 'P:A-bytes': { status: 201, body: { id: ID_A, url: `/p/${ID_A}` } }, 'A-bytes': { status: 413, body: { error: 'too large' } } }).release();
    const failed = await shareRecordings({ baseline: true, comparison: false, keepOriginal: true }, other);
    expect(failed).toEqual({ ok: false, message: 'the original recording (a.txt): the server refused it (413): too large' });
    expect(other.location.href).toBe('http://h/#view=inline');
  });
});

describe('link helpers', () => {
  it('withHashParam sets, replaces in place and removes one parameter, keeping the others byte for byte', () => {
    expect(withHashParam('', 'compare', 'x')).toBe('#compare=x');
    expect(withHashParam('#a=1&compare=old&zoom=a;b%20c', 'compare', 'new')).toBe('#a=1&compare=new&zoom=a;b%20c');
    expect(withHashParam('#a=1&compare=old', 'compare', null)).toBe('#a=1');
    expect(withHashParam('#compare=old', 'compare', null)).toBe('');
    expect(withHashParam('#comparex=1', 'compare', 'y')).toBe('#comparex=1&compare=y');
  });

  it('storedBytesPath is the API path of an id from the server root, with any prefix', () => {
    expect(storedBytesPath({ origin: 'http://h', pathname: '/' }, ID_B)).toBe(`/api/profiles/${ID_B}`);
    expect(storedBytesPath({ origin: 'http://h', pathname: `/fv/p/${ID_A}` }, ID_B)).toBe(`/fv/api/profiles/${ID_B}`);
  });

  it('rebaseUrl keeps other origins whole and makes same-origin URLs root paths', () => {
    expect(rebaseUrl('b.txt?x=1', 'http://h/app/', 'http://h')).toBe('/app/b.txt?x=1');
    expect(rebaseUrl('https://o.example/b.txt', 'http://h/app/', 'http://h')).toBe('https://o.example/b.txt');
  });
});

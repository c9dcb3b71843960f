import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { frameName } from '../core/model/frame-table';
import { useStore } from '../store/store';
import { treeOf } from '../store/tree-helpers';
import { flushUrlWrite, startUrlSync, stopUrlSync, useLinkNotices } from './url-sync';
import { resolvePath } from '../core/views/zoom-path';

/** Just enough of a window: a hash, a history stack, and the two navigation events. */
function fakeWindow(hash: string) {
  const entries = [hash];
  let index = 0;
  const listeners = new Map<string, (() => void)[]>();
  const win = {
    location: { get hash() { return entries[index]; }, pathname: '/', href: 'http://h/' },
    document: { baseURI: 'http://h/' },
    history: {
      state: null,
      get length() { return entries.length; },
      pushState: (_s: unknown, _t: string, url: string) => { entries.splice(index + 1, Infinity, url); index++; },
      replaceState: (_s: unknown, _t: string, url: string) => { entries[index] = url; },
    },
    addEventListener: (type: string, fn: () => void) => listeners.set(type, [...(listeners.get(type) ?? []), fn]),
    removeEventListener: () => {},
  };
  const go = (delta: number) => {
    index += delta;
    for (const fn of listeners.get('popstate') ?? []) fn();
  };
  /** The user edits the address's hash (a new entry, then hashchange). */
  const navigate = (next: string) => {
    entries.splice(index + 1, Infinity, next);
    index++;
    for (const fn of listeners.get('hashchange') ?? []) fn();
  };
  return { win: win as unknown as Window, entries, go, navigate, index: () => index };
}

const TEXT = 'app;main;parse;lex_[i];tok 3\napp;main;emit 2';
const initial = useStore.getState();
beforeEach(() => {
  useStore.setState(initial, true);
  vi.useFakeTimers();
});
afterEach(() => {
  stopUrlSync();
  vi.useRealTimers();
});

function nodeAt(names: string): number {
  const s = useStore.getState();
  const path = names.split(';').map((n) => ({ name: n.replace(/_\[i\]$/, ''), inlined: n.endsWith('_[i]') }));
  return resolvePath(s.recordings.a.snapshot!.frames, treeOf(s.recordings.a.snapshot!, s.view), path).node;
}
const zoomed = () => {
  const s = useStore.getState();
  return frameName(s.recordings.a.snapshot!.frames, treeOf(s.recordings.a.snapshot!, s.view).frame[s.panes.main.zoomNode]);
};

describe('url sync', () => {
  it('applies the hash on open, pushes zooms, replaces view changes, and steps back without pushing', () => {
    const { win, entries, go } = fakeWindow('#profile=x&view=inline&zoom=app;main;parse;lex_%5Bi%5D&search=tok');
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'x', { kind: 'url', url: 'http://h/x' });
    startUrlSync(win);
    expect(zoomed()).toBe('lex');
    expect(useStore.getState().search.pattern).toBe('tok');
    expect(entries).toEqual(['#v=1&profile=x&view=inline&zoom=app;main;parse;lex_%5Bi%5D&search=tok']);

    useStore.getState().zoomTo(nodeAt('app;main'));
    vi.advanceTimersByTime(500);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toContain('zoom=app;main&');

    useStore.getState().setView('functions');
    vi.advanceTimersByTime(500);
    expect(entries).toHaveLength(2);
    expect(entries[1]).toContain('view=functions&zoom=app;main&');

    go(-1);
    expect(useStore.getState().view).toBe('inline');
    expect(zoomed()).toBe('lex');
    vi.advanceTimersByTime(500);
    expect(entries).toHaveLength(2); // applying a navigation never pushes
    go(1);
    expect(useStore.getState().view).toBe('functions');
    expect(zoomed()).toBe('main');
    expect(useLinkNotices.getState().notices).toEqual([]);
  });

  it('a bad link gives notices and is rewritten to what is shown', () => {
    const { win, entries } = fakeWindow('#view=bogus&zoom=app;gone');
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'x', { kind: 'file' });
    startUrlSync(win);
    expect(useLinkNotices.getState().notices.map((n) => n.text)).toEqual([
      'The link\'s view value "bogus" is not one of functions, inline; it was ignored.',
      'The linked frame app → gone was not found in this recording; showing its closest ancestor: app.',
    ]);
    expect(entries).toEqual(['#v=1&view=functions&zoom=app']);
  });

  it('another recording resets the notices and the hash follows the store; flush writes at once', () => {
    const { win, entries } = fakeWindow('#zoom=nope');
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'x', { kind: 'file' });
    startUrlSync(win);
    expect(useLinkNotices.getState().notices).toHaveLength(1);
    useStore.getState().finishLoading(makeSnapshot(profileFrom('other;f 1')), 'y', { kind: 'paste' });
    expect(useLinkNotices.getState().notices).toHaveLength(0);
    expect(entries.at(-1)).toBe('#v=1&view=functions');
    useStore.getState().setSearchPattern('f');
    flushUrlWrite();
    expect(entries.at(-1)).toBe('#v=1&view=functions&search=f');
  });
});

describe('url sync and a linked recording', () => {
  it('a new profile in the hash waits for that recording, and gives the hash back if it fails', () => {
    const { win, entries, navigate } = fakeWindow('#profile=http%3A%2F%2Fh%2Fx&zoom=app');
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'x', { kind: 'url', url: 'http://h/x' });
    startUrlSync(win);
    expect(zoomed()).toBe('app');
    // Another link: its zoom is not applied to this recording, and the hash is left alone.
    navigate('#profile=http%3A%2F%2Fh%2Fy&zoom=other');
    expect(zoomed()).toBe('app');
    expect(useLinkNotices.getState().notices).toEqual([]);
    useStore.getState().setSearchPattern('tok');
    vi.advanceTimersByTime(500);
    expect(entries.at(-1)).toBe('#profile=http%3A%2F%2Fh%2Fy&zoom=other');
    // It fails to open: the open recording writes the hash again.
    useStore.getState().failLoading('Could not open y');
    vi.advanceTimersByTime(500);
    expect(entries.at(-1)).toContain('zoom=app&search=tok');
  });

  it('when it opens, the link is applied to it', () => {
    const { win, navigate } = fakeWindow('#profile=http%3A%2F%2Fh%2Fx');
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'x', { kind: 'url', url: 'http://h/x' });
    startUrlSync(win);
    navigate('#profile=http%3A%2F%2Fh%2Fy&zoom=other;f');
    useStore.getState().finishLoading(makeSnapshot(profileFrom('other;f;g 1')), 'y', { kind: 'url', url: 'http://h/y' });
    expect(zoomed()).toBe('f');
  });
});

describe('a link made from a local file', () => {
  const file = (name: string, size: number) => ({ kind: 'file' as const, local: { kind: 'file' as const, name, size } });
  const LINK = '#v=1&file=run.txt&size=40&view=inline&zoom=app;main;parse;lex_%5Bi%5D&search=tok';

  it('is applied to that file when it is the first recording, and its first write keeps every key', () => {
    const { win, entries } = fakeWindow(LINK);
    startUrlSync(win);
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'run.txt', file('run.txt', 40));
    expect(useStore.getState().view).toBe('inline');
    expect(zoomed()).toBe('lex');
    expect(useLinkNotices.getState().notices).toEqual([]);
    vi.runAllTimers();
    expect(entries.at(-1)).toBe(LINK);
  });

  it('waits, with a notice, while another recording is open, and applies itself to the file once opened', () => {
    const { win, entries, navigate } = fakeWindow('#v=1&view=functions');
    startUrlSync(win);
    useStore.getState().finishLoading(makeSnapshot(profileFrom('other;x 1')), 'demo', { kind: 'demo', url: 'http://h/demo' });
    navigate(LINK);
    expect(useLinkNotices.getState().notices.map((n) => n.text)).toEqual([
      'This link was made from the local file run.txt (40 bytes), which is not in the link: open that file to restore its view, zoom, search, transforms and panel.',
    ]);
    // The open recording's own changes do not overwrite the link meanwhile.
    useStore.getState().setSearchPattern('x');
    vi.runAllTimers();
    expect(entries.at(-1)).toBe(LINK);
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'run.txt', file('run.txt', 40));
    expect(zoomed()).toBe('lex');
    expect(useStore.getState().search.pattern).toBe('tok');
    expect(useLinkNotices.getState().notices).toEqual([]);
  });

  it('applied to another file, it says which one it was made from', () => {
    const { win } = fakeWindow(LINK);
    startUrlSync(win);
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'new.txt', file('new.txt', 41));
    expect(zoomed()).toBe('lex');
    expect(useLinkNotices.getState().notices.map((n) => n.text)).toEqual([
      "This link was made from the local file run.txt (40 bytes), but the local file new.txt (41 bytes) was opened: the link's view, zoom, search, transforms and panel were applied where they fit.",
    ]);
  });
});

describe("url sync and a processed link's original=", () => {
  /** A perf script recording as a processed link opens it: one event, the roots as saved. */
  const processed = () => {
    const snap = makeSnapshot(profileFrom('prog;main;a 3\nprog;main;b 1'));
    return { ...snap, meta: { ...snap.meta, format: 'perf-script' as const }, processed: true as const };
  };

  it('is store state: applied on open, written back with the rest, dropped when another recording opens', () => {
    const { win, entries } = fakeWindow('#profile=x&original=%2Fapi%2Fprofiles%2Fo&view=functions');
    useStore.getState().finishLoading(makeSnapshot(profileFrom(TEXT)), 'x', { kind: 'url', url: 'http://h/x' });
    startUrlSync(win);
    expect(useStore.getState().original).toBe('/api/profiles/o');
    useStore.getState().setSearchPattern('main');
    flushUrlWrite();
    expect(entries.at(-1)).toBe('#v=1&profile=x&original=%2Fapi%2Fprofiles%2Fo&view=functions&search=main');
    useStore.getState().finishLoading(makeSnapshot(profileFrom('other;f 1')), 'y', { kind: 'paste' });
    expect(useStore.getState().original).toBeNull();
    expect(entries.at(-1)).not.toContain('original=');
  });

  it('split= on a processed recording without its original is a notice and no reload; with one, the original is read', () => {
    const { win, entries } = fakeWindow('#profile=x&split=pid');
    useStore.getState().finishLoading(processed(), 'x.flameview', { kind: 'url', url: 'http://h/x' });
    startUrlSync(win);
    expect(useLinkNotices.getState().notices.map((n) => n.text)).toEqual([
      "The link's split=pid needs the original recording, which this link does not name: the processed recording shows its roots as they were saved.",
    ]);
    expect(useStore.getState().reloadRequest).toBeNull();
    expect(entries.at(-1)).toContain('split=pid');
    stopUrlSync();

    useStore.setState(initial, true);
    const linked = fakeWindow('#profile=x&original=%2Fo&split=pid');
    useStore.getState().finishLoading(processed(), 'x.flameview', { kind: 'url', url: 'http://h/x' });
    startUrlSync(linked.win);
    expect(useLinkNotices.getState().notices).toEqual([]);
    expect(useStore.getState().reloadRequest?.options).toEqual({ split: 'pid' });
    expect(useStore.getState().original).toBe('/o');
  });
});

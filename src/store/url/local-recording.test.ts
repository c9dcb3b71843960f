import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../../core/views/snapshot';
import { profileFrom } from '../../core/testing/tree-dsl';
import { useStore } from '../store';
import './params';
import { describeLocal, forgetLocalName, linkRestores, localNeeded, localRecordingFromHash, sameLocal } from './local-recording';
import { writeUrlState } from './url-state';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

const open = (local: { kind: 'file' | 'paste'; name: string | null; size: number } | undefined, kind: 'file' | 'paste' | 'url' = 'file') =>
  useStore.getState().finishLoading(makeSnapshot(profileFrom('p;main;a 3\np;main;b 1')), 'x', { kind, local, url: kind === 'url' ? 'http://h/x' : undefined });

describe('a link made from a local recording', () => {
  it('names the open file by name and size, pasted text by its length, a URL not at all', () => {
    open({ kind: 'file', name: 'perf run&1.txt', size: 123_456 });
    expect(writeUrlState('', useStore.getState())).toBe('#v=1&file=perf%20run%261.txt&size=123456&view=functions');
    open({ kind: 'paste', name: null, size: 42 });
    expect(writeUrlState('#v=1&file=old.txt&size=1', useStore.getState())).toBe('#v=1&pasted=42&view=functions');
    open(undefined, 'url');
    expect(writeUrlState('#v=1&file=old.txt&size=1&pasted=3', useStore.getState())).toBe('#v=1&view=functions');
    // Shared to a server: the link stops naming the file.
    open({ kind: 'file', name: 'a.txt', size: 9 });
    forgetLocalName();
    expect(writeUrlState('#file=a.txt&size=9', useStore.getState())).toBe('#v=1&view=functions');
  });

  it('reads what the link names, and leaves out what it cannot read', () => {
    expect(localRecordingFromHash('#v=1&file=perf%20run%261.txt&size=123456&zoom=a;b')).toEqual({ kind: 'file', name: 'perf run&1.txt', size: 123_456 });
    expect(localRecordingFromHash('#file=a.txt&size=12kB')).toEqual({ kind: 'file', name: 'a.txt', size: null });
    expect(localRecordingFromHash('#pasted=42')).toEqual({ kind: 'paste', name: null, size: 42 });
    expect(localRecordingFromHash('#file=&size=3')).toBeNull();
    expect(localRecordingFromHash('#file=%E0%A4%A')).toBeNull();
    expect(localRecordingFromHash('#profile=x.txt&view=inline')).toBeNull();
  });

  it('says plainly which file the link needs and what it restores', () => {
    const file = { kind: 'file', name: 'perf.txt', size: 2_500_000 } as const;
    expect(describeLocal(file)).toBe('the local file perf.txt (2.4 MB, 2,500,000 bytes)');
    expect(describeLocal({ kind: 'file', name: 'a', size: 163 })).toBe('the local file a (163 bytes)');
    expect(localNeeded(file)).toBe('This link was made from the local file perf.txt (2.4 MB, 2,500,000 bytes), which is not in the link: open that file to restore its view, zoom, search, transforms and panel.');
    expect(localNeeded({ kind: 'paste', name: null, size: 1200 })).toBe('This link was made from pasted text (1,200 characters), which is not in the link: paste that text again to restore its view, zoom, search, transforms and panel.');
    expect(linkRestores('#file=perf.txt&view=inline&zoom=app;main&search=lex&transforms=drop:a,merge:b&panel=sandwich&order=heavy')).toEqual([
      'the inline-frame view',
      'the zoom on app → main',
      'the search “lex”',
      '2 transforms',
      'the callers & callees panel',
      'the heaviest-first order',
    ]);
    expect(linkRestores('#file=perf.txt&view=functions')).toEqual([]);
  });

  it('matches the same file (any size when the link has none), not a renamed or resized one', () => {
    const wanted = { kind: 'file', name: 'a.txt', size: 10 } as const;
    expect(sameLocal(wanted, { kind: 'file', name: 'a.txt', size: 10 })).toBe(true);
    expect(sameLocal(wanted, { kind: 'file', name: 'b.txt', size: 10 })).toBe(false);
    expect(sameLocal(wanted, { kind: 'file', name: 'a.txt', size: 11 })).toBe(false);
    expect(sameLocal({ ...wanted, size: null }, { kind: 'file', name: 'a.txt', size: 11 })).toBe(true);
    expect(sameLocal(wanted, undefined)).toBe(false);
    expect(sameLocal({ kind: 'paste', name: null, size: 3 }, { kind: 'paste', name: null, size: 3 })).toBe(true);
  });
});

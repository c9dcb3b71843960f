import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from './store';
import { applyUrlState, parseUrlState, writeUrlState } from './url-state';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

describe('URL state', () => {
  it('round-trips and keeps the shell profile parameter', () => {
    const hash = writeUrlState('#profile=demo%2Fx.txt', { view: 'inline', orientation: 'icicle', zoom: 7, pattern: '(a+)+$', caseInsensitive: true });
    expect(new URLSearchParams(hash.slice(1)).get('profile')).toBe('demo/x.txt');
    expect(parseUrlState(hash)).toEqual({ view: 'inline', orientation: 'icicle', zoom: 7, pattern: '(a+)+$', caseInsensitive: true });
    expect(writeUrlState('', { view: 'functions', orientation: 'flame', zoom: 0, pattern: '', caseInsensitive: false })).toBe('#v=1');
  });

  it('ignores unknown versions and invalid values', () => {
    expect(parseUrlState('#v=2&view=inline')).toEqual({});
    expect(parseUrlState('#v=1&view=<script>&orient=sideways&zoom=-3&q=' + 'x'.repeat(2000))).toEqual({});
    expect(parseUrlState('#v=1&zoom=1e9')).toEqual({});
  });

  it('applies a link to the open recording, dropping out-of-range zooms', () => {
    const snap = makeSnapshot(profileFrom('main;parse;lex_[i] 3\nmain;emit 2'));
    useStore.getState().finishLoading(snap, 'x', { kind: 'url' });
    applyUrlState({ view: 'inline', orientation: 'icicle', zoom: 3, pattern: 'lex', caseInsensitive: true }, snap);
    expect(useStore.getState()).toMatchObject({ view: 'inline', orientation: 'icicle', zoomNode: 3 });
    expect(useStore.getState().search).toMatchObject({ pattern: 'lex', caseInsensitive: true, status: 'searching' });
    applyUrlState({ zoom: 999 }, snap);
    expect(useStore.getState().zoomNode).toBe(3);
  });
});

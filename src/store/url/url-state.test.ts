import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../../core/views/snapshot';
import { profileFrom } from '../../core/testing/tree-dsl';
import { frameName } from '../../core/model/frame-table';
import { useStore } from '../store';
import { treeOf } from '../tree-helpers';
import { applyUrlState, changedKeys, isPushChange, parseUrlState, registerUrlParam, writeUrlState } from './url-state';
import { decodeZoomPath, encodeZoomPath, resolvePath } from '../../core/views/zoom-path';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

const WEIRD = 'a;b&c#d%e f+g';
/** The tree DSL splits on ';': names for trees built with it. */
const ODD = 'b&c#d%e+g';

function open(text: string) {
  const snap = makeSnapshot(profileFrom(text));
  useStore.getState().finishLoading(snap, 'x', { kind: 'url', url: 'http://h/x' });
  return snap;
}

function applyHash(hash: string, snap = useStore.getState().recordings.a.snapshot!) {
  const notices: string[] = [];
  const parsed = parseUrlState(hash);
  notices.push(...parsed.notices);
  applyUrlState(parsed, { snapshot: snap, reason: 'open', notify: (m) => notices.push(m) });
  return notices;
}

function zoomedName(): string {
  const s = useStore.getState();
  return frameName(s.recordings.a.snapshot!.frames, treeOf(s.recordings.a.snapshot!, s.view).frame[s.panes.main.zoomNode]);
}

describe('zoom paths', () => {
  it('encode each name on its own and join with a literal ;', () => {
    const text = encodeZoomPath([{ name: 'main', inlined: false }, { name: WEIRD, inlined: false }, { name: 'lex', inlined: true }]);
    expect(text).toBe('main;a%3Bb%26c%23d%25e%20f%2Bg;lex_%5Bi%5D');
    expect(decodeZoomPath(text)).toEqual({ ok: true, path: [{ name: 'main', inlined: false }, { name: WEIRD, inlined: false }, { name: 'lex', inlined: true }] });
    expect(decodeZoomPath('main;lex_[i]')).toMatchObject({ ok: true, path: [{ name: 'main' }, { name: 'lex', inlined: true }] });
    expect(decodeZoomPath('a;%E0%A4%A')).toMatchObject({ ok: false });
  });

  it('resolve an inlined and a physical sibling of one name apart', () => {
    const snap = makeSnapshot(profileFrom('p;main;f_[i];x 3\np;main;f;y 2'));
    const tree = snap.inline;
    const a = resolvePath(snap.frames, tree, [{ name: 'p', inlined: false }, { name: 'main', inlined: false }, { name: 'f', inlined: true }, { name: 'x', inlined: false }]);
    expect(a.matched).toBe(4);
    const b = resolvePath(snap.frames, tree, [{ name: 'p', inlined: false }, { name: 'main', inlined: false }, { name: 'f', inlined: false }, { name: 'x', inlined: false }]);
    expect(b.matched).toBe(3);
    expect(frameName(snap.frames, tree.frame[b.node])).toBe('f');
  });
});

describe('URL state', () => {
  it('writes the v1 format and keeps profile and unknown parameters verbatim', () => {
    open(`p;main;${ODD};lex_[i] 3\np;main;emit 2`);
    applyHash(`#view=inline&zoom=p;main;${encodeURIComponent(ODD)};lex_%5Bi%5D&search=le(x&case=i&orient=icicle`);
    const hash = writeUrlState('#profile=demo%2Fx.txt&keep=1%3B2&zoom=old', useStore.getState());
    expect(hash).toBe(`#v=1&profile=demo%2Fx.txt&keep=1%3B2&orient=icicle&view=inline&zoom=p;main;b%26c%23d%25e%2Bg;lex_%5Bi%5D&case=i&search=le(x`);
  });

  it('keeps every profile= of a link naming several (one graph of their sum), first and in order', () => {
    open('p;main;a 1');
    const hash = writeUrlState('#keep=1&profile=x%2F1.folded&zoom=old&profile=x%2F2.folded', useStore.getState());
    expect(hash).toMatch(/^#v=1&profile=x%2F1\.folded&profile=x%2F2\.folded&keep=1&/);
  });

  it('keeps the heaviest-first order in the link as order=heavy, the zoom unchanged', () => {
    open('p;main;a 1\np;main;b 3');
    expect(applyHash('#order=heavy&zoom=p;main')).toEqual([]);
    expect(useStore.getState().siblingOrder).toBe('heavy');
    expect(zoomedName()).toBe('main');
    expect(writeUrlState('', useStore.getState())).toBe('#v=1&order=heavy&view=functions&zoom=p;main');
    expect(applyHash('#order=left')).toEqual(['The link\'s order value "left" is not heavy; it was ignored.']);
    expect(useStore.getState().siblingOrder).toBe('name');
    expect(writeUrlState('', useStore.getState())).toBe('#v=1&view=functions');
  });

  it('applies view, zoom path, search and case; toggling keeps the zoomed frame', () => {
    open(`p;main;${ODD};lex_[i] 3\np;main;emit 2`);
    const notices = applyHash(`#v=1&view=inline&zoom=p;main;${encodeURIComponent(ODD)};lex_%5Bi%5D&search=lex&case=i`);
    expect(notices).toEqual([]);
    expect(useStore.getState()).toMatchObject({ view: 'inline' });
    expect(zoomedName()).toBe('lex');
    expect(useStore.getState().search).toMatchObject({ pattern: 'lex', caseInsensitive: true });
    useStore.getState().setView('functions');
    // The function view merges lex into its caller: the URL names the counterpart.
    expect(writeUrlState('', useStore.getState())).toContain(`zoom=p;main;${encodeURIComponent(ODD)}&`);
  });

  it('falls back to the longest existing prefix and says so', () => {
    open('p;main;parse;lex 3\np;main;emit 2');
    const notices = applyHash('#zoom=p;main;parse;gone;deeper');
    expect(zoomedName()).toBe('parse');
    expect(notices).toEqual(['The linked frame p → main → parse → gone → deeper was not found in this recording; showing its closest ancestor: p → main → parse.']);
    expect(applyHash('#zoom=other;main')[0]).toMatch(/showing the whole recording/);
    expect(useStore.getState().panes.main.zoomNode).toBe(0);
  });

  it('a deep path survives, and a notice about it stays short', () => {
    const deep = Array.from({ length: 3000 }, (_, i) => `frame_with_a_long_name_${i}`);
    open(`${deep.join(';')} 1`);
    const zoom = deep.map(encodeURIComponent).join(';');
    expect(applyHash(`#zoom=${zoom}`)).toEqual([]);
    expect(zoomedName()).toBe('frame_with_a_long_name_2999');
    expect(writeUrlState('', useStore.getState())).toContain(zoom);
    const [notice] = applyHash(`#zoom=${zoom};gone`);
    expect(notice.length).toBeLessThan(700);
    expect(notice).toContain('… 2992 more …');
  });

  it('a function-view link to an inlined frame zooms to the function containing it', () => {
    open('p;main;f;g_[i] 3\np;main;h 2');
    expect(applyHash('#zoom=p;main;f;g_%5Bi%5D')).toEqual([]);
    expect(useStore.getState().view).toBe('functions');
    expect(zoomedName()).toBe('f');
  });

  it('ignores unknown versions and bad values with notices, never throwing', () => {
    open('p;main 1');
    expect(parseUrlState('#v=9&view=inline').values.size).toBe(0);
    expect(parseUrlState('#v=9&view=inline').notices[0]).toMatch(/v=9/);
    const bad = parseUrlState('#v=1&view=bogus&orient=sideways&case=x&search=' + 'x'.repeat(2000) + '&zoom=%E0%A4%A');
    expect(bad.values.size).toBe(0);
    expect(bad.notices).toHaveLength(5);
    expect(bad.notices[0]).toBe('The link\'s view value "bogus" is not one of functions, inline; it was ignored.');
    expect(applyHash('#event=cycles')[0]).toMatch(/not in this recording/);
    // Pairs that name no parameter (an undecodable key, an empty one) are skipped without a
    // notice, keys are percent-decoded, and a bare key is an empty value (zoom at the root).
    const odd = parseUrlState('#%zz=%zz&&=&zoom&%76iew=inline');
    expect(odd.notices).toEqual([]);
    expect(Object.fromEntries(odd.values)).toEqual({ zoom: [], view: 'inline' });
  });

  it('a zoom change pushes a history entry; view or search changes replace', () => {
    expect(isPushChange('#v=1&view=inline', '#v=1&view=inline&zoom=a')).toBe(true);
    expect(isPushChange('#v=1&view=inline&zoom=a', '#v=1&view=functions&zoom=b')).toBe(false);
    expect(isPushChange('#v=1&zoom=a', '#v=1&zoom=a&search=x')).toBe(false);
    expect(isPushChange('#v=1', '#v=1')).toBe(false);
  });

  it('other slices register their own parameters', () => {
    let applied: string | undefined = 'unset';
    registerUrlParam<string>({
      key: 'test-extra',
      history: 'replace',
      order: 99,
      parse: (v) => (v === 'ok' ? { ok: true, value: v } : { ok: false, notice: 'bad test-extra' }),
      write: () => 'ok',
      apply: (v) => {
        applied = v;
      },
    });
    open('p;main 1');
    expect(applyHash('#test-extra=ok')).toEqual([]);
    expect(applied).toBe('ok');
    expect(applyHash('#test-extra=no')).toEqual(['bad test-extra']);
    expect(applied).toBeUndefined();
    expect(writeUrlState('', useStore.getState())).toContain('test-extra=ok');
    expect(() => registerUrlParam({ key: 'profile', history: 'replace', order: 0, parse: () => ({ ok: true, value: 1 }), write: () => null, apply: () => {} })).toThrow();
  });

  it('reads folded stacks in a unit=: unit=us reloads in microseconds, no unit= as samples again, other formats ignore it', () => {
    const snap = makeSnapshot(profileFrom('p;main;a 3'));
    useStore.getState().finishLoading(snap, 'x', { kind: 'url', url: 'http://h/x' });
    const reloads: unknown[] = [];
    const notices: string[] = [];
    const apply = (hash: string, s = snap) => applyUrlState(parseUrlState(hash), { snapshot: s, reason: 'navigate', notify: (m) => notices.push(m), reload: (o) => reloads.push(o) });
    expect(writeUrlState('', useStore.getState())).not.toContain('unit=');
    apply('#unit=us');
    expect(reloads).toEqual([{ unit: 'us' }]);
    expect(writeUrlState('', useStore.getState())).toContain('unit=us');
    apply('#view=functions');
    expect(reloads).toEqual([{ unit: 'us' }, { unit: 'samples' }]);
    expect(parseUrlState('#unit=s').notices).toEqual(['The link\'s unit value "s" is not one of ns, us, ms, samples; it was ignored.']);
    const perf = { ...snap, meta: { ...snap.meta, format: 'perf-script' as const } };
    apply('#unit=ms', perf);
    expect(reloads).toHaveLength(2);
    expect(notices).toEqual(["The link's unit=ms applies to folded stacks only (other formats say what their weights are); it was ignored."]);
  });

  it('spells the root split one way: split=tid reads per thread, no split= reads per process name again', () => {
    const text = makeSnapshot(profileFrom('p;main;a 3'));
    const snap = { ...text, meta: { ...text.meta, format: 'perf-script' as const } };
    useStore.getState().finishLoading(snap, 'x', { kind: 'url', url: 'http://h/x' });
    const reloads: unknown[] = [];
    const apply = (hash: string) => applyUrlState(parseUrlState(hash), { snapshot: snap, reason: 'navigate', notify: () => {}, reload: (o) => reloads.push(o) });
    expect(useStore.getState().split).toBe('process');
    expect(writeUrlState('', useStore.getState())).not.toContain('split=');
    apply('#split=tid');
    expect(reloads).toEqual([{ split: 'tid' }]);
    expect(useStore.getState().split).toBe('tid');
    expect(writeUrlState('', useStore.getState())).toContain('split=tid');
    apply('#view=functions');
    expect(reloads).toEqual([{ split: 'tid' }, { split: 'process' }]);
    expect(useStore.getState().split).toBe('process');
    apply('#view=functions');
    expect(reloads).toHaveLength(2);
  });
});

describe('several compare= (B as the sum of its runs)', () => {
  it('asks to open all of them in order, and writes each back while B is open', async () => {
    await import('./compare-params');
    open('p;main;a 1');
    applyHash('#compare=b%2F1.folded&mode=diff&compare=b%2F2.folded');
    expect(useStore.getState().compare.openRequest).toEqual({ urls: ['b/1.folded', 'b/2.folded'] });
    useStore.getState().setCompareRequested(['b/1.folded', 'b/2.folded']);
    useStore.getState().startLoading('b', 0, 'b');
    expect(writeUrlState('', useStore.getState())).toMatch(/&compare=b%2F1\.folded&compare=b%2F2\.folded(&|$)/);
    // A change of the second alone is a change of compare (a replace, not a push).
    expect(changedKeys('#compare=x&compare=y', '#compare=x&compare=z')).toEqual(new Set(['compare']));
  });
});

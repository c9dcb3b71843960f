import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../../core/views/snapshot';
import { profileFrom } from '../../core/testing/tree-dsl';
import { useStore } from '../store';
import { applyUrlState, parseUrlState, writeUrlState } from './url-state';
import './analysis-params';
import './transform-params';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

const WEIRD = '<img src=x onerror=alert(1)>&b#c%d+e';

function open() {
  const snap = makeSnapshot(profileFrom(`main;${WEIRD};leaf 3\nmain;other 2`));
  useStore.getState().finishLoading(snap, 'x', { kind: 'file' });
  return snap;
}

function applyHash(hash: string) {
  const notices: string[] = [];
  const parsed = parseUrlState(hash);
  notices.push(...parsed.notices);
  applyUrlState(parsed, { snapshot: useStore.getState().recordings.a.snapshot!, reason: 'open', notify: (m) => notices.push(m) });
  return notices;
}

describe('analysis link parameters', () => {
  it('round-trip panel, fn (any characters) and names', () => {
    open();
    const s = useStore.getState();
    s.setAnalysisPanel('callersCallees');
    s.selectFunction(WEIRD);
    s.setShortNames(true);
    const hash = writeUrlState('', useStore.getState());
    expect(hash).toContain('panel=sandwich');
    expect(hash).toContain(`fn=${encodeURIComponent(WEIRD)}`);
    expect(hash).toContain('names=short');
    useStore.setState(initial, true);
    open();
    expect(applyHash(hash)).toEqual([]);
    expect(useStore.getState().analysis).toMatchObject({ panel: 'callersCallees', selectedFunction: WEIRD, shortNames: true });
  });

  it('leave fn out while the panel is closed, and restore the defaults when absent', () => {
    open();
    useStore.getState().selectFunction('other');
    const hash = writeUrlState('', useStore.getState());
    expect(hash).not.toContain('fn=');
    expect(hash).not.toContain('panel=');
    expect(hash).not.toContain('names=');
    useStore.getState().setAnalysisPanel('table');
    useStore.getState().setShortNames(true);
    applyHash('#v=1');
    expect(useStore.getState().analysis).toMatchObject({ panel: 'none', selectedFunction: null, shortNames: false });
  });

  it('notice bad values and a function the recording does not have', () => {
    open();
    const notices = applyHash('#v=1&panel=graph&names=long&fn=nope');
    expect(notices).toHaveLength(3);
    expect(notices.join('\n')).toMatch(/panel value "graph" is not one of table/);
    expect(notices.join('\n')).toMatch(/nope is not in this recording/);
    expect(useStore.getState().analysis.selectedFunction).toBeNull();
  });

  it('round-trip panel=tree; inverted=1 opens the reversed tree and is written as reversed=1', () => {
    open();
    expect(applyHash('#v=1&panel=tree&inverted=1')).toEqual([]);
    expect(useStore.getState().analysis.panel).toBe('tree');
    expect(useStore.getState().reversed).toBe(true);
    const hash = writeUrlState('', useStore.getState());
    expect(hash).toContain('panel=tree');
    expect(hash).toContain('reversed=1');
    expect(hash).not.toContain('inverted=');
    useStore.setState(initial, true);
    open();
    expect(applyHash(hash)).toEqual([]);
    expect(useStore.getState()).toMatchObject({ reversed: true, analysis: { panel: 'tree' } });
    // inverted=1 beside reversed absent or present sets the one switch; a bad value is noticed.
    const notices = applyHash('#v=1&panel=tree&inverted=yes');
    expect(notices.join('\n')).toMatch(/inverted value "yes" is not 1/);
    expect(useStore.getState().reversed).toBe(false);
  });

  it('open the callers & callees panel from a link of its first name, panel=sandwich, and take no internal id', () => {
    open();
    expect(applyHash('#v=1&panel=sandwich')).toEqual([]);
    expect(useStore.getState().analysis.panel).toBe('callersCallees');
    expect(writeUrlState('', useStore.getState())).toContain('panel=sandwich');
    const notices = applyHash('#v=1&panel=callersCallees');
    expect(notices.join('\n')).toMatch(/panel value "callersCallees" is not one of table, sandwich, tree/);
    expect(useStore.getState().analysis.panel).toBe('none');
  });
});

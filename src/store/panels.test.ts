import { beforeEach, describe, expect, it } from 'vitest';
import { makeSnapshot } from '../core/views/snapshot';
import { profileFrom } from '../core/testing/tree-dsl';
import { useStore } from './store';
import { PANELS } from './panels';
import { applyUrlState, parseUrlState, writeUrlState } from './url/url-state';
import { linkRestores } from './url/local-recording';
import './url/analysis-params';

const initial = useStore.getState();
beforeEach(() => useStore.setState(initial, true));

describe('the panel registry', () => {
  it('gives every panel its own id and link word', () => {
    expect(new Set(PANELS.map((p) => p.id)).size).toBe(PANELS.length);
    expect(new Set(PANELS.map((p) => p.word)).size).toBe(PANELS.length);
  });

  it.each(PANELS.map((p) => [p.word, p] as const))('panel=%s round-trips through the link and is named by linkRestores', (word, entry) => {
    const snap = makeSnapshot(profileFrom('main;leaf 3'));
    useStore.getState().finishLoading(snap, 'x', { kind: 'file' });
    useStore.getState().setAnalysisPanel(entry.id);
    const hash = writeUrlState('', useStore.getState());
    expect(hash).toContain(`panel=${word}`);
    expect(linkRestores(hash)).toContain(entry.phrase);
    useStore.getState().setAnalysisPanel('none');
    applyUrlState(parseUrlState(hash), { snapshot: snap, reason: 'open', notify: () => {} });
    expect(useStore.getState().analysis.panel).toBe(entry.id);
  });
});

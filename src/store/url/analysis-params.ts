// The analysis panel's link parameters, registered with the URL state (store/url-state.ts):
//   panel=<a word of store/panels.ts> (default: closed; sandwich: the callers & callees panel)   fn=<function name>   names=short (default: full)
//   inverted=1 (read only: the same as reversed=1)
// `fn` is written only while a panel is open (the highlight is only drawn then), so a link that
// names a function reopens the panel on it. Names are exact strings, percent-encoded by url-state.
// A link with a panel and no (or an unknown) fn clears the function; the selection sync
// (controllers/selection-sync.ts) then shows the zoomed frame's, as opening the panel by hand does.

import { PANEL_WORDS, panelById, panelByWord, type PanelWord } from '../panels';
import { useStore } from '../store';
import { oneOf, registerUrlParam } from './url-state';
import { nameIndex } from '../../core/query/table-model';

const MAX_NAME = 100_000;

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

// The open panel by its word in links (store/panels.ts, the one list of panels).
registerUrlParam<PanelWord>({
  key: 'panel',
  history: 'replace',
  order: 50,
  parse: oneOf('panel', PANEL_WORDS),
  write: (s) => (s.analysis.panel === 'none' ? null : panelById(s.analysis.panel).word),
  apply: (value) => useStore.getState().setAnalysisPanel(value ? panelByWord(value)!.id : 'none'),
});

// `inverted=1` (the Firefox Profiler's word) opens the call tree inverted: it is the graph's
// reversed switch (one bottom-up state for the graph and the panel), so links write reversed=1.
registerUrlParam<true>({
  key: 'inverted',
  history: 'replace',
  order: 14,
  parse: (v) => (v === '1' ? { ok: true, value: true } : { ok: false, notice: `The link's inverted value "${clip(v)}" is not 1; it was ignored.` }),
  write: () => null,
  apply: (value) => {
    if (value) useStore.getState().setReversed(true);
  },
});

registerUrlParam<string>({
  key: 'fn',
  history: 'replace',
  order: 51,
  parse: (v) => (v === '' || v.length > MAX_NAME ? { ok: false, notice: "The link's fn value is empty or too long; it was ignored." } : { ok: true, value: v }),
  write: (s) => (s.analysis.panel !== 'none' && s.analysis.selectedFunction !== null ? s.analysis.selectedFunction : null),
  apply: (value, ctx) => {
    if (value !== undefined && nameIndex(ctx.snapshot.frames, value) < 0) {
      ctx.notify(`The linked function ${clip(value)} is not in this recording; it was ignored.`);
      useStore.getState().selectFunction(null);
      return;
    }
    useStore.getState().selectFunction(value ?? null);
  },
});

registerUrlParam<'short'>({
  key: 'names',
  history: 'replace',
  order: 52,
  parse: (v) => (v === 'short' ? { ok: true, value: 'short' } : { ok: false, notice: `The link's names=${clip(v)} is not short; it was ignored.` }),
  write: (s) => (s.analysis.shortNames ? 'short' : null),
  apply: (value) => useStore.getState().setShortNames(value === 'short'),
});

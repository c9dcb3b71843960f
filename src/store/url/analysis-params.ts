// The analysis panel's link parameters, registered with the URL state (store/url-state.ts):
//   panel=table|sandwich (default: closed)   fn=<function name>   names=short (default: full)
// `fn` is written only while a panel is open (the highlight is only drawn then), so a link that
// names a function reopens the panel on it. Names are exact strings, percent-encoded by url-state.

import { useStore } from '../store';
import { registerUrlParam, type ParseResult } from './url-state';
import { nameIndex } from '../../core/query/table-model';

const MAX_NAME = 100_000;

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

registerUrlParam<'table' | 'sandwich'>({
  key: 'panel',
  history: 'replace',
  order: 50,
  parse: (v): ParseResult<'table' | 'sandwich'> =>
    v === 'table' || v === 'sandwich' ? { ok: true, value: v } : { ok: false, notice: `The link's panel=${clip(v)} is not one of table, sandwich; it was ignored.` },
  write: (s) => (s.analysis.panel === 'none' ? null : s.analysis.panel),
  apply: (value) => useStore.getState().setAnalysisPanel(value ?? 'none'),
});

registerUrlParam<string>({
  key: 'fn',
  history: 'replace',
  order: 51,
  parse: (v) => (v === '' || v.length > MAX_NAME ? { ok: false, notice: "The link's fn value is empty or too long; it was ignored." } : { ok: true, value: v }),
  write: (s) => (s.analysis.panel !== 'none' && s.analysis.selectedFunction !== null ? s.analysis.selectedFunction : null),
  apply: (value, ctx) => {
    if (value !== undefined && nameIndex(ctx.snapshot.frames, value) < 0) {
      ctx.notify(`The linked function ${clip(value)} is not in this recording; no function is selected.`);
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

// Toolbar switches of the analysis panel: the function table, the callers and callees of the
// selected function, and short names in labels.

import { useStore } from '../../store/store';

export function AnalysisToggles() {
  const panel = useStore((s) => s.analysis.panel);
  const short = useStore((s) => s.analysis.shortNames);
  const { setAnalysisPanel, setShortNames } = useStore.getState();
  const toggle = (p: 'table' | 'sandwich') => setAnalysisPanel(panel === p ? 'none' : p);
  return (
    <div className="analysis-toggles" role="group" aria-label="Analysis">
      <button type="button" className="btn" aria-pressed={panel === 'table'} onClick={() => toggle('table')}>
        Function table
      </button>
      <button type="button" className="btn" aria-pressed={panel === 'sandwich'} onClick={() => toggle('sandwich')}>
        Callers &amp; callees
      </button>
      <button
        type="button"
        className="btn"
        aria-pressed={short}
        title="Shorten long C++ and Rust names in labels (template arguments, argument lists and Rust hashes elided; full names in tooltips)"
        onClick={() => setShortNames(!short)}
      >
        Short names
      </button>
    </div>
  );
}

// Toolbar switches of the analysis panel: icon toggles for the function table, the callers and
// callees of the selected function and the call tree, and (in the View menu) short names in labels.

import { useStore } from '../../store/store';
import { CallersIcon, TableIcon, TreeIcon } from '../toolbar/Icons';

export function PanelToggles() {
  const panel = useStore((s) => s.analysis.panel);
  const { setAnalysisPanel } = useStore.getState();
  const toggle = (p: 'table' | 'callersCallees' | 'tree') => setAnalysisPanel(panel === p ? 'none' : p);
  return (
    <>
      <button type="button" className="btn btn-icon" aria-label="Function table" title="Function table: self and total time per function" aria-pressed={panel === 'table'} onClick={() => toggle('table')}>
        <TableIcon />
      </button>
      <button
        type="button"
        className="btn btn-icon"
        aria-label="Callers & callees"
        title="Callers & callees of the selected function"
        aria-pressed={panel === 'callersCallees'}
        onClick={() => toggle('callersCallees')}
      >
        <CallersIcon />
      </button>
      <button type="button" className="btn btn-icon" aria-label="Call tree" title="Call tree: running and self time along each call path" aria-pressed={panel === 'tree'} onClick={() => toggle('tree')}>
        <TreeIcon />
      </button>
    </>
  );
}

export function ShortNamesToggle() {
  const short = useStore((s) => s.analysis.shortNames);
  return (
    <button
      type="button"
      className="menu-item"
      aria-pressed={short}
      title="Shorten long C++ and Rust names in labels (template arguments, argument lists and Rust hashes elided; full names in tooltips)"
      onClick={() => useStore.getState().setShortNames(!short)}
    >
      Short names
    </button>
  );
}

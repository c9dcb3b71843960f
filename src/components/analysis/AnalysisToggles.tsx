// Toolbar switches of the analysis panel: an icon toggle per panel of store/panels.ts, and (in the
// View menu) short names in labels.

import { useStore } from '../../store/store';
import { PANELS, type PanelId } from '../../store/panels';
import { PANEL_VIEWS } from './panel-views';

export function PanelToggles() {
  const panel = useStore((s) => s.analysis.panel);
  const { setAnalysisPanel } = useStore.getState();
  const toggle = (p: PanelId) => setAnalysisPanel(panel === p ? 'none' : p);
  return (
    <>
      {PANELS.map(({ id, button, title }) => {
        const { Icon } = PANEL_VIEWS[id];
        return (
          <button key={id} type="button" className="btn btn-icon" aria-label={button} title={title} aria-pressed={panel === id} onClick={() => toggle(id)}>
            <Icon />
          </button>
        );
      })}
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

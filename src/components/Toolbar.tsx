// View toggle (Functions / Inline frames), icicle switch, reset zoom, event picker, shortcuts.

import { mainSource } from '../controllers/flame-sources';
import { useStore } from '../store/store';
import { AnalysisToggles } from './analysis/AnalysisToggles';
import { EventPicker } from './EventPicker';
import { ExportMenu } from './ExportMenu';
import { ProcessPicker } from './ProcessPicker';
import { ShareButtons } from './ShareButtons';
import { TimeOrderButton } from './time/TimeOrderButton';
import { TransformToggles } from './TransformBar';

export function Toolbar() {
  const view = useStore((s) => s.view);
  const hasInline = useStore((s) => s.snapshot?.functions != null);
  const orientation = useStore((s) => s.orientation);
  const zoomed = useStore((s) => s.zoomNode > 0 || s.viewport.x0 > 0 || s.viewport.x1 < 1);
  const setView = useStore((s) => s.setView);
  const setOrientation = useStore((s) => s.setOrientation);
  const toggleShortcuts = useStore((s) => s.toggleShortcuts);
  return (
    <div className="toolbar" role="toolbar" aria-label="View">
      <div className="segmented" role="group" aria-label="Frames">
        <button
          type="button"
          className="btn seg"
          aria-pressed={view === 'functions'}
          onClick={() => setView('functions')}
        >
          Functions
        </button>
        <button
          type="button"
          className="btn seg"
          aria-pressed={view === 'inline'}
          disabled={!hasInline}
          aria-describedby={hasInline ? undefined : 'no-inline-why'}
          onClick={() => setView('inline')}
        >
          Inline frames
        </button>
      </div>
      <button type="button" className="btn" aria-pressed={orientation === 'icicle'} onClick={() => setOrientation(orientation === 'icicle' ? 'flame' : 'icicle')}>
        Icicle
      </button>
      <button type="button" className="btn" disabled={!zoomed} onClick={() => mainSource.zoom(0)}>
        Reset zoom
      </button>
      <TransformToggles />
      <TimeOrderButton />
      <EventPicker />
      <ProcessPicker />
      <AnalysisToggles />
      {!hasInline && (
        <span id="no-inline-why" className="toolbar-note">
          No inline-frame information in this recording, so both views are the same (record with{' '}
          <code>--call-graph dwarf</code> to get inline frames).
        </span>
      )}
      <div className="toolbar-spacer" />
      <ShareButtons />
      <ExportMenu />
      <button type="button" className="btn" aria-keyshortcuts="?" onClick={() => toggleShortcuts()}>
        Shortcuts
      </button>
    </div>
  );
}

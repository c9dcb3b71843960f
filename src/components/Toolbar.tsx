// The viewer's one toolbar row: the Functions | Inline frames toggle with the colour legend, the
// search, icon toggles for the panels (function table, callers & callees, time order), Reset
// zoom, the View menu (orientation, transforms, short names, process and event) and the "⋯" menu
// (link, share, export, compare, shortcuts). Toggles carry aria-pressed; actions do not. The row
// never wraps (see viewer.css): what does not fit is cut at the search summary.

import { resetShownZoom, shownZoomed } from '../controllers/flame-sources';
import { useStore } from '../store/store';
import { PanelToggles, ShortNamesToggle } from './analysis/AnalysisToggles';
import { CompareOpener } from './compare/CompareOpener';
import { EventPicker } from './EventPicker';
import { ExportMenu } from './ExportMenu';
import { ProcessPicker } from './ProcessPicker';
import { SearchBox } from './SearchBox';
import { ShareButtons } from './ShareButtons';
import { ServerRecordingsButton } from './ServerRecordings';
import { TimeOrderButton } from './time/TimeOrderButton';
import { FrameLegend } from './toolbar/FrameLegend';
import { MoreIcon, ResetZoomIcon } from './toolbar/Icons';
import { Menu } from './toolbar/Menu';
import { TransformToggles } from './TransformBar';

/** Siblings by name (flamegraph.pl's order) or heaviest first (speedscope's "left heavy"), in every graph. */
function OrderToggle() {
  const order = useStore((s) => s.siblingOrder);
  const setOrder = useStore((s) => s.setSiblingOrder);
  return (
    <div className="picker order-picker" role="group" aria-label="Order">
      <span>Order</span>
      <span className="segmented">
        <button type="button" className="btn btn-small seg" aria-pressed={order === 'name'} title="Siblings left to right by name, as flamegraph.pl draws them" onClick={() => setOrder('name')}>
          A–Z
        </button>
        <button type="button" className="btn btn-small seg" aria-pressed={order === 'heavy'} title="Siblings left to right by weight, the heaviest first" onClick={() => setOrder('heavy')}>
          Heaviest first
        </button>
      </span>
    </div>
  );
}

export function Toolbar() {
  const view = useStore((s) => s.view);
  const hasInline = useStore((s) => s.recordings.a.snapshot?.functions != null);
  const orientation = useStore((s) => s.orientation);
  const zoomed = useStore(shownZoomed);
  const setView = useStore((s) => s.setView);
  const setOrientation = useStore((s) => s.setOrientation);
  const toggleShortcuts = useStore((s) => s.toggleShortcuts);
  const noInline = 'No inline-frame information in this recording, so both views are the same (record with --call-graph dwarf to get inline frames).';
  return (
    <div className="toolbar" role="toolbar" aria-label="Tools">
      <div className="segmented" role="group" aria-label="Frames">
        <button type="button" className="btn seg" aria-pressed={view === 'functions'} onClick={() => setView('functions')}>
          Functions
        </button>
        <button
          type="button"
          className="btn seg"
          aria-pressed={view === 'inline'}
          disabled={!hasInline}
          title={hasInline ? 'Every inlined frame as a frame of its own' : noInline}
          aria-describedby={hasInline ? undefined : 'no-inline-why'}
          onClick={() => setView('inline')}
        >
          Inline frames
        </button>
      </div>
      {!hasInline && (
        <span id="no-inline-why" className="visually-hidden">
          {noInline}
        </span>
      )}
      <FrameLegend />
      <SearchBox />
      <div className="toolbar-group">
        <button type="button" className="btn btn-icon" aria-label="Reset zoom" title="Reset zoom (Escape zooms out one level)" disabled={!zoomed} onClick={resetShownZoom}>
          <ResetZoomIcon />
        </button>
        <PanelToggles />
        <TimeOrderButton />
      </div>
      <ServerRecordingsButton />
      <Menu label="View" title="Orientation, order, transforms and names" alignEnd>
        <button type="button" className="menu-item" aria-pressed={orientation === 'icicle'} onClick={() => setOrientation(orientation === 'icicle' ? 'flame' : 'icicle')}>
          Icicle
        </button>
        <OrderToggle />
        <TransformToggles />
        <ShortNamesToggle />
        <ProcessPicker />
        <EventPicker />
      </Menu>
      <Menu label="More actions" face={<MoreIcon />} title="Link, share, export, compare, shortcuts" alignEnd>
        <ShareButtons />
        <ExportMenu />
        <CompareOpener />
        <button type="button" className="menu-item" aria-keyshortcuts="?" onClick={() => toggleShortcuts()}>
          Shortcuts
        </button>
      </Menu>
    </div>
  );
}

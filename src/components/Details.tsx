// The selected frame's figures in a polite live region, so keyboard and screen-reader users hear
// where the selection went. "Copy name" copies the untrusted name as plain text. In a comparison
// the figures are those of both runs, for the frame selected last in any of its graphs.

import { useMemo, useState } from 'react';
import { frameInfo, functionInfo } from '../core/query/frame-info';
import { currentTable } from '../store/selectors';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { FrameFigures } from './FrameFigures';
import { FrameTransforms } from './TransformBar';
import { CompareDetails } from './compare/CompareDetails';
import { shownFigures } from '../controllers/compare-results';

export function Details() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const tree = useStore(currentTree);
  const node = useStore((s) => s.panes.main.selectedNode);
  const zoomNode = useStore((s) => s.panes.main.zoomNode);
  // No frame selected but a function picked in the open table: the details show that function.
  const fn = useStore((s) => (s.panes.main.selectedNode < 0 && s.analysis.panel !== 'none' ? s.analysis.selectedFunction : null));
  const table = useStore((s) => (fn !== null ? currentTable(s) : null));
  const comparing = useStore((s) => s.recordings.b.snapshot !== null);
  const compared = useStore((s) => {
    const sel = s.recordings.b.snapshot ? s.compare.results.selected : null;
    return sel && shownFigures(s, 'selected', sel.pane, sel.node);
  });
  const single = useMemo(() => {
    if (!snapshot || !tree || comparing) return null;
    if (node < 0 && fn !== null && table) return functionInfo(snapshot, table, fn);
    return frameInfo(snapshot, tree, node, zoomNode);
  }, [snapshot, tree, node, zoomNode, comparing, fn, table]);
  const info = comparing ? (compared ? { name: compared.reply.name } : null) : single;
  /** What the ✕ hid: a later selection (in any graph, or a function picked in the table) shows the details again. */
  const selection = compared ?? (node < 0 && fn !== null ? `function ${fn}` : node);
  const orientation = useStore((s) => s.orientation);
  // The analysis panel takes the right-hand side: the card floats over the graph's left instead.
  const panelOpen = useStore((s) => s.analysis.panel !== 'none' && !s.recordings.b.snapshot);
  const [closedFor, setClosedFor] = useState<unknown>(-2);
  const [copied, setCopied] = useState<{ name: string; ok: boolean } | null>(null);
  const copy = async () => {
    if (!info) return;
    try {
      await navigator.clipboard.writeText(info.name);
      setCopied({ name: info.name, ok: true });
    } catch {
      // No clipboard (e.g. a plain-http page): say so rather than fail silently.
      setCopied({ name: info.name, ok: false });
    }
  };
  // Hidden (but still announced) while nothing is selected or the user closed it; a new
  // selection shows it again.
  const shown = info !== null && closedFor !== selection;
  return (
    <section
      className={`frame-details${shown ? '' : ' visually-hidden'}${orientation === 'icicle' ? ' at-bottom' : ''}${panelOpen ? ' at-left' : ''}`}
      role="region"
      aria-label="Selected frame"
      aria-live="polite"
    >
      {info ? (
        <>
          {compared ? <CompareDetails figures={compared.reply} pane={compared.pane} /> : single && <FrameFigures info={single} />}
          <div className="frame-details-actions">
            <button type="button" className="btn btn-small" onClick={copy}>
              {copied?.name === info.name ? (copied.ok ? 'Copied' : 'Copy failed: select the name above') : 'Copy name'}
            </button>
            {(!comparing || compared?.pane === 'main') && <FrameTransforms name={single?.allCallSites ? single.name : undefined} />}
          </div>
          <button type="button" className="btn btn-quiet frame-details-close" aria-label="Hide the details" title="Hide the details (selecting another frame shows them)" onClick={() => setClosedFor(selection)}>
            ✕
          </button>
        </>
      ) : (
        <p className="muted">No frame selected. Click a frame, or focus the graph and press an arrow key.</p>
      )}
    </section>
  );
}

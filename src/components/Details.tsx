// The selected frame's figures in a polite live region, so keyboard and screen-reader users hear
// where the selection went. "Copy name" copies the untrusted name as plain text. In a comparison
// the figures are those of both runs, for the frame selected last in any of its graphs.

import { useMemo, useState } from 'react';
import { frameInfo } from '../store/frame-info';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { FrameFigures } from './FrameFigures';
import { FrameTransforms } from './TransformBar';
import { CompareDetails } from './compare/CompareDetails';
import { shownFigures } from '../controllers/compare-results';

export function Details() {
  const snapshot = useStore((s) => s.snapshot);
  const tree = useStore(currentTree);
  const node = useStore((s) => s.selectedNode);
  const zoomNode = useStore((s) => s.zoomNode);
  const comparing = useStore((s) => s.compare.snapshot !== null);
  const compared = useStore((s) => {
    const sel = s.compare.snapshot ? s.compare.results.selected : null;
    return sel && shownFigures(s, 'selected', sel.pane, sel.node);
  });
  const single = useMemo(() => (snapshot && tree && !comparing ? frameInfo(snapshot, tree, node, zoomNode) : null), [snapshot, tree, node, zoomNode, comparing]);
  const info = comparing ? (compared ? { name: compared.reply.name } : null) : single;
  /** What the ✕ hid: a later selection (in any graph) shows the details again. */
  const selection = compared ?? node;
  const orientation = useStore((s) => s.orientation);
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
      className={`frame-details${shown ? '' : ' visually-hidden'}${orientation === 'icicle' ? ' at-bottom' : ''}`}
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
            {(!comparing || compared?.pane === 'main') && <FrameTransforms />}
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

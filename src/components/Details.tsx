// The selected frame's figures in a polite live region, so keyboard and screen-reader users hear
// where the selection went. "Copy name" copies the untrusted name as plain text.

import { useMemo, useState } from 'react';
import { frameInfo, functionInfo } from '../store/frame-info';
import { currentTable } from '../store/selectors';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { FrameFigures } from './FrameFigures';
import { FrameTransforms } from './TransformBar';

export function Details() {
  const snapshot = useStore((s) => s.snapshot);
  const tree = useStore(currentTree);
  const node = useStore((s) => s.selectedNode);
  const zoomNode = useStore((s) => s.zoomNode);
  // No frame selected but a function picked in the open table: the details show that function.
  const fn = useStore((s) => (s.selectedNode < 0 && s.analysis.panel !== 'none' ? s.analysis.selectedFunction : null));
  const table = useStore((s) => (fn !== null ? currentTable(s) : null));
  const info = useMemo(() => {
    if (!snapshot || !tree) return null;
    if (node < 0 && fn !== null && table) return functionInfo(snapshot, table, fn);
    return frameInfo(snapshot, tree, node, zoomNode);
  }, [snapshot, tree, node, zoomNode, fn, table]);
  const shownFor = node < 0 && fn !== null ? `function ${fn}` : node;
  const orientation = useStore((s) => s.orientation);
  // The analysis panel takes the right-hand side: the card floats over the graph's left instead.
  const panelOpen = useStore((s) => s.analysis.panel !== 'none' && !s.compare.snapshot);
  const [closedFor, setClosedFor] = useState<number | string>(-2);
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
  const shown = info !== null && closedFor !== shownFor;
  return (
    <section
      className={`frame-details${shown ? '' : ' visually-hidden'}${orientation === 'icicle' ? ' at-bottom' : ''}${panelOpen ? ' at-left' : ''}`}
      role="region"
      aria-label="Selected frame"
      aria-live="polite"
    >
      {info ? (
        <>
          <FrameFigures info={info} />
          <div className="frame-details-actions">
            <button type="button" className="btn btn-small" onClick={copy}>
              {copied?.name === info.name ? (copied.ok ? 'Copied' : 'Copy failed: select the name above') : 'Copy name'}
            </button>
            <FrameTransforms name={info.allCallSites ? info.name : undefined} />
          </div>
          <button type="button" className="btn btn-quiet frame-details-close" aria-label="Hide the details" title="Hide the details (selecting another frame shows them)" onClick={() => setClosedFor(shownFor)}>
            ✕
          </button>
        </>
      ) : (
        <p className="muted">No frame selected. Click a frame, or focus the graph and press an arrow key.</p>
      )}
    </section>
  );
}

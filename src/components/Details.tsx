// The selected frame's figures in a polite live region, so keyboard and screen-reader users hear
// where the selection went. "Copy name" copies the untrusted name as plain text.

import { useMemo, useState } from 'react';
import { frameInfo } from '../store/frame-info';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { FrameFigures } from './FrameFigures';
import { FrameTransforms } from './TransformBar';

export function Details() {
  const snapshot = useStore((s) => s.snapshot);
  const tree = useStore(currentTree);
  const node = useStore((s) => s.selectedNode);
  const zoomNode = useStore((s) => s.zoomNode);
  const info = useMemo(() => (snapshot && tree ? frameInfo(snapshot, tree, node, zoomNode) : null), [snapshot, tree, node, zoomNode]);
  const orientation = useStore((s) => s.orientation);
  const [closedFor, setClosedFor] = useState(-2);
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
  const shown = info !== null && closedFor !== node;
  return (
    <section
      className={`frame-details${shown ? '' : ' visually-hidden'}${orientation === 'icicle' ? ' at-bottom' : ''}`}
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
            <FrameTransforms />
          </div>
          <button type="button" className="btn btn-quiet frame-details-close" aria-label="Hide the details" title="Hide the details (selecting another frame shows them)" onClick={() => setClosedFor(node)}>
            ✕
          </button>
        </>
      ) : (
        <p className="muted">No frame selected. Click a frame, or focus the graph and press an arrow key.</p>
      )}
    </section>
  );
}

// The hover tooltip: follows the store's hoverNode/hoverPos (set by the mouse interaction).
// Names are untrusted and only ever rendered as React text.

import { useMemo } from 'react';
import { useStore } from '../store/store';
import { frameInfo } from '../store/frame-info';
import { FrameFigures } from './FrameFigures';

const WIDTH = 380;

export function Tooltip() {
  const snapshot = useStore((s) => s.snapshot);
  const view = useStore((s) => s.view);
  const node = useStore((s) => s.hoverNode);
  const zoomNode = useStore((s) => s.zoomNode);
  const info = useMemo(() => (snapshot ? frameInfo(snapshot, view, node, zoomNode) : null), [snapshot, view, node, zoomNode]);
  const pos = useStore((s) => s.hoverPos);
  if (!info || !pos) return null;
  const wrapWidth = document.querySelector('.flame-wrap')?.clientWidth ?? 1000;
  const left = pos.x + 14 + WIDTH > wrapWidth ? Math.max(0, pos.x - 14 - WIDTH) : pos.x + 14;
  const top = pos.y > 160 ? pos.y - 12 : pos.y + 18;
  return (
    <div className="flame-tooltip" role="tooltip" style={{ left, top, maxWidth: WIDTH, transform: pos.y > 160 ? 'translateY(-100%)' : undefined }}>
      <FrameFigures info={info} />
    </div>
  );
}

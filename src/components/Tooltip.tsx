// The hover tooltip: follows the store's hoverNode/hoverPos (set by the mouse interaction).
// Names are untrusted and only ever rendered as React text.

import { useMemo } from 'react';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { frameInfo } from '../core/query/frame-info';
import { FrameFigures } from './FrameFigures';

const WIDTH = 380;

export function Tooltip() {
  const snapshot = useStore((s) => s.snapshot);
  const tree = useStore(currentTree);
  const node = useStore((s) => s.hoverNode);
  const zoomNode = useStore((s) => s.zoomNode);
  const info = useMemo(() => (snapshot && tree ? frameInfo(snapshot, tree, node, zoomNode) : null), [snapshot, tree, node, zoomNode]);
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

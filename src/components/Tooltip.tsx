// The hover tooltip: follows the store's hoverNode/hoverPos (set by the mouse interaction).
// Names are untrusted and only ever rendered as React text.

import { useMemo } from 'react';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { frameInfo } from '../core/query/frame-info';
import { FrameFigures } from './FrameFigures';
import { MAX_TOOLTIP_NAME } from '../core/views/shorten';
import { TipBox } from './TipBox';

const WIDTH = 380;

export function Tooltip() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const tree = useStore(currentTree);
  const node = useStore((s) => s.panes.main.hoverNode);
  const zoomNode = useStore((s) => s.panes.main.zoomNode);
  const info = useMemo(() => (snapshot && tree ? frameInfo(snapshot, tree, node, zoomNode) : null), [snapshot, tree, node, zoomNode]);
  const pos = useStore((s) => s.panes.main.hoverPos);
  if (!info || !pos) return null;
  return (
    <TipBox x={pos.x} y={pos.y} width={WIDTH} within=".flame-wrap" aboveFrom={160}>
      <FrameFigures info={info} maxName={MAX_TOOLTIP_NAME} />
    </TipBox>
  );
}

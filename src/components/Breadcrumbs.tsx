// The main graph's zoom path (ZoomPath.tsx, shared with the comparison panes).

import { mainSource } from '../controllers/flame-sources';
import { useStore } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import { ZoomPath } from './ZoomPath';

export function Breadcrumbs() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const tree = useStore(currentTree);
  const zoomNode = useStore((s) => s.panes.main.zoomNode);
  if (!snapshot || !tree || zoomNode >= tree.nodeCount) return null;
  return <ZoomPath label="Zoom path" tree={tree} frames={snapshot.frames} zoomNode={zoomNode} onZoom={(node) => mainSource.zoom(node)} />;
}

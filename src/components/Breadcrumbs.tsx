// The zoom path from "all" to the zoomed frame; clicking a crumb zooms out to it.

import { useLayoutEffect, useRef } from 'react';
import { frameName } from '../core/model/frame-table';
import { mainSource } from '../controllers/flame-sources';
import { useStore } from '../store/store';
import { ancestry, currentTree } from '../store/tree-helpers';

const MAX_CRUMBS = 40;

export function Breadcrumbs() {
  const list = useRef<HTMLOListElement>(null);
  const snapshot = useStore((s) => s.snapshot);
  const tree = useStore(currentTree);
  const zoomNode = useStore((s) => s.zoomNode);
  // One line that scrolls: keep the zoomed frame (the end) in view.
  useLayoutEffect(() => {
    if (list.current) list.current.scrollLeft = list.current.scrollWidth;
  }, [snapshot, tree, zoomNode]);
  if (!snapshot || !tree || zoomNode >= tree.nodeCount) return null;
  const full = ancestry(tree, zoomNode);
  // A 10,000-deep zoom would be 10,000 buttons: keep the head and the tail.
  const hidden = full.length > MAX_CRUMBS ? full.length - MAX_CRUMBS : 0;
  const path = hidden ? [...full.slice(0, 3), -1, ...full.slice(full.length - (MAX_CRUMBS - 3))] : full;
  return (
    <nav className="breadcrumbs" aria-label="Zoom path">
      <ol ref={list}>
        {path.map((node, i) => {
          if (node < 0)
            return (
              <li key="gap" className="crumb-gap">
                <span>… {hidden} more …</span>
              </li>
            );
          const name = node === 0 ? 'all' : frameName(snapshot.frames, tree.frame[node]);
          const last = i === path.length - 1;
          return (
            <li key={node}>
              {last ? (
                <span aria-current="location" title={name}>
                  {name}
                </span>
              ) : (
                <button type="button" className="crumb" title={name} onClick={() => mainSource.zoom(node)}>
                  {name}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

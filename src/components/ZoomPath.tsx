// The zoom path from "all" to the zoomed frame of any graph (the main one, each comparison pane);
// clicking a crumb zooms out to it. Names are untrusted and rendered as React text only.

import { useLayoutEffect, useRef } from 'react';
import { frameName, type FrameTable } from '../core/model/frame-table';
import type { CallTree } from '../core/model/call-tree';
import type { NodeIndex } from '../core/model/types';
import { ancestry } from '../store/tree-helpers';
import { cutName, shortenName } from '../core/views/shorten';

const MAX_CRUMBS = 40;
/** Names longer than this (about a crumb's widest, 22em) are shortened. */
const LONG_NAME = 40;

export interface ZoomPathProps {
  label: string;
  tree: CallTree;
  frames: FrameTable;
  zoomNode: NodeIndex;
  onZoom(node: NodeIndex): void;
  /** The pane's title, shown at the start of the strip (e.g. "A · baseline"). */
  heading?: string;
}

export function ZoomPath({ label, tree, frames, zoomNode, onZoom, heading }: ZoomPathProps) {
  const list = useRef<HTMLOListElement>(null);
  // One line that scrolls: keep the zoomed frame (the end) in view.
  useLayoutEffect(() => {
    if (list.current) list.current.scrollLeft = list.current.scrollWidth;
  }, [tree, zoomNode]);
  // A 10,000-deep zoom would be 10,000 buttons: keep the head and the tail.
  const full = ancestry(tree, zoomNode < tree.nodeCount ? zoomNode : 0);
  const hidden = full.length > MAX_CRUMBS ? full.length - MAX_CRUMBS : 0;
  const path = hidden ? [...full.slice(0, 3), -1, ...full.slice(full.length - (MAX_CRUMBS - 3))] : full;
  return (
    <nav className="breadcrumbs" aria-label={label}>
      {heading && <h2 className="compare-heading">{heading}</h2>}
      <ol ref={list}>
        {path.map((node, i) => {
          if (node < 0)
            return (
              <li key="gap" className="crumb-gap">
                <span>… {hidden} more …</span>
              </li>
            );
          // A long C++ name is shortened (template arguments and parameters elided, `<…>`, `()`)
          // so "all" and the callers keep their room; the full name is the crumb's title. A name
          // that fits a crumb is shown as it is.
          const name = node === 0 ? 'all' : frameName(frames, tree.frame[node]);
          const label = cutName(name.length > LONG_NAME ? shortenName(name) : name);
          return (
            <li key={node}>
              {i === path.length - 1 ? (
                <span aria-current="location" title={cutName(name)}>
                  {label}
                </span>
              ) : (
                <button type="button" className="crumb" title={cutName(name)} onClick={() => onZoom(node)}>
                  {label}
                </button>
              )}
            </li>
          );
        })}
      </ol>
    </nav>
  );
}

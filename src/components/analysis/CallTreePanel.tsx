// The call tree beside the flame graph: the tree the graph shows (view, transforms, time range,
// search; inverted = the reversed switch) as an expandable, virtualised ARIA treegrid, each node
// with its running total and self weight. The selected row is the graph's selected frame, so the
// two follow each other. Keys as in the Firefox Profiler: Up/Down move, Right expands (then goes
// to the first child), Left collapses (then goes to the parent), `*` expands everything below,
// Enter/Space select; Shift+F10 or the context-menu key opens the frame menu (FrameMenu.tsx) at the row; a transform's letter applies it.
// Names are untrusted and rendered as React text only.

import { useMemo, type KeyboardEvent, type MouseEvent } from 'react';
import { hasChildren, nodeFigures } from '../../core/query/call-tree-rows';
import { displayName } from '../../core/query/table-model';
import type { NodeIndex } from '../../core/model/types';
import { frameCss } from '../../core/palette';
import { formatCount, formatNs, formatPercent } from '../../format';
import { currentCallTreeRows } from '../../store/selectors';
import { useStore } from '../../store/store';
import { currentTree } from '../../store/tree-helpers';
import { useDarkTheme } from '../toolbar/FrameLegend';
import { movedRow, ROW_HEIGHT, useVirtualRows, VirtualGrid } from './VirtualRows';
import { frameTargetOf, runFrameShortcut } from '../../controllers/frame-actions';
import { isMenuKey, useFrameMenu } from '../FrameMenu';
import { cutName } from '../../core/views/shorten';

const HEADERS = ['Running', 'Running %', 'Self', 'Self %', 'Function'];
/** Indentation per level, and the deepest level indented (deeper rows say their level). */
const INDENT = 10;
const MAX_INDENT = 24;

export function CallTreePanel() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const tree = useStore(currentTree);
  const rows = useStore(currentCallTreeRows);
  const expanded = useStore((s) => s.callTree.expanded);
  const selected = useStore((s) => s.panes.main.selectedNode);
  const reversed = useStore((s) => s.reversed);
  const matches = useStore((s) => s.search.matches);
  const short = useStore((s) => s.analysis.shortNames);
  const dark = useDarkTheme();
  const pos = useMemo(() => (rows && selected >= 0 ? rows.indexOf(selected) : -1), [rows, selected]);
  // The frame menu of a row (right-click, Shift+F10, the menu key); a transform's letter applies it.
  const menu = useFrameMenu();
  const count = rows?.length ?? 0;
  const view = useVirtualRows(count, pos, rows !== null);
  const { first, last, pageRows, grid } = view;
  const { select, expandCallTreeNode, expandCallTreeBelow, setReversed } = useStore.getState();

  const inverted = (
    <label className="ct-invert" title="Bottom-up: the functions where the time is spent at the top, their callers below (the graph is reversed too)">
      <input type="checkbox" checked={reversed} onChange={(e) => setReversed(e.currentTarget.checked)} /> Inverted
    </label>
  );
  if (!tree || !snapshot || !rows) {
    return (
      <section className="fn-table-wrap" aria-label="Call tree">
        <div className="ct-bar">{inverted}</div>
      </section>
    );
  }
  const frames = snapshot.frames;
  const ns = snapshot.meta.weightUnit === 'nanoseconds';
  const weight = (w: number) => (ns ? formatNs(w) : formatCount(w));
  const rowId = (i: number) => `ct-row-${i}`;

  const openMenu = (node: NodeIndex, x: number, y: number) => {
    const target = frameTargetOf(node);
    if (target) menu.open(target, { x, y, returnFocus: grid.current });
  };
  const menuAt = (i: number, node: NodeIndex) => {
    const r = document.getElementById(rowId(i))?.getBoundingClientRect();
    openMenu(node, r ? r.left + 24 : 0, r ? r.bottom : 0);
  };
  const shortcut = (node: NodeIndex, key: string) => {
    const target = key.length === 1 ? frameTargetOf(node) : null;
    return target !== null && runFrameShortcut(key, target);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey || e.ctrlKey || e.metaKey || count === 0) return;
    const node = pos >= 0 ? rows[pos] : -1;
    let to = movedRow(e.key, pos, count, pageRows) ?? -2;
    if (to !== -2) {
      // Moved: selected below.
    } else if (e.key === 'Enter' || e.key === ' ') to = Math.max(0, pos);
    else if (node < 0) return;
    else if (e.key === 'ArrowRight') {
      if (!hasChildren(tree, node)) return;
      if (!expanded[node]) expandCallTreeNode(node, true);
      else if (pos + 1 < count && tree.parent[rows[pos + 1]] === node) to = pos + 1;
    } else if (e.key === 'ArrowLeft') {
      if (expanded[node] && hasChildren(tree, node)) expandCallTreeNode(node, false);
      else if (node > 0) select(tree.parent[node]);
    } else if (e.key === '*') expandCallTreeBelow(node);
    else if (isMenuKey(e)) menuAt(pos, node);
    else if (!shortcut(node, e.key)) return;
    e.preventDefault();
    if (to !== -2) select(rows[Math.max(0, Math.min(count - 1, to))]);
  };
  const onRowContextMenu = (e: MouseEvent, node: NodeIndex) => {
    e.preventDefault();
    select(node);
    openMenu(node, e.clientX, e.clientY);
  };

  const items = [];
  for (let i = first; i < last; i++) {
    const node = rows[i];
    const fig = nodeFigures(tree, frames, node);
    const isSelected = i === pos;
    const parent = hasChildren(tree, node);
    const open = parent && expanded[node] === 1;
    const depth = tree.depth[node];
    const match = matches !== null && node > 0 && matches[tree.frame[node]] === 1;
    items.push(
      <div
        key={node}
        id={rowId(i)}
        role="row"
        aria-rowindex={i + 2}
        aria-level={depth + 1}
        aria-expanded={parent ? open : undefined}
        aria-selected={isSelected}
        data-node={node}
        className={`fn-row ct-row${isSelected ? ' selected' : ''}`}
        style={{ transform: `translateY(${i * ROW_HEIGHT}px)` }}
        onClick={() => select(node)}
        onDoubleClick={() => parent && expandCallTreeNode(node, !open)}
        onContextMenu={(e) => onRowContextMenu(e, node)}
      >
        <div role="gridcell" className="fn-num">{weight(fig.total)}</div>
        <div role="gridcell" className="fn-num">{formatPercent(fig.totalShare)}</div>
        <div role="gridcell" className="fn-num">{weight(fig.self)}</div>
        <div role="gridcell" className="fn-num">{formatPercent(fig.selfShare)}</div>
        <div role="gridcell" className="fn-name ct-name" title={cutName(fig.name)} style={{ paddingLeft: Math.min(depth, MAX_INDENT) * INDENT }}>
          <span
            className="ct-twisty"
            aria-hidden="true"
            onClick={(e) => {
              if (!parent) return;
              e.stopPropagation();
              expandCallTreeNode(node, !open);
            }}
          >
            {parent ? (open ? '▾' : '▸') : ''}
          </span>
          {depth > MAX_INDENT && <span className="ct-level">{depth}</span>}
          <span className="fn-swatch" style={{ background: node === 0 ? 'var(--border-strong)' : frameCss(fig.name, fig.flags, dark) }} aria-hidden="true" />
          <span className={`fn-name-text${match ? ' ct-match' : ''}`}>{node === 0 ? 'all' : displayName(fig.name, short)}</span>
          {fig.inlined && <span className="fn-badge">inlined</span>}
          {fig.kernel && <span className="fn-badge">kernel</span>}
        </div>
      </div>,
    );
  }

  const what = reversed ? 'inverted (bottom-up)' : 'top-down';
  return (
    <section className="fn-table-wrap" aria-label="Call tree">
      <div className="ct-bar">
        <p className="fn-caption" role="status" data-testid="ct-caption">
          {`${count.toLocaleString('en-US')} of ${tree.nodeCount.toLocaleString('en-US')} nodes shown, ${what}${matches ? ', paths through search matches' : ''}`}
        </p>
        {inverted}
      </div>
      <VirtualGrid
        role="treegrid"
        label="Call tree"
        count={count}
        selected={pos}
        rowId={rowId}
        help="ct-help"
        onKeyDown={onKeyDown}
        view={view}
        headClass="fn-row ct-row fn-head-row"
        headers={HEADERS.map((h, k) => (
          <div key={h} role="columnheader" className={k === HEADERS.length - 1 ? 'fn-name' : 'fn-num'}>
            {h}
          </div>
        ))}
      >
        {items}
      </VirtualGrid>
      <p id="ct-help" className="visually-hidden">
        Up and down arrows select a frame in the graph; right expands a row, left collapses it or goes to its caller; star expands every row below; Shift+F10 opens its menu of transforms.
      </p>
      {menu.element}
    </section>
  );
}

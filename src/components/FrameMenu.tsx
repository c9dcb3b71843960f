// The context menu of a frame (flame graph) or a function (tables): the transforms with their
// shortcut keys, Copy name, Copy stack, Search for this name, Open callers & callees
// (controllers/frame-actions.ts says what each does).
//
// A real ARIA menu, unlike the toolbar's Menu (a disclosure of mixed controls): role=menu with
// menuitems, the focus on the first item when it opens, ↑/↓ (wrapping), Home/End, a letter runs
// its shortcut, Enter/Space/click runs the focused item; Escape, Tab or a press outside closes it,
// and Escape gives the focus back to where the menu was opened from. Placed at the pointer (or the
// frame, from the keyboard) and kept inside the window. Names are untrusted: React text only.
//
// Reuse: `const menu = useFrameMenu();` then `menu.open(target, anchor)` from a contextmenu or
// key handler, and render `{menu.element}`.

import { useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { frameActions, type FrameAction, type FrameTarget } from '../controllers/frame-actions';
import { useDismiss } from './use-dismiss';
import { cutName } from '../core/views/shorten';

export interface MenuAnchor {
  /** Viewport coordinates of the menu's top-left corner (before it is kept inside the window). */
  x: number;
  y: number;
  /** Where the focus goes back on Escape (the graph, the table). */
  returnFocus: HTMLElement | null;
}

/** Whether a key event asks for the context menu from the keyboard (Shift+F10, the menu key). */
export function isMenuKey(e: { key: string; shiftKey: boolean }): boolean {
  return e.key === 'ContextMenu' || (e.key === 'F10' && e.shiftKey);
}

export function useFrameMenu(): { open(target: FrameTarget, anchor: MenuAnchor): void; element: ReactNode } {
  const [state, setState] = useState<{ target: FrameTarget; anchor: MenuAnchor; actions: FrameAction[] } | null>(null);
  return {
    open: (target, anchor) => setState({ target, anchor, actions: frameActions(target) }),
    element: state ? <FrameMenu key={`${state.target.name}\u0000${state.target.node}\u0000${state.anchor.x},${state.anchor.y}`} {...state} onClose={() => setState(null)} /> : null,
  };
}

interface FrameMenuProps {
  target: FrameTarget;
  anchor: MenuAnchor;
  actions: FrameAction[];
  onClose(): void;
}

function FrameMenu({ target, anchor, actions, onClose }: FrameMenuProps) {
  const box = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState({ x: anchor.x, y: anchor.y });
  useDismiss(true, box, onClose);
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const r = el.getBoundingClientRect();
    setPos({ x: Math.max(0, Math.min(anchor.x, window.innerWidth - r.width - 4)), y: Math.max(0, Math.min(anchor.y, window.innerHeight - r.height - 4)) });
    items()[0]?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- placed once, when it opens
  }, []);
  const items = () => [...(box.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  const close = (refocus: boolean) => {
    onClose();
    if (refocus) anchor.returnFocus?.focus();
  };
  const run = (a: FrameAction) => {
    if (a.disabled !== null) return;
    close(true);
    void a.run();
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const list = items();
    const at = list.indexOf(document.activeElement as HTMLButtonElement);
    let to = -1;
    if (e.key === 'ArrowDown') to = (at + 1) % list.length;
    else if (e.key === 'ArrowUp') to = (at - 1 + list.length) % list.length;
    else if (e.key === 'Home') to = 0;
    else if (e.key === 'End') to = list.length - 1;
    else if (e.key === 'Escape' || isMenuKey(e)) {
      e.preventDefault();
      e.stopPropagation();
      close(true);
      return;
    } else if (e.key === 'Tab') {
      e.preventDefault();
      close(true);
      return;
    } else if (e.key.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      const a = actions.find((x) => x.shortcut === e.key);
      if (a) {
        e.preventDefault();
        run(a);
      }
      return;
    } else return;
    e.preventDefault();
    e.stopPropagation();
    list[to]?.focus();
  };
  return createPortal(
    <div
      ref={box}
      className="menu-panel frame-menu"
      role="menu"
      aria-label={`Actions for ${target.name}`}
      style={{ left: pos.x, top: pos.y }}
      onKeyDown={onKeyDown}
      onContextMenu={(e) => e.preventDefault()}
      onBlur={(e) => {
        if (!box.current?.contains(e.relatedTarget as Node | null) && e.relatedTarget !== null) onClose();
      }}
    >
      <p className="frame-menu-title" aria-hidden="true" title={cutName(target.name)}>
        {cutName(target.name)}
      </p>
      {actions.map((a) => (
        <button
          key={a.id}
          type="button"
          role="menuitem"
          tabIndex={-1}
          className={`menu-item${a.group ? ' menu-group-start' : ''}`}
          aria-disabled={a.disabled !== null || undefined}
          aria-keyshortcuts={a.shortcut === undefined ? undefined : a.shortcut === a.shortcut.toLowerCase() ? a.shortcut : `Shift+${a.shortcut}`}
          title={a.disabled ?? undefined}
          onClick={() => run(a)}
        >
          <span className="frame-menu-label">{a.label}</span>
          {a.shortcut && <kbd aria-hidden="true">{a.shortcut}</kbd>}
        </button>
      ))}
    </div>,
    document.body,
  );
}

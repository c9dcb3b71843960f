// A toolbar menu: a button that shows a panel of controls below it (the disclosure pattern:
// aria-expanded on the button, a labelled group as the panel). The panel stays mounted while
// closed (hidden), so the controls inside keep their state (e.g. what Share has uploaded).
// Escape, a click outside or the focus moving outside closes it; Escape gives the focus back to
// the button.

import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export interface MenuProps {
  /** The button's accessible name and the panel's label, e.g. "View". */
  label: string;
  /** What the button shows (text, an icon); the label when absent. */
  face?: ReactNode;
  /** A tooltip for the button. */
  title?: string;
  /** Align the panel with the button's right edge (menus at the end of the toolbar). */
  alignEnd?: boolean;
  children: ReactNode;
}

export function Menu({ label, face, title, alignEnd, children }: MenuProps) {
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const id = `menu-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  useEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      setOpen(false);
      button.current?.focus();
    };
    const onDown = (e: Event) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onDown);
    document.addEventListener('focusin', onDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onDown);
      document.removeEventListener('focusin', onDown);
    };
  }, [open]);
  return (
    <div className="menu" ref={box}>
      <button
        ref={button}
        type="button"
        className="btn menu-button"
        aria-label={face ? label : undefined}
        aria-expanded={open}
        aria-controls={id}
        title={title}
        onClick={() => setOpen(!open)}
      >
        {face ?? label}
        <span className="menu-caret" aria-hidden="true">
          ▾
        </span>
      </button>
      <div id={id} className={`menu-panel${alignEnd ? ' menu-end' : ''}`} role="group" aria-label={label} hidden={!open}>
        {children}
      </div>
    </div>
  );
}

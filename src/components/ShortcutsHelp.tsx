// The keyboard shortcuts list, toggled by "?" (and the toolbar's Shortcuts button).

import { useEffect, useRef } from 'react';
import { useStore } from '../store/store';

const SHORTCUTS: [string, string][] = [
  ['↑ / ↓', 'Heaviest child / parent (swapped in icicle)'],
  ['← / →', 'Previous / next sibling'],
  ['Enter', 'Zoom to the selected frame'],
  ['Escape', 'Zoom out one level'],
  ['Shift+F10 / ☰ / right-click', 'The frame’s menu (transforms, copy, search)'],
  ['f / F', 'Focus on the subtree / on the function'],
  ['g', 'Focus on the frame’s library (or namespace)'],
  ['m / d', 'Merge the function into its callers / drop its samples'],
  ['c / C', 'Collapse the function / its library (or namespace)'],
  ['r / R', 'Collapse recursion / direct recursion only'],
  ['Ctrl+Z / ⌘Z', 'Undo the last transform'],
  ['/', 'Focus the search'],
  ['Enter / Shift+Enter in search', 'Next / previous match'],
  ['?', 'Show or hide this list'],
  ['Click', 'Select and zoom to a frame'],
  ['Ctrl+wheel / pinch', 'Zoom around the cursor'],
  ['Wheel / drag / Shift+wheel', 'Scroll the stack / pan / pan'],
  ['Double-click on empty space', 'Reset zoom'],
];

export function ShortcutsHelp() {
  const open = useStore((s) => s.shortcutsOpen);
  const toggle = useStore((s) => s.toggleShortcuts);
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return;
    // Focus the list while open, and give focus back to where it was when it closes.
    const previous = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    ref.current?.focus();
    return () => previous?.focus();
  }, [open]);
  if (!open) return null;
  return (
    <div
      ref={ref}
      className="shortcuts"
      role="dialog"
      aria-label="Keyboard shortcuts"
      tabIndex={-1}
      onKeyDown={(e) => {
        if (e.key === 'Escape' || e.key === '?') {
          e.stopPropagation();
          toggle(false);
        }
      }}
    >
      <h2>Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map(([key, what]) => (
          <div key={key}>
            <dt>
              <kbd>{key}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <button type="button" className="btn btn-small" onClick={() => toggle(false)}>
        Close
      </button>
    </div>
  );
}

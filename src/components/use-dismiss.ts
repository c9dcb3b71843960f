// Closes a popup (menu, panel) on Escape or a pointer press outside its box, while it is open.

import { useEffect, type RefObject } from 'react';

export function useDismiss(open: boolean, box: RefObject<HTMLElement | null>, close: () => void): void {
  useEffect(() => {
    if (!open) return;
    const onEvent = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) close();
    };
    document.addEventListener('keydown', onEvent);
    document.addEventListener('pointerdown', onEvent);
    return () => {
      document.removeEventListener('keydown', onEvent);
      document.removeEventListener('pointerdown', onEvent);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `close` is a fresh closure each render; what it does does not change while open
  }, [open, box]);
}

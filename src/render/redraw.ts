// The redraw loop every canvas view shares (the flame graph, the time chart): redraws coalesced
// into one per animation frame, marked aria-busy until drawn, and cancelled on destroy.

import { watchTheme, type Theme } from '../core/palette';

export class Redraw {
  private frame = 0;

  constructor(
    private readonly container: HTMLElement,
    private readonly draw: () => void,
  ) {}

  /** Asks for a redraw on the next animation frame (coalesced). */
  schedule(): void {
    this.container.setAttribute('aria-busy', 'true');
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  /** Whether a redraw is waiting for its frame. */
  get pending(): boolean {
    return this.frame !== 0;
  }

  cancel(): void {
    if (this.frame) cancelAnimationFrame(this.frame);
    this.frame = 0;
  }

  /** Redraws when the page's theme changes, after `apply` took the new theme; returns the unwatch. */
  onTheme(apply: (theme: Theme) => void): () => void {
    return watchTheme((theme) => {
      apply(theme);
      this.schedule();
    });
  }
}

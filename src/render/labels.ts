// Fitting frame labels into their rectangles with an ellipsis. measureText is the expensive part,
// so the full width of each frame's name is measured once (cached by frame) and a truncation is
// estimated from the average character width, then corrected with a couple of measurements.

const ELLIPSIS = '…';

export class LabelFitter {
  private full = new Map<number, number>();
  private ellipsis = 0;

  constructor(
    private readonly ctx: CanvasRenderingContext2D,
    private readonly font: string,
  ) {}

  reset(): void {
    this.full.clear();
    this.ellipsis = 0;
  }

  /** The label for `name` that fits in `width` px: the name, a prefix + "…", or "" . */
  fit(key: number, name: string, width: number): string {
    const ctx = this.ctx;
    ctx.font = this.font;
    let full = this.full.get(key);
    if (full === undefined) {
      full = ctx.measureText(name).width;
      this.full.set(key, full);
    }
    if (full <= width) return name;
    if (!this.ellipsis) this.ellipsis = ctx.measureText(ELLIPSIS).width;
    const room = width - this.ellipsis;
    if (room <= 0) return '';
    let n = Math.min(name.length - 1, Math.floor((name.length * room) / full));
    if (n < 1) return '';
    let label = name.slice(0, n) + ELLIPSIS;
    let measured = ctx.measureText(label).width;
    while (measured > width && n > 1) {
      n--;
      label = name.slice(0, n) + ELLIPSIS;
      measured = ctx.measureText(label).width;
    }
    return measured <= width ? label : '';
  }
}

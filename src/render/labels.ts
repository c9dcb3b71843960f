// Fitting frame labels into their rectangles with an ellipsis, without calling measureText per
// frame per draw: each character's advance is measured once per font (ASCII in a typed array,
// others in a map) and a label's width is the sum of its characters' advances. Kerning is
// ignored, so widths are slightly overestimated or underestimated by a fraction of a pixel per
// character; a 2 px margin absorbs it.

const ELLIPSIS = '…';
const MARGIN = 2;

export class LabelFitter {
  private ascii = new Float32Array(128).fill(-1);
  private other = new Map<number, number>();
  private ellipsis = -1;
  /** Full width of each key's name (frame index; -1 is the root), measured on first use. */
  private full = new Map<number, number>();

  constructor(
    private readonly ctx: CanvasRenderingContext2D,
    private readonly font: string,
  ) {}

  reset(): void {
    this.ascii.fill(-1);
    this.other.clear();
    this.full.clear();
    this.ellipsis = -1;
  }

  private advance(code: number): number {
    if (code < 128) {
      let w = this.ascii[code];
      if (w < 0) w = this.ascii[code] = this.measure(String.fromCharCode(code));
      return w;
    }
    let w = this.other.get(code);
    if (w === undefined) {
      w = this.measure(String.fromCharCode(code));
      this.other.set(code, w);
    }
    return w;
  }

  private measure(text: string): number {
    this.ctx.font = this.font;
    return this.ctx.measureText(text).width;
  }

  /** Width of a whole name, in px. */
  widthOf(key: number, name: string): number {
    let w = this.full.get(key);
    if (w === undefined) {
      w = 0;
      for (let i = 0; i < name.length; i++) w += this.advance(name.charCodeAt(i));
      this.full.set(key, w);
    }
    return w;
  }

  /** The label for `name` that fits in `width` px: the name, a prefix + "…", or "". */
  fit(key: number, name: string, width: number): string {
    const room = width - MARGIN;
    if (this.widthOf(key, name) <= room) return name;
    if (this.ellipsis < 0) this.ellipsis = this.measure(ELLIPSIS);
    const limit = room - this.ellipsis;
    let used = 0;
    let n = 0;
    while (n < name.length) {
      const w = this.advance(name.charCodeAt(n));
      if (used + w > limit) break;
      used += w;
      n++;
    }
    // Do not split a surrogate pair.
    if (n > 0 && n < name.length && (name.charCodeAt(n - 1) & 0xfc00) === 0xd800) n--;
    return n < 1 ? '' : name.slice(0, n) + ELLIPSIS;
  }
}

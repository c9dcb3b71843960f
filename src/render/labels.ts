// Fitting frame labels into their rectangles, without calling measureText per frame per draw:
// each character's advance is measured once per font (ASCII in a typed array, others in a map)
// and a label's width is the sum of its characters' advances. Kerning is ignored, so widths are
// slightly overestimated or underestimated by a fraction of a pixel per character; a 2 px margin
// absorbs it.
//
// A name that does not fit is first shortened as "Short names" does (template arguments and
// argument lists elided, Rust hashes dropped), then cut in the middle so that its last `::`
// component survives: `wl::expr::…::parse_sum`. The last component is what tells sibling
// frames apart; the head of a qualified name is the same for most frames of a crate.

import { lastTopLevelColons, shortenName } from '../core/views/shorten';

const ELLIPSIS = '…';
const MARGIN = 2;

export class LabelFitter {
  private ascii = new Float32Array(128).fill(-1);
  private other = new Map<number, number>();
  private ellipsis = -1;
  /** Full width of each key's name (frame index; -1 is the root), measured on first use. */
  private full = new Map<number, number>();
  /** The shortened name of each key whose full name did not fit once. */
  private short = new Map<number, string>();

  constructor(
    private readonly ctx: CanvasRenderingContext2D,
    private readonly font: string,
  ) {}

  reset(): void {
    this.ascii.fill(-1);
    this.other.clear();
    this.full.clear();
    this.short.clear();
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

  private widthOfText(text: string, from = 0, to = text.length): number {
    let w = 0;
    for (let i = from; i < to; i++) w += this.advance(text.charCodeAt(i));
    return w;
  }

  /**
   * The label for `name` that fits in `width` px: the name; else its short form; else the short
   * form cut in the middle keeping the last `::` component; else the start of that component
   * with "…"; or "".
   */
  fit(key: number, name: string, width: number): string {
    const room = width - MARGIN;
    if (this.widthOf(key, name) <= room) return name;
    let text = this.short.get(key);
    if (text === undefined) this.short.set(key, (text = shortenName(name)));
    const w = text === name ? Infinity : this.widthOfText(text);
    if (w <= room) return text;
    if (this.ellipsis < 0) this.ellipsis = this.measure(ELLIPSIS);
    const cut = lastTopLevelColons(text);
    if (cut > 0) {
      const tail = this.widthOfText(text, cut);
      const limit = room - this.ellipsis - tail;
      if (limit >= 0) {
        // As much of the head as fits, ending after a `::` where one is in reach.
        const n = this.prefixFitting(text, limit, cut);
        const colons = text.lastIndexOf('::', n - 2);
        const head = colons > 0 && colons + 2 <= n && n - (colons + 2) < 12 ? colons + 2 : n;
        return head > 0 ? text.slice(0, head) + ELLIPSIS + text.slice(cut) : ELLIPSIS + text.slice(cut + 2);
      }
      // No room for its `::`: the last component after "…", or else its start.
      const last = text.slice(cut + 2);
      return this.widthOfText(last) + this.ellipsis <= room ? ELLIPSIS + last : this.endCut(last, room);
    }
    return this.endCut(text, room);
  }

  /** How many characters of `text` (at most `max`) fit in `limit` px, not splitting a surrogate pair. */
  private prefixFitting(text: string, limit: number, max: number): number {
    let used = 0;
    let n = 0;
    while (n < max) {
      const w = this.advance(text.charCodeAt(n));
      if (used + w > limit) break;
      used += w;
      n++;
    }
    if (n > 0 && n < text.length && (text.charCodeAt(n - 1) & 0xfc00) === 0xd800) n--;
    return n;
  }

  /** A prefix of `text` + "…" within `room` px, or "". */
  private endCut(text: string, room: number): string {
    if (this.widthOfText(text) <= room) return text;
    const n = this.prefixFitting(text, room - this.ellipsis, text.length);
    return n < 1 ? '' : text.slice(0, n) + ELLIPSIS;
  }
}

/**
 * A name split after `::`, `,` and `<` (and spaces, which break anyway), so a tooltip can wrap a
 * long name only there (each piece followed by a <wbr>), never in the middle of an identifier.
 */
export function breakableParts(name: string): string[] {
  const parts: string[] = [];
  let from = 0;
  for (let i = 0; i < name.length; i++) {
    const c = name.charCodeAt(i);
    const end = c === 58 /* : */ && name.charCodeAt(i + 1) === 58 ? i + 2 : c === 44 /* , */ || c === 60 /* < */ ? i + 1 : -1;
    if (end < 0) continue;
    if (end < name.length) {
      parts.push(name.slice(from, end));
      from = end;
    }
    i = end - 1;
  }
  parts.push(name.slice(from));
  return parts;
}

// A small tolerant scanner for flame graph SVGs (flamegraph.pl, inferno, flameview's own), fed
// one line at a time. It is not an XML parser: it recognises the one element shape every
// flame graph writer emits per frame,
//
//   <g ATTRS> [<a …>] <title>NAME (COUNT UNIT, P%[; D%])</title> <rect ATTRS/> … </g>
//
// and the first <svg …> tag. Everything else (script, style, text, defs) is skipped.
//
// Invariants:
// - memory is bounded by the frames found (one row of columns each, at most MAX_FRAMES, beyond
//   which the input is an ImportError) plus a pending buffer that never holds more than
//   MAX_PENDING_LINES lines or MAX_PENDING_CHARS characters: a frame element spans a handful of
//   lines in every known writer, so a longer unmatched stretch is dropped; scanning work is
//   linear in the input (each line is rescanned at most MAX_PENDING_LINES times);
// - names are XML-decoded (&amp; &lt; &gt; &quot; &apos; and numeric references); a title whose
//   figures cannot be read is reported (line and quoted text), never guessed;
// - regexes are linear (negated classes only), so hostile input cannot backtrack.

import { ImportError, quoteInput, type ImportWarning } from '../../model/profile';

const MAX_PENDING_LINES = 12;
const MAX_PENDING_CHARS = 4 * 1024 * 1024;
/** About 2 GB of flamegraph.pl SVG; columns for this many frames take about 1 GB. */
export const MAX_FRAMES = 8_000_000;
const MAX_WARNINGS = 20;

/** Scanned frames as columns, in document order. */
export interface SvgFrames {
  count: number;
  name: string[];
  /** The frame's total: flameview's fv:t, else inferno's fg:w, else the title's count. */
  total: number[];
  /** Span start and width in one unit per file (fg:x/fg:w, or rect x/width as px or %). */
  x: number[];
  w: number[];
  y: number[];
  /** 1-based line on which the frame's <rect> ended. */
  line: number[];
  /** flameview's own attributes (NaN when absent). */
  fvDepth: number[];
  fvSelf: number[];
  fvSamples: number[];
  fvSelfSamples: number[];
  fvFlags: number[];
  /** Attributes of the first <svg> tag (raw, undecoded), or '' when none was seen. */
  svgAttrs: string;
  /** Count unit from titles ('ns', 'samples', …) of the first frame, or ''. */
  unit: string;
  /** True when titles carry a differential delta ("; +1.23%"). */
  differential: boolean;
  sawSvgEnd: boolean;
  /** A flame graph writer's marker was seen (comment, script variable, class or namespace). */
  sawMarker: boolean;
  lines: number;
  warnings: ImportWarning[];
  skipped: number;
}

const FRAME_RE = /<g\b([^>]*)>\s*(?:<a\b[^>]*>\s*)?<title>([^<]*)<\/title>\s*<rect\b([^>]*)>/g;
const SVG_TAG_RE = /<svg\b([^>]*)>/;
const MARKER_RE = /Flame graph stack visualization|flamegraph|jonhoo\/inferno|urn:flameview|class="func_g"/i;
// name, count, rest ("ns, 0.19%" / " samples, 10.92%; 0.00%")
const TITLE_RE = /^([\s\S]*) \(([0-9][0-9,]*(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?)([^()]*)\)$/;
const DELTA_RE = /; *[+-]?[0-9.]+%/;

export class SvgScanner {
  readonly out: SvgFrames = {
    count: 0,
    name: [],
    total: [],
    x: [],
    w: [],
    y: [],
    line: [],
    fvDepth: [],
    fvSelf: [],
    fvSamples: [],
    fvSelfSamples: [],
    fvFlags: [],
    svgAttrs: '',
    unit: '',
    differential: false,
    sawSvgEnd: false,
    sawMarker: false,
    lines: 0,
    warnings: [],
    skipped: 0,
  };
  private pending = '';
  private pendingLines = 0;
  private seenSvg = false;

  /** `source` names the input in errors. */
  constructor(private readonly source?: string) {}

  line(text: string, lineNumber: number): void {
    const out = this.out;
    out.lines = lineNumber;
    if (!out.sawMarker && MARKER_RE.test(text)) out.sawMarker = true;
    if (text.indexOf('</svg>') >= 0) out.sawSvgEnd = true;
    // Only lines that may belong to a frame or the <svg> tag are kept.
    if (this.pendingLines === 0 && text.indexOf('<') < 0) return;
    this.pending = this.pendingLines === 0 ? text : this.pending + '\n' + text;
    this.pendingLines++;
    this.scan(lineNumber);
  }

  private scan(lineNumber: number): void {
    let buf = this.pending;
    if (!this.seenSvg) {
      const m = SVG_TAG_RE.exec(buf);
      if (m) {
        this.seenSvg = true;
        this.out.svgAttrs = m[1];
        if (/xmlns:(?:fg|fv)=/.test(m[1])) this.out.sawMarker = true;
      } else if (buf.indexOf('<svg') >= 0) {
        this.trim(buf.slice(buf.indexOf('<svg')));
        return;
      }
    }
    FRAME_RE.lastIndex = 0;
    let end = 0;
    for (let m = FRAME_RE.exec(buf); m; m = FRAME_RE.exec(buf)) {
      this.addFrame(m[1], m[2], m[3], lineNumber);
      end = FRAME_RE.lastIndex;
    }
    if (end > 0) buf = buf.slice(end);
    const g = buf.lastIndexOf('<g');
    this.trim(g < 0 ? '' : buf.slice(g));
  }

  private trim(rest: string): void {
    if (rest === '') {
      this.pending = '';
      this.pendingLines = 0;
      return;
    }
    let lines = 1;
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n', i + 1)) lines++;
    if (lines > MAX_PENDING_LINES || rest.length > MAX_PENDING_CHARS) {
      // No frame element is this long: whatever opened it was not a frame.
      this.pending = '';
      this.pendingLines = 0;
      return;
    }
    this.pending = rest;
    this.pendingLines = lines;
  }

  private addFrame(gAttrs: string, rawTitle: string, rectAttrs: string, lineNumber: number): void {
    const out = this.out;
    if (out.count >= MAX_FRAMES) {
      throw new ImportError(`a flamegraph SVG of at most ${MAX_FRAMES.toLocaleString('en-US')} frames`, lineNumber, 'more frames', this.source);
    }
    const title = decodeXml(rawTitle);
    const m = TITLE_RE.exec(title);
    if (!m) return this.warn(lineNumber, `frame title without a count "(N samples, P%)": ${quoteInput(title)}`);
    const rectX = numberAttr(rectAttrs, 'x');
    const rectW = numberAttr(rectAttrs, 'width');
    const rectY = numberAttr(rectAttrs, 'y');
    if (Number.isNaN(rectX) || Number.isNaN(rectW) || Number.isNaN(rectY)) {
      return this.warn(lineNumber, `frame without numeric x, y and width: ${quoteInput(title)}`);
    }
    const fgX = numberAttr(rectAttrs, 'fg:x');
    const fgW = numberAttr(rectAttrs, 'fg:w');
    const useFg = !Number.isNaN(fgX) && !Number.isNaN(fgW);
    const fvTotal = numberAttr(gAttrs, 'fv:t');
    const count = Number(m[2].replace(/,/g, ''));
    const rest = m[3];
    const total = !Number.isNaN(fvTotal) ? fvTotal : useFg ? fgW : count;
    // A weight past 2^53 is no count any tool wrote, and a few of them sum to Infinity.
    const weights = [total, numberAttr(gAttrs, 'fv:s'), numberAttr(gAttrs, 'fv:n'), numberAttr(gAttrs, 'fv:ns')];
    if (weights.some((w) => !Number.isNaN(w) && !(Math.abs(w) <= Number.MAX_SAFE_INTEGER))) {
      return this.warn(lineNumber, `frame with a weight beyond 2^53 (${quoteInput(String(weights.find((w) => !(Math.abs(w) <= Number.MAX_SAFE_INTEGER))))}): ${quoteInput(title)}`);
    }
    if (out.count === 0) {
      const unit = /^ *([^,;]*?) *,/.exec(rest);
      out.unit = unit ? unit[1] : '';
    }
    if (!out.differential && DELTA_RE.test(rest)) out.differential = true;

    out.name.push(m[1]);
    out.total.push(total);
    out.x.push(useFg ? fgX : rectX);
    out.w.push(useFg ? fgW : rectW);
    out.y.push(rectY);
    out.line.push(lineNumber);
    out.fvDepth.push(numberAttr(gAttrs, 'fv:d'));
    out.fvSelf.push(numberAttr(gAttrs, 'fv:s'));
    out.fvSamples.push(numberAttr(gAttrs, 'fv:n'));
    out.fvSelfSamples.push(numberAttr(gAttrs, 'fv:ns'));
    out.fvFlags.push(numberAttr(gAttrs, 'fv:f'));
    out.count++;
  }

  private warn(line: number, message: string): void {
    this.out.skipped++;
    if (this.out.warnings.length < MAX_WARNINGS) this.out.warnings.push({ line, message });
  }
}

const attrCache = new Map<string, RegExp>();

/** The value of attribute `name` in a tag's attribute text, decoded; null when absent. */
export function attr(attrs: string, name: string): string | null {
  let re = attrCache.get(name);
  if (!re) {
    re = new RegExp(`(?:^|\\s)${name.replace(/[.:]/g, '\\$&')}\\s*=\\s*(?:"([^"]*)"|'([^']*)')`);
    attrCache.set(name, re);
  }
  const m = re.exec(attrs);
  return m ? decodeXml(m[1] ?? m[2]) : null;
}

/** A numeric attribute ("12.5", "0.3497%"), or NaN when absent or not a number. */
export function numberAttr(attrs: string, name: string): number {
  const v = attr(attrs, name);
  if (v === null) return NaN;
  const s = v.trim().replace(/%$/, '');
  return s === '' ? NaN : Number(s);
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Decodes XML character and predefined entity references; unknown ones are left as text. */
export function decodeXml(s: string): string {
  if (s.indexOf('&') < 0) return s;
  return s.replace(/&(#x[0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]{2,4});/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    }
    return ENTITIES[body] ?? whole;
  });
}

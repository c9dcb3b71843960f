// Flame graph SVG importer: turns an SVG written by flamegraph.pl, inferno or flameview back into
// a call tree, so old artefacts become interactive and comparable.
//
// How a tree is rebuilt (see ./svg-scan.ts for how frames are found):
// - flameview's own SVGs carry the depth, totals, self weights and flags of every frame
//   (fv:* attributes, frames in depth-first order), so the tree is rebuilt exactly;
// - other SVGs are rebuilt from geometry: distinct y values are depths (flame graphs grow
//   upwards from the widest frame, icicles downwards), and a frame's parent is the frame one
//   level closer to the root whose x-span overlaps it most. Totals come from the titles' exact
//   counts (or inferno's fg:w), so they are exact; self = total − the children present (frames
//   under the writer's minimum width are absent, so their weight counts as their parent's self).
// - `_[i]`, `_[k]`, `_[j]` name suffixes become frame flags (flamegraph.pl strips them, so its
//   inline SVGs come back as plain frames: the inlining is lost in the artefact, not here).
//
// Invariants: the whole input is never held at once (frames are scanned line by line); a frame
// that cannot be placed is dropped with a warning naming its line; an SVG that is not a flame
// graph, or is cut short, is an ImportError naming the format.

import { FrameTableBuilder } from '../../model/frame-table';
import { TreeBuilder } from '../../model/tree-builder';
import { FrameFlags } from '../../model/types';
import { ImportError, type ImportWarning, type Profile, type ProfileMeta } from '../../model/profile';
import type { Detection, Importer, ImportOptions, LineParser } from '../importer';
import { attr, SvgScanner, type SvgFrames } from './svg-scan';

export const SVG_DESCRIPTION = 'flamegraph SVG';
const FLAMEGRAPH_MARK = /Flame graph stack visualization|xmlns:fg=|urn:flameview|class="func_g"|<g\b[^>]*>\s*<title>[^<]*%\)<\/title>/;
const MAX_WARNINGS = 20;

const SUFFIX_FLAGS: Record<string, number> = { '_[i]': FrameFlags.INLINED, '_[k]': FrameFlags.KERNEL, '_[j]': FrameFlags.JIT };

export const svgImporter: Importer = {
  format: 'svg',
  description: SVG_DESCRIPTION,
  detect(head: string, atEnd: boolean): Detection {
    // An SVG document whose head carries a flame graph writer's mark: flamegraph.pl's and
    // inferno's comment, inferno's fg: namespace, flameview's namespace, or frame elements.
    // Other SVGs are not recordings (the server refuses them; loading names what was expected).
    const start = head.replace(/^\ufeff?\s*/, '');
    if (start === '') return atEnd ? 'no' : 'need-more';
    if (!/^<(?:\?xml|!DOCTYPE svg|!--|svg[\s>])/.test(start)) return 'no';
    const svgAt = start.search(/<svg[\s>]/);
    if (svgAt >= 0 && FLAMEGRAPH_MARK.test(start)) return 'yes';
    return atEnd || head.length >= 32 * 1024 ? 'no' : 'need-more';
  },
  create(options: ImportOptions): LineParser {
    return new SvgParser(options);
  },
};

class SvgParser implements LineParser {
  private readonly scanner: SvgScanner;
  constructor(private readonly options: ImportOptions) {
    this.scanner = new SvgScanner(options.source);
  }

  line(text: string, lineNumber: number): void {
    this.scanner.line(text, lineNumber);
  }

  get samples(): number {
    return this.scanner.out.count;
  }

  finish(): Profile {
    const scan = this.scanner.out;
    const source = this.options.source;
    if (scan.count === 0 && !scan.sawMarker) {
      throw new ImportError(`${SVG_DESCRIPTION} (frames as <g><title>name (N samples, P%)</title><rect …/></g>)`, 0, 'an SVG without flame graph frames', source);
    }
    if (!scan.sawSvgEnd) {
      throw new ImportError(`${SVG_DESCRIPTION} ending with </svg>`, scan.lines, `the end of the input after ${scan.count} frames (truncated file?)`, source);
    }
    return buildProfile(scan);
  }
}

/**
 * For each scanned frame, the index of its parent frame; -1 for frames whose parent is the
 * synthetic root (or for the root itself, see `root`), -2 for frames that could not be placed.
 */
export interface Placement {
  parent: Int32Array;
  /** The frame that is the tree's root ("all"), or -1 when the SVG has none. */
  root: number;
  warnings: ImportWarning[];
}

export function placeFrames(scan: SvgFrames): Placement {
  if (scan.count > 0 && !Number.isNaN(scan.fvDepth[0])) return placeByDepth(scan);
  return placeByGeometry(scan);
}

/** flameview SVGs: frames in depth-first order with explicit depths. */
function placeByDepth(scan: SvgFrames): Placement {
  const n = scan.count;
  const parent = new Int32Array(n);
  const warnings: ImportWarning[] = [];
  // stack[d] = the latest frame at depth d; stack[0] is the root frame or -1 (synthetic root).
  const stack: number[] = [-1];
  let root = -1;
  for (let i = 0; i < n; i++) {
    const d = scan.fvDepth[i];
    if (d === 0 && i === 0) {
      root = stack[0] = i;
      parent[i] = -1;
      continue;
    }
    if (!Number.isInteger(d) || d < 1 || d > stack.length) {
      parent[i] = -2;
      note(warnings, scan.line[i], `frame ${JSON.stringify(scan.name[i])} at depth ${d} has no frame below it; dropped`);
      continue;
    }
    const p = stack[d - 1];
    stack.length = d;
    stack.push(i);
    parent[i] = p >= 0 && parent[p] === -2 ? -2 : p;
  }
  return { parent, root, warnings };
}

/** flamegraph.pl / inferno SVGs: depth from y, parent from x-span overlap. */
function placeByGeometry(scan: SvgFrames): Placement {
  const n = scan.count;
  const parent = new Int32Array(n).fill(-2);
  const warnings: ImportWarning[] = [];
  if (n === 0) return { parent, root: -1, warnings };

  // Orientation: the root sits at the end of the y axis holding the widest frame (a flame graph
  // grows upwards from the bottom, an icicle downwards from the top); on a tie, where "all" is.
  let minY = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < n; i++) {
    if (scan.y[i] < minY) minY = scan.y[i];
    if (scan.y[i] > maxY) maxY = scan.y[i];
  }
  let topWidth = 0;
  let bottomWidth = 0;
  let topAll = false;
  for (let i = 0; i < n; i++) {
    if (scan.y[i] === minY) {
      topWidth = Math.max(topWidth, scan.w[i]);
      if (scan.name[i] === 'all') topAll = true;
    }
    if (scan.y[i] === maxY) bottomWidth = Math.max(bottomWidth, scan.w[i]);
  }
  const flame = bottomWidth > topWidth || (bottomWidth === topWidth && !topAll);
  const ys = [...new Set(scan.y)].sort((a, b) => (flame ? b - a : a - b));
  const rankOf = new Map<number, number>();
  ys.forEach((y, r) => rankOf.set(y, r));

  // Frames of each rank, sorted by span start.
  const byRank: number[][] = ys.map(() => []);
  for (let i = 0; i < n; i++) byRank[rankOf.get(scan.y[i])!].push(i);
  for (const level of byRank) level.sort((a, b) => scan.x[a] - scan.x[b]);

  let root = -1;
  const base = byRank[0];
  if (base.length === 1 && scan.name[base[0]] === 'all') root = base[0];
  for (const i of base) parent[i] = -1;

  for (let r = 1; r < byRank.length; r++) {
    const below = byRank[r - 1];
    for (const i of byRank[r]) {
      const start = scan.x[i];
      const end = start + scan.w[i];
      const mid = (start + end) / 2;
      // The last frame below that starts at or before the middle, and its neighbours.
      let lo = 0;
      let hi = below.length - 1;
      let k = -1;
      while (lo <= hi) {
        const m = (lo + hi) >> 1;
        if (scan.x[below[m]] <= mid) {
          k = m;
          lo = m + 1;
        } else hi = m - 1;
      }
      let best = -1;
      let bestOverlap = 0;
      for (let c = Math.max(0, k - 1); c <= Math.min(below.length - 1, k + 1); c++) {
        const p = below[c];
        if (parent[p] === -2) continue;
        const overlap = Math.min(end, scan.x[p] + scan.w[p]) - Math.max(start, scan.x[p]);
        if (overlap > bestOverlap) {
          best = p;
          bestOverlap = overlap;
        }
      }
      if (best < 0) {
        note(warnings, scan.line[i], `frame ${JSON.stringify(scan.name[i])} lies over no frame one level below; dropped`);
        continue;
      }
      parent[i] = best;
    }
  }
  return { parent, root, warnings };
}

function note(warnings: ImportWarning[], line: number, message: string): void {
  if (warnings.length < MAX_WARNINGS) warnings.push({ line, message });
}

/** The frame name and flags of an SVG frame name (`foo_[i]` → foo, INLINED). */
export function splitAnnotation(name: string): { name: string; flags: number } {
  const flag = name.length > 4 ? SUFFIX_FLAGS[name.slice(-4)] : undefined;
  return flag ? { name: name.slice(0, -4), flags: flag } : { name, flags: 0 };
}

export function buildProfile(scan: SvgFrames): Profile {
  const { parent, root, warnings: placeWarnings } = placeFrames(scan);
  const n = scan.count;
  const own = n > 0 && !Number.isNaN(scan.fvDepth[0]);
  const warnings: ImportWarning[] = [...scan.warnings, ...placeWarnings];

  // Sum of the totals of each frame's placed children.
  const childSum = new Float64Array(n);
  const childSamples = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = parent[i];
    if (p >= 0) {
      childSum[p] += scan.total[i];
      childSamples[p] += own && !Number.isNaN(scan.fvSamples[i]) ? scan.fvSamples[i] : scan.total[i];
    }
  }

  const frames = new FrameTableBuilder();
  const builder = new TreeBuilder();
  const node = new Int32Array(n).fill(-1);
  let negative = 0;
  // Parents precede children in document order for flameview SVGs; for others, place in rank
  // order by resolving parents first (iteratively, children after their parents).
  const order = own ? identity(n) : topological(parent);
  let rootSelf = 0;
  let rootSelfSamples = 0;
  for (const i of order) {
    const p = parent[i];
    if (p === -2) continue;
    let self = scan.total[i] - childSum[i];
    const totalSamples = own && !Number.isNaN(scan.fvSamples[i]) ? scan.fvSamples[i] : scan.total[i];
    let selfSamples = totalSamples - childSamples[i];
    if (own) {
      // The recorded self is exact; the difference is only float noise unless children were
      // left out (--min-width), whose weight then stays with this frame as in the SVG.
      const tolerance = 1e-9 * Math.abs(scan.total[i]);
      if (!Number.isNaN(scan.fvSelf[i]) && Math.abs(self - scan.fvSelf[i]) <= tolerance) self = scan.fvSelf[i];
      if (!Number.isNaN(scan.fvSelfSamples[i]) && Math.abs(selfSamples - scan.fvSelfSamples[i]) <= 1e-9 * Math.abs(totalSamples)) {
        selfSamples = scan.fvSelfSamples[i];
      }
    }
    if (own && Number.isNaN(scan.fvSamples[i])) selfSamples = self; // samples equal the weights
    if (self < 0) {
      if (self < -1e-6 * Math.abs(scan.total[i])) negative++;
      self = 0;
    }
    if (selfSamples < 0) selfSamples = 0;
    if (i === root) {
      rootSelf = self;
      rootSelfSamples = selfSamples;
      node[i] = 0;
      continue;
    }
    let frame;
    if (own) {
      const flags = Number.isNaN(scan.fvFlags[i]) ? 0 : scan.fvFlags[i] & 7;
      frame = frames.intern(scan.name[i], flags);
    } else {
      const split = splitAnnotation(scan.name[i]);
      frame = frames.intern(split.name, split.flags);
    }
    const parentNode = p === -1 ? 0 : node[p];
    if (parentNode < 0) continue;
    node[i] = builder.child(parentNode, frame);
    builder.addSelf(node[i], self, selfSamples);
  }
  if (rootSelf > 0 || rootSelfSamples > 0) builder.addSelf(0, rootSelf, rootSelfSamples);
  if (negative > 0) {
    warnings.push({ line: 0, message: `${negative} frames are narrower than the frames drawn on them; their self weight was set to 0` });
  }
  if (scan.differential) {
    warnings.push({ line: 0, message: 'this is a differential flame graph: widths are the second profile; the deltas (colours) are not imported' });
  }
  if (n === 0) warnings.push({ line: 0, message: 'the flame graph has no frames: no samples' });

  const table = frames.finish();
  const { tree } = builder.finish(table);
  let inlined = false;
  for (let f = 0; f < table.count; f++) if (table.flags[f] & FrameFlags.INLINED) inlined = true;
  const unitAttr = attr(scan.svgAttrs, 'fv:unit');
  const eventAttr = attr(scan.svgAttrs, 'fv:event');
  const meta: ProfileMeta = {
    format: 'svg',
    events: [],
    event: eventAttr || null,
    weightUnit: unitAttr === 'nanoseconds' || (unitAttr === null && scan.unit === 'ns') ? 'nanoseconds' : null,
    samples: tree.totalSamples[0],
    hasInlineInfo: inlined,
    skippedLines: scan.skipped,
    warnings,
  };
  if (own) meta.events = eventAttr ? [{ name: eventAttr, samples: tree.totalSamples[0] }] : [];
  return { frames: table, tree, meta };
}

function identity(n: number): Int32Array {
  const a = new Int32Array(n);
  for (let i = 0; i < n; i++) a[i] = i;
  return a;
}

/** Frames ordered so that every parent comes before its children (breadth-first by parent). */
function topological(parent: Int32Array): Int32Array {
  const n = parent.length;
  const childCount = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) if (parent[i] !== -2) childCount[parent[i] + 1]++;
  const start = new Int32Array(n + 2);
  for (let i = 0; i <= n; i++) start[i + 1] = start[i] + childCount[i];
  const fill = start.slice();
  const kids = new Int32Array(start[n + 1]);
  for (let i = 0; i < n; i++) if (parent[i] !== -2) kids[fill[parent[i] + 1]++] = i;
  const order = new Int32Array(kids.length);
  let head = 0;
  let tail = 0;
  for (let k = start[0]; k < start[1]; k++) order[tail++] = kids[k];
  while (head < tail) {
    const i = order[head++];
    for (let k = start[i + 1]; k < start[i + 2]; k++) order[tail++] = kids[k];
  }
  return order.subarray(0, tail);
}

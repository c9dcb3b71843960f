// Standalone interactive flame graph SVG, in the manner of flamegraph.pl and inferno: click to
// zoom, Reset Zoom, search with "Matched: X%", a <title> tooltip per frame, with flameview's
// deterministic colours (render/palette.ts: colour by name, inlined frames aqua-tinted).
//
// Invariants:
// - every name is XML-escaped (svg-xml.ts); the embedded script reads names as text only;
// - frames are written in the tree's depth-first order, iteratively (no recursion), in chunks
//   of about 64 KiB, so a big tree streams without being held as one string;
// - a frame narrower than minWidth pixels is omitted with its whole subtree (its descendants are
//   no wider); with minWidth 0 every node is written;
// - each frame carries its depth, start and total (fv:d, fv:x, fv:t: weights, exact shortest
//   round-trip text), its self weight (fv:s), its sample counts when they differ from the
//   weights (fv:n, fv:ns) and its flags (fv:f), so import/svg.ts rebuilds the tree exactly;
// - children are left-aligned under their parent in sibling order, as the viewer draws them.

import type { CallTree } from '../model/call-tree';
import { frameName, type FrameTable } from '../model/frame-table';
import { FrameFlags } from '../model/types';
import type { Profile, ProfileMeta } from '../model/profile';
import type { ViewKind } from '../views/function-view';
import type { Transform } from '../views/transforms';
import { transformedViewTree } from './folded';
import { css, frameRgb } from '../palette';
import { formatWeight } from './folded';
import { SVG_SCRIPT } from './svg-script';
import { escapeXml } from './svg-xml';

export interface SvgOptions {
  /** Image width in pixels (default 1200). */
  width?: number;
  /** Frames narrower than this many pixels are left out (default 0.1; 0 keeps all). */
  minWidth?: number;
  title?: string;
  /** A regular expression searched for when the SVG opens. */
  search?: string;
}

export interface SvgInput {
  frames: FrameTable;
  /** The tree of the view to draw (inline or function view). */
  tree: CallTree;
  meta: ProfileMeta;
  view: ViewKind;
}

export const SVG_NS = 'urn:flameview:svg:1';

const XPAD = 10;
const FRAME_HEIGHT = 16;
const FONT_SIZE = 12;
const FONT_WIDTH = 0.59;
const YPAD_TOP = FONT_SIZE * 4;
const YPAD_BOTTOM = FONT_SIZE * 2 + 10;
const CHUNK = 64 * 1024;
/** The root's neutral fill, as the viewer's light theme draws "all" (render/palette.ts). */
const ROOT_FILL = 'rgb(216,211,202)';

/** The view the viewer opens with: functions when the recording carries inline information. */
export function defaultView(meta: ProfileMeta): ViewKind {
  return meta.hasInlineInfo ? 'functions' : 'inline';
}

export function svgInputOf(profile: Profile, view: ViewKind = defaultView(profile.meta), transforms: readonly Transform[] = []): SvgInput {
  return { frames: profile.frames, tree: transformedViewTree(profile, view, transforms), meta: profile.meta, view };
}

/** The SVG text in chunks of whole elements. */
export function* svgChunks(input: SvgInput, options: SvgOptions = {}): Generator<string> {
  const { tree, frames, meta } = input;
  const width = options.width ?? 1200;
  const minWidth = options.minWidth ?? 0.1;
  const graphWidth = width - 2 * XPAD;
  const rootTotal = tree.totalWeight[0];
  const scale = rootTotal > 0 ? graphWidth / rootTotal : 0;
  const visible = (n: number) => rootTotal > 0 && tree.totalWeight[n] * scale >= minWidth;

  // First pass: the deepest visible frame sets the height.
  let maxDepth = 0;
  for (let n = 0; n < tree.nodeCount; ) {
    if (!visible(n)) {
      n = tree.end[n];
      continue;
    }
    if (tree.depth[n] > maxDepth) maxDepth = tree.depth[n];
    n++;
  }
  const height = (maxDepth + 1) * FRAME_HEIGHT + YPAD_TOP + YPAD_BOTTOM;
  const unit = meta.weightUnit === 'nanoseconds' ? 'ns' : 'samples';
  const title = options.title ?? 'Flame Graph';

  yield header(width, height, title, meta, input.view, options.search, rootTotal > 0);

  const parts: string[] = [];
  let size = 0;
  const labels = new Array<string | undefined>(frames.count);
  const fills = new Array<string | undefined>(frames.count);
  // next[d]: where (in weight) the next child of the current node at depth d starts.
  const next = new Float64Array(tree.maxDepth + 2);
  for (let n = 0; n < tree.nodeCount; ) {
    const d = tree.depth[n];
    const x = d === 0 ? 0 : next[d - 1];
    if (d > 0) next[d - 1] = x + tree.totalWeight[n];
    if (!visible(n)) {
      n = tree.end[n];
      continue;
    }
    next[d] = x;
    const f = tree.frame[n];
    let name: string;
    let flags = 0;
    let fill: string;
    if (d === 0) {
      name = 'all';
      fill = ROOT_FILL;
    } else {
      name = labels[f] ??= frameName(frames, f);
      flags = frames.flags[f];
      fill = fills[f] ??= css(frameRgb(name, flags));
    }
    const part = frameElement(tree, n, d, x, name, flags, fill, scale, height, rootTotal, unit);
    parts.push(part);
    size += part.length;
    if (size >= CHUNK) {
      yield parts.join('');
      parts.length = 0;
      size = 0;
    }
    n++;
  }
  parts.push('</g>\n</svg>\n');
  yield parts.join('');
}

/** The whole SVG as one string (tests, small trees). */
export function renderSvg(input: SvgInput, options: SvgOptions = {}): string {
  return [...svgChunks(input, options)].join('');
}

function frameElement(
  tree: CallTree,
  n: number,
  d: number,
  x: number,
  name: string,
  flags: number,
  fill: string,
  scale: number,
  height: number,
  rootTotal: number,
  unit: string,
): string {
  const total = tree.totalWeight[n];
  const self = tree.selfWeight[n];
  const px = XPAD + x * scale;
  const pw = total * scale;
  const y = height - YPAD_BOTTOM - (d + 1) * FRAME_HEIGHT;
  const pct = rootTotal > 0 ? (total / rootTotal) * 100 : 0;
  const escaped = escapeXml(name);
  let attrs = `class="f" fv:d="${d}" fv:x="${formatWeight(x)}" fv:t="${formatWeight(total)}" fv:s="${formatWeight(self)}"`;
  if (tree.totalSamples[n] !== total || tree.selfSamples[n] !== self) {
    attrs += ` fv:n="${formatWeight(tree.totalSamples[n])}" fv:ns="${formatWeight(tree.selfSamples[n])}"`;
  }
  if (flags) attrs += ` fv:f="${flags}"`;
  const kind = flags & (FrameFlags.INLINED | FrameFlags.FOLDED) ? ', inlined' : flags & FrameFlags.KERNEL ? ', kernel' : flags & FrameFlags.JIT ? ', JIT' : '';
  const figures = `${formatCount(total)} ${unit}, ${pct === 100 ? '100' : pct.toFixed(2)}%${kind}`;
  return (
    `<g ${attrs}><title>${escaped} (${figures})</title>` +
    `<rect x="${px.toFixed(1)}" y="${y}" width="${pw.toFixed(1)}" height="${FRAME_HEIGHT - 1}" fill="${fill}" rx="2" ry="2"/>` +
    `<text x="${(px + 3).toFixed(2)}" y="${y + 10.5}">${escapeXml(fitLabel(name, pw))}</text></g>\n`
  );
}

/** The label that fits a frame of `width` pixels, as flamegraph.pl truncates it. */
export function fitLabel(name: string, width: number): string {
  const chars = Math.floor((width - 6) / (FONT_SIZE * FONT_WIDTH));
  if (chars < 3) return '';
  return name.length <= chars ? name : name.slice(0, chars - 2) + '..';
}

/** 1234567 → "1,234,567"; fractions keep their shortest form. */
function formatCount(w: number): string {
  const s = formatWeight(w);
  const dot = s.indexOf('.');
  const int = dot < 0 ? s : s.slice(0, dot);
  return int.replace(/\B(?=(\d{3})+(?!\d))/g, ',') + (dot < 0 ? '' : s.slice(dot));
}

function header(width: number, height: number, title: string, meta: ProfileMeta, view: ViewKind, search: string | undefined, hasFrames: boolean): string {
  const subtitle = `${view === 'functions' ? 'function view' : 'inline-frame view'}${meta.event ? ` · ${meta.event}` : ''} · flameview`;
  const root =
    `<svg version="1.1" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" onload="init(evt)"` +
    ` xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:fv="${SVG_NS}"` +
    ` fv:version="1" fv:view="${view}" fv:format="${escapeXml(meta.format)}"` +
    (meta.event ? ` fv:event="${escapeXml(meta.event)}"` : '') +
    (meta.weightUnit ? ` fv:unit="${meta.weightUnit}"` : '') +
    (search ? ` fv:search="${escapeXml(search)}"` : '') +
    ` fv:xpad="${XPAD}" fv:graphwidth="${width - 2 * XPAD}" fv:fontsize="${FONT_SIZE}" fv:fontwidth="${FONT_WIDTH}">`;
  return `<?xml version="1.0" standalone="no"?>
<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd">
${root}
<!-- Flame graph stack visualization written by flameview; frames are flamegraph.pl-compatible, and their fv: attributes let flameview reopen it exactly. -->
<defs><linearGradient id="background" y1="0" y2="1" x1="0" x2="0"><stop stop-color="#f8f8f8" offset="5%"/><stop stop-color="#eeeeee" offset="95%"/></linearGradient></defs>
<style type="text/css">
text { font-family: Verdana, sans-serif; font-size: ${FONT_SIZE}px; fill: rgb(0,0,0); }
#title { text-anchor: middle; font-size: 17px; }
#subtitle { text-anchor: middle; fill: rgb(110,110,110); }
#search, #matched { text-anchor: end; }
#search { opacity: 0.5; cursor: pointer; }
#search:hover, #search.show { opacity: 1; }
#unzoom { cursor: pointer; }
#frames > g:hover > rect { stroke: black; stroke-width: 0.5; cursor: pointer; }
.hide { display: none; }
.parent { opacity: 0.5; }
</style>
<script type="text/ecmascript"><![CDATA[${SVG_SCRIPT}]]></script>
<rect x="0" y="0" width="${width}" height="${height}" fill="url(#background)"/>
<text id="title" x="${width / 2}" y="${FONT_SIZE * 2}">${escapeXml(title)}</text>
<text id="subtitle" x="${width / 2}" y="${FONT_SIZE * 2 + 14}">${escapeXml(subtitle)}</text>
<text id="unzoom" class="hide" x="${XPAD}" y="${FONT_SIZE * 2}">Reset Zoom</text>
<text id="search" x="${width - XPAD}" y="${FONT_SIZE * 2}">Search</text>
<text id="details" x="${XPAD}" y="${height - FONT_SIZE}"> </text>
<text id="matched" x="${width - XPAD}" y="${height - FONT_SIZE}"> </text>
${hasFrames ? '' : `<text x="${width / 2}" y="${FONT_SIZE * 5}" style="text-anchor:middle">No samples</text>\n`}<g id="frames">
`;
}

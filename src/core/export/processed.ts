// Writes the processed recording (`.flameview`): the parsed recording's columns, which
// ../import/processed.ts reads back without parsing the original (layout there and in
// docs/processed-format.md). Not compressed here (the core has no zlib): the CLI gzips with
// node:zlib, the page with CompressionStream; the reader expects gzip but reads either.
//
// What it keeps: the frame table (without the GROUP frames a snapshot appends), the inline-frame
// tree's parent, frame and self columns (the function view is derived on open, as for any
// recording), the time-order samples when the recording has them (with the off-CPU spans'
// durations), and the meta with its warnings.
// One event: the recording's other events need the original (meta.events still lists them).

import type { CallTree } from '../model/call-tree';
import type { FrameTable } from '../model/frame-table';
import type { ProfileMeta } from '../model/profile';
import { FrameFlags } from '../model/types';
import type { SampleColumns } from '../model/sample-column';
import type { SourceLines } from '../model/source-lines';
import type { LeafAddresses } from '../model/leaf-addresses';
import { COLUMNS, ELEMENT_BYTES, FORMAT_VERSION, PROCESSED_MAGIC, shuffle, type ColumnSpec, type ProcessedHeader } from '../import/processed';

export interface ProcessedInput {
  frames: FrameTable;
  /** The inline-frame view (every frame). */
  tree: CallTree;
  samples?: SampleColumns | null;
  /** Profile.functionFrames (the function view's name of each frame), when the importer gave one. */
  functionFrames?: Int32Array | null;
  /** Profile.lines, the source lines. */
  lines?: SourceLines | null;
  /** Profile.leafAddresses, the sampled instructions (the Assembly panel's weights). */
  leafAddresses?: LeafAddresses | null;
  meta: ProfileMeta;
}

/**
 * The columns the profile worker keeps and the page's snapshot does not (the line tree, each
 * sample's node in it, the sampled instructions): Export and Share ask for them, so the file they
 * write keeps the Source and Assembly panels' figures.
 */
export interface KeptColumns {
  /** The recording's tree size and sample count: what ties these to one snapshot. */
  nodes: number;
  samples: number;
  lines: SourceLines | null;
  /** SampleColumns.line, when the samples are linked to the line tree. */
  sampleLine: Int32Array | null;
  leafAddresses: LeafAddresses | null;
}

const bytesOf = (a: ArrayBufferView) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

export function toProcessed({ frames, tree, samples, functionFrames, lines, leafAddresses, meta }: ProcessedInput): Uint8Array {
  // A snapshot's frame table ends with the GROUP frames of "collapse library": not the recording's.
  let frameCount = frames.count;
  while (frameCount > 0 && frames.flags[frameCount - 1] & FrameFlags.GROUP) frameCount--;
  const n = tree.nodeCount;
  const data: Array<[string, Uint8Array, number]> = [
    ['strings', new TextEncoder().encode(frames.strings.join('\0')), 0],
    ['frame.name', bytesOf(frames.name.subarray(0, frameCount)), frameCount],
    ['frame.module', bytesOf(frames.module.subarray(0, frameCount)), frameCount],
    ['frame.flags', bytesOf(frames.flags.subarray(0, frameCount)), frameCount],
    ...(functionFrames ? [['frame.function', bytesOf(functionFrames.subarray(0, frameCount)), frameCount] as [string, Uint8Array, number]] : []),
    ['node.parent', bytesOf(tree.parent.subarray(0, n)), n],
    ['node.frame', bytesOf(tree.frame.subarray(0, n)), n],
    ['node.selfWeight', bytesOf(tree.selfWeight.subarray(0, n)), n],
    ['node.selfSamples', bytesOf(tree.selfSamples.subarray(0, n)), n],
  ];
  const sampleCount = samples?.count ?? 0;
  if (samples && sampleCount > 0) {
    data.push(['sample.leaf', bytesOf(samples.leaf.subarray(0, sampleCount)), sampleCount]);
    data.push(['sample.time', bytesOf(samples.time.subarray(0, sampleCount)), sampleCount]);
    data.push(['sample.weight', bytesOf(samples.weight.subarray(0, sampleCount)), sampleCount]);
    if (samples.thread) data.push(['sample.thread', bytesOf(samples.thread.subarray(0, sampleCount)), sampleCount]);
    if (samples.duration) data.push(['sample.duration', bytesOf(samples.duration.subarray(0, sampleCount)), sampleCount]);
    // A sample's line-tree node means nothing without the line tree written beside it.
    if (samples.line && lines) data.push(['sample.line', bytesOf(samples.line.subarray(0, sampleCount)), sampleCount]);
  }
  if (lines) {
    const { locations, locatedFrame, locatedLocation, tree: t, node } = lines;
    const m = t.nodeCount;
    data.push(['location.file', bytesOf(locations.file.subarray(0, locations.count)), locations.count]);
    data.push(['location.line', bytesOf(locations.line.subarray(0, locations.count)), locations.count]);
    data.push(['located.frame', bytesOf(locatedFrame), locatedFrame.length]);
    data.push(['located.location', bytesOf(locatedLocation), locatedLocation.length]);
    data.push(['line.parent', bytesOf(t.parent.subarray(0, m)), m]);
    data.push(['line.located', bytesOf(t.frame.subarray(0, m)), m]);
    data.push(['line.node', bytesOf(node.subarray(0, m)), m]);
    data.push(['line.selfWeight', bytesOf(t.selfWeight.subarray(0, m)), m]);
    data.push(['line.selfSamples', bytesOf(t.selfSamples.subarray(0, m)), m]);
  }
  // A row's frame is a recording frame, never a GROUP frame, so it is below frameCount.
  if (leafAddresses) {
    const { count, frame, offset, weight, samples: hits } = leafAddresses;
    data.push(['address.frame', bytesOf(frame.subarray(0, count)), count]);
    data.push(['address.offset', bytesOf(offset.subarray(0, count)), count]);
    data.push(['address.weight', bytesOf(weight.subarray(0, count)), count]);
    data.push(['address.samples', bytesOf(hits.subarray(0, count)), count]);
  }
  data[0][2] = data[0][1].length;
  const columns: ColumnSpec[] = data.map(([name, , length]) => ({ name, type: COLUMNS[name], length }));
  const header: ProcessedHeader = {
    meta,
    counts: {
      strings: frames.strings.length,
      frames: frameCount,
      nodes: n,
      samples: sampleCount,
      ...(lines ? { locations: lines.locations.count, located: lines.locatedFrame.length, lineNodes: lines.tree.nodeCount } : {}),
      ...(leafAddresses ? { addresses: leafAddresses.count } : {}),
    },
    columns,
    ...(leafAddresses?.process ? { addressMappings: [...leafAddresses.process.mappings] } : {}),
  };
  const headerBytes = new TextEncoder().encode(JSON.stringify(header));
  const magic = new TextEncoder().encode(PROCESSED_MAGIC);
  const pad8 = (x: number) => (x + 7) & ~7;
  let size = pad8(magic.length + 8 + headerBytes.length);
  for (const [, bytes] of data) size = pad8(size + bytes.length);
  const out = new Uint8Array(size);
  const view = new DataView(out.buffer);
  out.set(magic, 0);
  view.setUint32(magic.length, FORMAT_VERSION, true);
  view.setUint32(magic.length + 4, headerBytes.length, true);
  out.set(headerBytes, magic.length + 8);
  let at = pad8(magic.length + 8 + headerBytes.length);
  for (const [name, bytes] of data) {
    out.set(shuffle(bytes, ELEMENT_BYTES[COLUMNS[name]]), at);
    at = pad8(at + bytes.length);
  }
  return out;
}

// The whole recording as a file another tool opens: flameview's processed recording or pprof
// (profile.proto), gzipped, as `flameview convert` writes them. The page makes it off the main
// thread (workers/export.worker.ts): the columns cross as copies with the string table packed
// (../util/wire.ts), and gzip runs beside the encoder, so Export and Share never freeze the graph.

import type { FrameTable } from '../model/frame-table';
import { packStrings, unpackStrings } from '../util/wire';
import { toPprof } from './pprof';
import { toProcessed, type ProcessedInput } from './processed';

export type RecordingFileKind = 'flameview' | 'pprof';

/** ProcessedInput as it crosses to a worker: the frame table without its strings, packed apart. */
export interface RecordingFileWire {
  input: Omit<ProcessedInput, 'frames'> & { frames: Omit<FrameTable, 'strings'> };
  strings: string;
}

export function toRecordingFileWire({ frames, ...rest }: ProcessedInput): RecordingFileWire {
  const { strings, ...columns } = frames;
  return { input: { ...rest, frames: columns }, strings: packStrings(strings) };
}

export function fromRecordingFileWire(wire: RecordingFileWire): ProcessedInput {
  return { ...wire.input, frames: { ...wire.input.frames, strings: unpackStrings(wire.strings) } };
}

/** The recording encoded as `kind`, gzipped (CompressionStream: the page's and Node's). */
export async function recordingFile(kind: RecordingFileKind, input: ProcessedInput): Promise<Uint8Array> {
  return gzip(kind === 'pprof' ? toPprof(input) : toProcessed(input));
}

export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const gzipped = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Uint8Array(await new Response(gzipped).arrayBuffer());
}

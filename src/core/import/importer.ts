// The one interface every input format implements (docs/ARCHITECTURE.md, house rule 1): a
// content sniffer with a tri-state answer, and a line parser that feeds a builder. A new format
// is one new file plus one entry in ./registry.ts (the steps: "How to add an importer" there).

import type { CallTree } from '../model/call-tree';
import type { FrameTable, FrameTableBuilder } from '../model/frame-table';
import type { FormatId, ImportWarning, Profile } from '../model/profile';
import type { SampleColumns } from '../model/sample-column';
import type { SourceLines } from '../model/source-lines';
import type { FoldedUnit } from '../model/weight-text';

export type Detection = 'yes' | 'no' | 'need-more';

/** perf script's root frames: one per process name (the default), `comm-PID`, or `comm-PID/TID` (inferno's forms). */
export type RootSplit = 'process' | 'pid' | 'tid';

export interface ImportOptions {
  /** perf script: the event to keep (default: the first one seen, as inferno does). */
  event?: string;
  /** Root frame: process name (default), `comm-PID`, or `comm-PID/TID`. */
  split?: RootSplit;
  /** Name of the input, for messages. */
  source?: string;
  /** Folded stacks: what the numbers count (times become nanoseconds); other formats ignore it. */
  unit?: FoldedUnit;
  /**
   * Parallel parsing (../parallel/): set for every part but the first, what the text before the
   * part decided (LineParser.splitContext of a parser that read the start of the input).
   */
  partContext?: PartContext;
  /** Parallel parsing: this parser reads one part of a split input (set for every part). */
  part?: boolean;
}

/**
 * What a part of a split input must know from the text before it, as plain data (it crosses to
 * workers): perf script's kept event when none was requested (the first one seen), folded
 * stacks' choice of differential input (made on the first stack line).
 */
export interface PartContext {
  event?: string;
  differential?: boolean;
}

/**
 * One part of a split input, parsed (../parallel/). Line numbers in it count from the part's
 * first line; the merge adds the lines of the parts before. Only typed arrays, strings and plain
 * objects: it is what a worker sends back.
 */
export interface PartialProfile {
  format: FormatId;
  frames: FrameTable;
  /** FrameTableBuilder.moduleKnown(): which frames' modules this part decided. */
  moduleKnown: Uint8Array;
  tree: CallTree;
  /** The time-order column in input order (leaves are nodes of `tree`), or null. */
  samples: SampleColumns | null;
  /** Lines in the part (its line ends). */
  lines: number;
  /** Lines over the length limit, and whether invalid UTF-8 was replaced (load.ts's part). */
  tooLong: { line: number; length: number }[];
  sawReplacement: boolean;
  /**
   * Every weight was an integer, so sums of the parts' sums are exact (below 2^53) and equal
   * the one-parser sums bit for bit; decimal weights (folded `stack 2.5`) may round otherwise,
   * and such an input is read again by one parser.
   */
  integralWeights: boolean;
  /**
   * Without integralWeights: every weight added, in input order (leaf node of `tree`, weight;
   * the weight is the sample count too, as in folded stacks), so the merge adds them again in
   * the order one parser did and decimal sums round the same. Absent: such a part cannot merge.
   */
  weightLog?: { leaf: Int32Array; weight: Float64Array };
  /** The importer's own statistics (warnings, events, …), merged by Importer.mergeParts. */
  meta: unknown;
  /** The part's source lines (Profile.lines against its own tables), merged by ../parallel/merge-lines.ts. */
  sourceLines?: SourceLines | null;
  /** Samples added to the part's tree before its first source line (all, when it has none). */
  samplesBeforeLines?: number;
  /** For benchmarks: CPU time of the thread that parsed the part, when its host measures it. */
  cpuMs?: number;
}

/** The parts' merged frame table, tree and time-order column, given to Importer.mergeParts. */
export interface MergedParts {
  frames: FrameTable;
  tree: CallTree;
  /** Per part, its frame index → the merged frame index. */
  frameMaps: Int32Array[];
  /** Per part, its number of the first line, minus one (the lines of the parts before). */
  lineOffsets: number[];
  /** The parts' time-order columns joined in input order (not yet sorted), or null. */
  samples: SampleColumns | null;
  /** When the parts' weights were added again from their weightLogs: their sum in input order. */
  weightSum?: number;
  /** The importer's own LateSamples (Importer.lateSamples), when it had any. */
  late?: LateSamples;
}

/**
 * Samples parts could not add to their own trees (perf script: samples whose folding waits for
 * the whole recording's statistics, ./perf/perf-late.ts), added by the merge where and as one
 * parser would have added them. The merge calls, in order: per part, place(part, i, …) for each
 * of the part's late samples when the merged frame table has taken the first frameStops(part)[i]
 * of the part's frames (folding may intern frames: the one-parser numbering), then partDone();
 * finishFrames() after the last part; tree() once the frame table is final; joinColumn() once
 * the trees are merged (tree() is merged as one more part, identity frame map).
 */
export interface LateSamples {
  /** The sum of the late samples' weights. */
  readonly weight: number;
  frameStops(part: number): Int32Array;
  place(part: number, index: number, frameMap: Int32Array, frames: FrameTableBuilder): void;
  partDone(part: number, frameMap: Int32Array): void;
  /** Adds the samples one parser adds at the end; false when the merge cannot be exact (read by one parser then). */
  finishFrames(frames: FrameTableBuilder): boolean;
  /** The late samples' own tree, in merged frames. */
  tree(frames: FrameTable): CallTree;
  /** The parts' time-order columns joined with the late samples where one parser recorded them; `lateNodes` maps tree()'s nodes to merged ones. */
  joinColumn(parts: readonly PartialProfile[], nodeMaps: readonly Int32Array[], lateNodes: Int32Array): SampleColumns | null;
}

/**
 * Thrown by a part's parser when the part cannot be merged: the input is then read by one
 * parser (../parallel/split.ts). Early, so that little work is lost.
 */
export class WholeInputNeeded extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'WholeInputNeeded';
  }
}

/** Moves an importer's quoted warnings by a part's line offset (line 0 stays 0: no line). */
export function shiftWarnings(warnings: readonly ImportWarning[], offset: number): ImportWarning[] {
  return warnings.map((w) => ({ line: w.line > 0 ? w.line + offset : 0, message: w.message }));
}

export interface LineParser {
  /** One line without its terminator ('\n' or '\r\n'); lineNumber is 1-based. */
  line(text: string, lineNumber: number): void;
  /** Samples (or stack lines) accepted so far, for progress reports. */
  readonly samples: number;
  /** Ends the input; returns the frozen profile. May throw ImportError when nothing was valid. */
  finish(): Profile;
  /**
   * Optional: the input ends inside line `lineNumber` (`text`, given to line() right after), with
   * no line end after it, so the writer may have been cut off there (a truncated perf script).
   */
  unterminated?(lineNumber: number, text: string): void;
  /**
   * Optional byte mode: the rest of the input as raw bytes (chunks valid only during the call),
   * continuing after line `lineNumber`; see ./perf-bytes.ts. Lines over `maxLine` bytes go to
   * `tooLong`, as the text splitter's do.
   */
  byteReader?(lineNumber: number, maxLine: number, tooLong: (lineNumber: number, length: number) => void): ByteReader;
  /**
   * Parallel parsing: once the lines read so far decided what later parts need (PartContext),
   * returns it; null while undecided. Importers without it are never split.
   */
  splitContext?(): PartContext | null;
  /** Parallel parsing: ends the input as one part of a split one (instead of finish()). */
  finishPart?(): Omit<PartialProfile, 'lines' | 'tooLong' | 'sawReplacement'>;
}

export interface ByteReader {
  push(chunk: Uint8Array): void;
  end(): void;
  /** The number of the last line read. */
  readonly lineCount: number;
  /** True once a decoded line held U+FFFD. */
  readonly sawReplacement: boolean;
}

export interface Importer {
  readonly format: FormatId;
  /** Human name used in messages: "perf script text". */
  readonly description: string;
  /** Looks at the start of the decoded text; atEnd is true when `head` is the whole input. */
  detect(head: string, atEnd: boolean): Detection;
  create(options: ImportOptions): LineParser;
  /**
   * Parallel parsing: the profile of the whole input from its parts' statistics (`metas`, in
   * input order) and the merged tables; exactly what one parser over the whole input gives.
   */
  mergeParts?(merged: MergedParts, metas: readonly unknown[], options: ImportOptions): Profile;
  /** Parallel parsing: the parts' late samples (see LateSamples), null when they have none. */
  lateSamples?(metas: readonly unknown[]): LateSamples | null;
}

/**
 * A format that needs the whole input before it can build anything: binary protobuf (pprof) or
 * one JSON document (Chrome .cpuprofile and trace, speedscope). loadProfile asks these first,
 * on the first bytes after gunzip; see ./whole-input.ts.
 */
export interface BytesImporter {
  readonly format: FormatId;
  readonly description: string;
  /** Looks at the first bytes (after gunzip); atEnd is true when `head` is the whole input. */
  detectBytes(head: Uint8Array, atEnd: boolean): Detection;
  /**
   * Optional: throws the ImportError parseBytes would throw for what the head alone shows (a
   * version this flameview cannot read), so sniff() refuses it as the loader would.
   */
  checkHead?(head: Uint8Array): void;
  /** Parses the whole input. Throws ImportError on input it cannot read. */
  parseBytes(bytes: Uint8Array, options: ImportOptions): Profile;
}

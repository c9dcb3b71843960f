// The one interface every input format implements (ARCHITECTURE rule 1): a content sniffer with a
// tri-state answer, and a line parser that feeds a builder. A new format is one new file plus one
// entry in ./registry.ts.

import type { FormatId, Profile } from '../model/profile';

export type Detection = 'yes' | 'no' | 'need-more';

export interface ImportOptions {
  /** perf script: the event to keep (default: the first one seen, as inferno does). */
  event?: string;
  /** Root frame: process name (default), `comm-PID`, or `comm-PID/TID` (inferno's forms). */
  split?: 'process' | 'pid' | 'tid';
  /** Name of the input, for messages. */
  source?: string;
}

export interface LineParser {
  /** One line without its terminator ('\n' or '\r\n'); lineNumber is 1-based. */
  line(text: string, lineNumber: number): void;
  /** Samples (or stack lines) accepted so far, for progress reports. */
  readonly samples: number;
  /** Ends the input; returns the frozen profile. May throw ImportError when nothing was valid. */
  finish(): Profile;
  /**
   * Optional byte mode: the rest of the input as raw bytes (chunks valid only during the call),
   * continuing after line `lineNumber`; see ./perf-bytes.ts. Lines over `maxLine` bytes go to
   * `tooLong`, as the text splitter's do.
   */
  byteReader?(lineNumber: number, maxLine: number, tooLong: (lineNumber: number, length: number) => void): ByteReader;
}

export interface ByteReader {
  push(chunk: Uint8Array): void;
  end(): void;
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
  /** Parses the whole input. Throws ImportError on input it cannot read. */
  parseBytes(bytes: Uint8Array, options: ImportOptions): Profile;
}

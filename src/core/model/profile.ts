// A loaded recording: the frame table, the call tree of every frame (the inline-frame view) and
// what the importer learnt about the recording. Frozen once built; views derive from it.

import type { CallTree } from './call-tree';
import type { FrameTable } from './frame-table';
import type { SampleColumns } from './sample-column';
import type { SourceLines } from './source-lines';
import type { LeafAddresses } from './leaf-addresses';

export type FormatId = 'perf-script' | 'folded' | 'pprof' | 'cpuprofile' | 'chrome-trace' | 'speedscope' | 'svg' | 'flameview';

export interface ImportWarning {
  /** 1-based line number in the (decompressed) input, or 0 when it concerns no single line. */
  line: number;
  message: string;
}

export interface EventSummary {
  name: string;
  samples: number;
}

export interface ProfileMeta {
  format: FormatId;
  /** Events seen in the recording, in order of first appearance (perf script only). */
  events: EventSummary[];
  /** The event whose samples are in the tree, or null for formats without events. */
  event: string | null;
  /** Unit of the period weight: 'nanoseconds' for cpu-clock/task-clock, else null (unknown). */
  weightUnit: 'nanoseconds' | null;
  samples: number;
  /** True when the recording carries inline information, so the two views can differ. */
  hasInlineInfo: boolean;
  /** Lines skipped as unparseable, and the first few of them quoted. */
  skippedLines: number;
  warnings: ImportWarning[];
  /** Several recordings opened as one (../parallel/recordings.ts): their names, in order; absent for one. */
  recordings?: string[];
  /** With `recordings`: each one's format, in the same order (the status bar names them when they differ). */
  recordingFormats?: FormatId[];
  /** With `recordings`: each recording's stacks are under a root frame of its name. */
  recordingRoots?: boolean;
}

export interface Profile {
  frames: FrameTable;
  /** Inline-frame view: every frame, inlined ones flagged INLINED. */
  tree: CallTree;
  meta: ProfileMeta;
  /**
   * One entry per sample in time order, for the time-order chart and time ranges, when the
   * recording carries timestamps (perf script); null or absent otherwise. `leaf` holds nodes of
   * `tree` (the inline-frame view).
   */
  samples?: SampleColumns | null;
  /**
   * Per frame, the frame the function view shows it as, when an importer knows that two names are
   * one function (perf script: a short DWARF name and the ELF symbol's, see
   * ../import/perf/perf-function-names.ts); null or absent: every frame is its own.
   */
  functionFrames?: Int32Array | null;
  /**
   * The source line of each frame of each sample, beside the tree (./source-lines.ts), when the
   * recording carries lines (perf script -F +srcline, pprof, .cpuprofile, speedscope); null or
   * absent otherwise. Stored in the processed format from version 2 (docs/processed-format.md).
   */
  lines?: SourceLines | null;
  /**
   * Read from a processed recording (../import/processed.ts): it holds one event and its roots as
   * they were saved, so another event or split needs the original recording.
   */
  processed?: true;
  /**
   * Per sampled instruction (physical leaf frame, offset in its symbol), its self weight
   * (./leaf-addresses.ts), when the recording carries offsets (perf script's `symbol+0xOFFSET`),
   * or pprof's addresses in the process with their mappings (`process`); null or absent
   * otherwise. Stored in the processed format from version 4 (the mappings from version 5).
   */
  leafAddresses?: LeafAddresses | null;
}

/**
 * A perf event without its modifiers and terms: `cpu-clock:ppp` → `cpu-clock`, `cycles:u` →
 * `cycles`, `cpu-clock/freq=999/` → `cpu-clock`, `cpu/cycles/u` → `cycles`. Tracepoints keep
 * their full name (`sched:sched_switch`): only a suffix made of modifier letters is removed.
 */
export function eventBaseName(event: string): string {
  let name = event;
  const colon = name.lastIndexOf(':');
  if (colon > 0 && /^[ukhIGHpPSDWeb]+$/.test(name.slice(colon + 1))) name = name.slice(0, colon);
  // `NAME/terms/` (an event with terms) or `PMU/EVENT/` (an event of a PMU), modifiers after.
  const slashed = /^([^/]+)\/([^/]*)\/[ukhIGHpPSDWeb]*$/.exec(name);
  if (slashed) return slashed[2].includes('=') || slashed[2] === '' ? slashed[1] : slashed[2];
  return name;
}

/** The note an importer adds when it quotes only the first of its skipped lines (the rest: `count`). */
export function notQuotedWarning(count: number): ImportWarning {
  return { line: 0, message: `${count} more problem lines were not quoted` };
}
const NOT_QUOTED = /^\d+ more problem lines were not quoted$/;

/**
 * How many warnings a recording has, as its warnings list shows them: each skipped line once (a
 * few are quoted), plus each warning about no single line; the note that more skipped lines were
 * not quoted is part of their count, not a warning of its own.
 */
export function warningCounts(meta: Pick<ProfileMeta, 'skippedLines' | 'warnings'>): { skipped: number; others: number } {
  if (meta.skippedLines === 0) return { skipped: 0, others: meta.warnings.length };
  return { skipped: meta.skippedLines, others: meta.warnings.filter((w) => w.line === 0 && !NOT_QUOTED.test(w.message)).length };
}

/** An error the UI and the CLI can show as one line: format expected, line, what was found. */
export class ImportError extends Error {
  constructor(
    readonly expected: string,
    readonly line: number,
    readonly found: string,
    readonly source?: string,
  ) {
    super(
      `${source ? source + ': ' : ''}${line > 0 ? `line ${line}: ` : ''}expected ${expected}, found ${found}`,
    );
    this.name = 'ImportError';
  }
}

/** Quotes a piece of untrusted input for a message: short, printable, JSON-escaped. */
export function quoteInput(text: string, max = 60): string {
  const cut = text.length > max ? text.slice(0, max) + '…' : text;
  return JSON.stringify(cut).replace(/[\u0000-\u001f\u007f-\u009f\ufffd]/g, (c) => {
    return c === '\ufffd' ? '\\ufffd' : '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0');
  });
}

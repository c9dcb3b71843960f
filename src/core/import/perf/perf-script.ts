// `perf script` text importer: sample header lines, call-chain lines, blank lines between
// samples, an optional `--header` block of `#` lines, and single-line samples (no call chain).
//
// Invariants:
// - each kept sample adds its PERIOD (1 when the header has none) to the self weight of its leaf
//   and 1 to its self sample count; the root frame is the process name with spaces turned into
//   `_` (`comm-PID`, `comm-PID/TID` with options.split; `?` when the line has no PID);
// - only one event is kept: options.event (matched against the printed name when it contains a
//   ':', else against the name without modifiers), by default the first CPU event seen (a
//   tracepoint only until one is met), compared without modifiers as inferno does;
//   meta.events counts every printed event name;
// - the derived events (options.event Off-CPU or Wall clock) keep sched:sched_switch samples as
//   off-CPU intervals (./perf-offcpu.ts), Wall clock also the cpu-clock/task-clock samples; they
//   need the whole input in one parser (intervals cross any cut);
// - a sample ends at a blank line, at the next header, or at the end of input; a last sample
//   without its blank line is kept (FlameGraph's corpus has such files), but one whose last line
//   has no line end was cut mid-write (unterminated()): it is skipped and reported, never drawn;
// - lines that fit no format are counted in meta.skippedLines, the first few quoted in warnings,
//   never thrown; finish() throws only when a requested event does not occur;
// - every kept sample also enters the time-order column (leaf node, TIME, weight: see
//   ../../model/sample-column.ts), which Profile.samples carries sorted by time; an off-CPU
//   interval enters it as a span (its switch-out time and duration).
// Which frames are inlined is decided in ./perf-stack.ts. After the first line end past format
// detection the input arrives as bytes (byteReader(), ./perf-bytes.ts): known frame lines are
// matched there, and every other line comes back to line() as text.

import { FrameTableBuilder } from '../../model/frame-table';
import { TreeBuilder } from '../../model/tree-builder';
import { ROOT_NODE, type FrameIndex, type NodeIndex } from '../../model/types';
import { eventBaseName, quoteInput, type EventSummary, type ImportWarning, type Profile } from '../../model/profile';
import { WholeInputNeeded, type Detection, type ImportOptions, type Importer, type LineParser, type MergedParts, type PartContext, type PartialProfile } from '../importer';
import { MAX_QUOTED, perfProfile, type PerfPartMeta } from './perf-parts';
import { MAX_SAMPLES, SampleColumnBuilder } from '../../model/sample-column';
import { classifyIndented, detach, newFrameFields, newHeaderFields, parseFrame, parseHeader, parsePeriod, parseTimeInto } from './perf-line';
import { PerfByteReader, type PerfByteTarget } from './perf-bytes';
import { PerfStackAssembler } from './perf-stack';
import { PerfLateMerge } from './perf-late';
import { DEFERRED_LIMIT, DeferredSamples, foldRuns } from './perf-runs';
import { markMutable } from '../../model/mutable-fields';
import { BAD_SWITCH, derivedEvent, OffCpuIntervals, STATE_LEAVES, SWITCH_EVENT, type DerivedEvent, type OffCpuSummary } from './perf-offcpu';
import { TIME_EVENTS } from './perf-parts';
import { grown } from '../../model/grown';
import { LeafAddressesBuilder } from '../../model/leaf-addresses';

const TAB = 9;
/** Lines of a first sample without header kept before deciding (see tentativeLine). */
const TENTATIVE_LIMIT = 100_000;
const SPACE = 32;
const HASH = 35;

/** Test and tooling hook: sees every kept sample before it enters the tree. */
export interface PerfSampleHook {
  /** `stack` holds the frames leaf first in [0, depth); it is reused after the call returns. */
  /** `ordinal` counts kept samples in input order; a sample folded at the end comes late. */
  sample(root: FrameIndex, stack: Int32Array, depth: number, weight: number, ordinal: number): void;
}

export const perfScriptImporter: Importer = {
  format: 'perf-script',
  description: 'perf script text',
  detect: detectPerfScript,
  create: (options: ImportOptions) => new PerfScriptParser(options),
  mergeParts: (merged: MergedParts, metas: readonly unknown[], options: ImportOptions) => perfProfile(merged, metas as PerfPartMeta[], options),
  lateSamples: (metas: readonly unknown[]) => PerfLateMerge.of(metas as PerfPartMeta[]),
};

/** 'yes' when the first line that is not blank or a `#` comment is a sample header. */
export function detectPerfScript(head: string, atEnd: boolean): Detection {
  const fields = newHeaderFields();
  let pos = 0;
  while (pos < head.length) {
    let nl = head.indexOf('\n', pos);
    if (nl < 0) {
      if (!atEnd) return 'need-more';
      nl = head.length;
    }
    const line = head.slice(pos, nl > pos && head.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
    pos = nl + 1;
    if (line.trim() === '' || line.charCodeAt(0) === HASH) continue;
    // Markup, JSON and binary data are never perf script, whatever digits and colons they hold.
    const first = line.trimStart().charCodeAt(0);
    if (first === 60 /* < */ || first === 123 /* { */ || line.includes('\u0000') || line.includes('\ufffd')) return 'no';
    if (!parseHeader(line, fields)) {
      // `perf script -F ip,sym[,srcline]` prints no header: a frame line comes first.
      return line.charCodeAt(0) === 9 && classifyIndented(line) === 1 && parseFrame(line, 0, newFrameFields()) ? 'yes' : 'no';
    }
    const periodOk = fields.periodStart < 0 || parsePeriod(line, fields.periodStart, fields.periodEnd) >= 0;
    return periodOk ? 'yes' : 'no';
  }
  return atEnd ? 'no' : 'need-more';
}

export class PerfScriptParser implements LineParser, PerfByteTarget {
  samples = 0;

  private readonly frames = new FrameTableBuilder();
  // Replaced when the default event changes from a tracepoint to a CPU event (restart()).
  private builder = new TreeBuilder();
  private readonly stack: PerfStackAssembler;
  private readonly header = newHeaderFields();
  private readonly frameFields = newFrameFields();
  private readonly split: 'process' | 'pid' | 'tid';
  private readonly roots = new Map<string, FrameIndex>();

  private inSample = false;
  // No line but blanks and comments yet; then whether the recording is printed without headers.
  private beforeFirst = true;
  // The sample just read had its one frame on its header line (see line()).
  private singleLine = false;
  private headerless = false;
  // The lines of a first sample without header, until the recording shows whether it has headers.
  private tentative: [string, number][] | null = null;
  private tentativeEnded = false;
  private kept = false;
  // The current sample's header line; the line the input ended inside, with no line end (0: none).
  private sampleLine = 0;
  private cutLine = 0;
  private root: FrameIndex = 0;
  private weight = 1;
  private thread = -1;
  private column: SampleColumnBuilder;
  // Samples waiting for the end of the input to fold their runs (./perf-runs.ts).
  private deferred = new DeferredSamples();
  // Each kept sample's sampled instruction (../../model/leaf-addresses.ts); folding runs never
  // changes a leaf's physical frame, so deferred samples are added when read too.
  private leaves = new LeafAddressesBuilder();

  // Derived events: the intervals, the current sample's switch record (-1: not a switch), and
  // switch samples kept aside with the deferred ones, by ordinal.
  private readonly derived: DerivedEvent | null;
  private readonly offCpu: OffCpuIntervals | null;
  private switchRecord = -1;
  private readonly deferredSwitches = new Map<number, number>();
  private offCpuSummary: OffCpuSummary | null = null;

  // Events.
  private readonly wanted: string | null;
  private readonly wantedIsFull: boolean;
  private chosenBase: string | null = null;
  private readonly events: EventSummary[] = [];
  private lastEvent: EventSummary | null = null;
  private lastEventKept = false;
  private readonly keptNames = new Set<string>();
  private otherEventSamples = 0;
  private samplesWithoutPeriod = 0;
  /** Samples added before the first source line: a split input's line trees merge only without them after a part with lines. */
  private samplesBeforeLines = 0;

  // Problems.
  private skippedLines = 0;
  private quoted = 0;
  private badSamples = 0;
  private readonly warnings: ImportWarning[] = [];

  // Path of the previous sample (root first), to skip hash lookups for a shared prefix.
  private prevFrames = new Int32Array(256);
  private prevNodes = new Int32Array(256);
  private prevLength = 0;
  // The same for the line tree (../../model/source-lines.ts): frames, locations, line-tree nodes.
  private prevLineFrames = new Int32Array(256);
  private prevLineLocations = new Int32Array(256);
  private prevLineNodes = new Int32Array(256);
  private prevLineLength = 0;
  // Locations of the samples kept aside, in the order they were (null: kept before any srcline).
  private deferredLocations: (Int32Array | null)[] = [];

  constructor(
    private readonly options: ImportOptions = {},
    private readonly hook?: PerfSampleHook,
    /** Cap of the time-order column (tests lower it). */
    maxTimedSamples = MAX_SAMPLES,
  ) {
    this.stack = new PerfStackAssembler(this.frames);
    this.split = options.split ?? 'process';
    this.wanted = options.event ?? null;
    if (this.wanted === null) this.chosenBase = options.partContext?.event ?? null;
    this.wantedIsFull = this.wanted !== null && this.wanted.includes(':');
    this.derived = derivedEvent(this.wanted);
    this.offCpu = this.derived ? new OffCpuIntervals() : null;
    this.column = new SampleColumnBuilder(maxTimedSamples);
    markMutable(this, ['prevFrames', 'prevNodes', 'prevLineFrames', 'prevLineLocations', 'prevLineNodes']);
  }

  line(text: string, lineNumber: number): void {
    // An interval starts in one part and ends in another: one parser reads the whole input.
    if (this.derived !== null && this.options.part) throw new WholeInputNeeded(`the ${this.wanted} event pairs switches across the whole recording`);
    if (this.tentative !== null && this.tentativeLine(text, lineNumber)) return;
    if (this.singleLine) {
      // The line after a sample without call chain: its frame's source line (-F +srcline), or
      // whatever comes next, once the sample has ended.
      this.singleLine = false;
      const c = text.charCodeAt(0);
      if (c === SPACE && this.inSample && classifyIndented(text) === 2 && (!this.kept || this.stack.expectsSrcline()) && !parseHeader(text, this.header)) {
        if (this.kept) this.stack.srclineText(text);
        this.endSample();
        return;
      }
      if (this.inSample) this.endSample();
    }
    if (lineNumber === this.cutLine) {
      this.cutAtEnd(text, lineNumber);
      return;
    }
    if (text.length === 0) {
      if (this.inSample) this.endSample();
      return;
    }
    const c = text.charCodeAt(0);
    if (c === TAB || c === SPACE) {
      const kind = classifyIndented(text);
      // perf pads COMM to 16 columns, so a header can start with blanks too: never a source line.
      if (kind === 2 && c === SPACE && this.inSample && this.kept && this.stack.expectsSrcline() && !parseHeader(text, this.header)) {
        // A frame's source line (-F +srcline, ./perf-srcline.ts); a split input's parts merge
        // their line trees (../../parallel/merge-lines.ts).
        this.stack.srclineText(text);
        return;
      }
      if (this.inSample) {
        if (kind === 0) this.endSample();
        else if (!this.kept) {
          // A wakeup's frames say whether a timer or an interrupt woke the thread.
          this.offCpu?.frameLine(text);
          return;
        }
        else if (kind === 1) this.stack.line(text, lineNumber, this.badFrame);
        else if (parseHeader(text, this.header)) {
          this.endSample();
          this.startSample(text, lineNumber);
        } else this.skip(lineNumber, `a frame line "ADDRESS SYMBOL (DSO)"`, text);
        return;
      }
      if (kind === 0) return;
      if (parseHeader(text, this.header)) {
        this.beforeFirst = false;
        this.startSample(text, lineNumber);
      }
      else if (kind === 1 && c === TAB && this.headerless && parseFrame(text, 0, this.frameFields)) {
        this.startHeaderless(lineNumber);
        this.stack.line(text, lineNumber, this.badFrame);
      } else if (kind === 1 && c === TAB && this.beforeFirst && parseFrame(text, 0, this.frameFields)) {
        // `perf script -F ip,sym[,srcline]`: no header, a blank line, then the frames. Only a
        // recording that starts so, and goes on so, is read so (see tentativeLine).
        this.beforeFirst = false;
        this.tentative = [[text, lineNumber]];
      } else {
        this.beforeFirst = false;
        this.skip(lineNumber, 'a sample header line before frame lines', text);
      }
      return;
    }
    if (c === HASH) return;
    this.beforeFirst = false;
    if (parseHeader(text, this.header)) {
      if (this.inSample) this.endSample();
      this.startSample(text, lineNumber);
      return;
    }
    // perf 3.x printed frames without indentation (FlameGraph's perf-java-stacks-02).
    if (this.inSample && parseFrame(text, 0, this.frameFields)) {
      if (this.kept) this.stack.line(text, lineNumber, this.badFrame);
      return;
    }
    if (this.inSample) this.endSample();
    this.skip(lineNumber, 'a sample header line "COMM [PID/]TID [CPU] [TIME:] [PERIOD] EVENT:"', text);
  }

  /**
   * The input began with frame lines, no header: the first sample of `perf script -F ip,sym`, or
   * the tail of a sample cut off at the start of the file. Its lines wait until the next line after
   * its blank line: another frame confirms a recording without headers (the lines are read as a
   * sample), anything else rejects them (skipped, as frame lines before any header). Returns
   * whether `text` was taken.
   */
  private tentativeLine(text: string, lineNumber: number): boolean {
    const lines = this.tentative!;
    const c = text.charCodeAt(0);
    const frameLike = c === TAB ? classifyIndented(text) === 1 : c === SPACE && classifyIndented(text) === 2;
    if (text.length === 0 || (c === SPACE || c === TAB ? classifyIndented(text) === 0 : false)) {
      this.tentativeEnded = true;
      return true;
    }
    if (!this.tentativeEnded && frameLike && lineNumber !== this.cutLine && lines.length < TENTATIVE_LIMIT) {
      lines.push([text, lineNumber]);
      return true;
    }
    const confirmed = this.tentativeEnded ? c === TAB && classifyIndented(text) === 1 : lines.length >= TENTATIVE_LIMIT && frameLike;
    this.tentative = null;
    this.tentativeEnded = false;
    if (confirmed) this.confirmHeaderless(lines);
    else for (const [t, n] of lines) this.skip(n, 'a sample header line before frame lines', t);
    return false;
  }

  private confirmHeaderless(lines: [string, number][]): void {
    if (this.options.part) throw new WholeInputNeeded('samples without header lines (perf script -F ip,sym)');
    this.headerless = true;
    for (const [t, n] of lines) this.line(t, n);
    if (this.inSample) this.endSample();
  }

  /** Byte mode (./perf-bytes.ts): the rest of the input as bytes, from line `lineNumber` + 1. */
  byteReader(lineNumber: number, maxLine: number, tooLong: (lineNumber: number, length: number) => void): PerfByteReader {
    return new PerfByteReader(this, lineNumber, maxLine, tooLong);
  }

  unterminated(lineNumber: number): void {
    this.cutLine = lineNumber;
  }

  framesWanted(): boolean {
    return this.inSample && this.kept;
  }

  get assembler(): PerfStackAssembler {
    return this.stack;
  }

  finish(): Profile {
    this.endInput();
    this.addDeferred();
    this.addIntervals();
    const meta = this.partMeta();
    const table = this.frames.finish();
    const { tree, order } = this.builder.finish(table);
    const lines = this.stack.sourceLines?.finishOrdered(table, order) ?? null;
    // One part, its own tables.
    const merged = { frames: table, tree, frameMaps: [], lineOffsets: [0], samples: this.column.inInputOrder(order, lines?.order) };
    const profile = perfProfile(merged, [meta], this.options);
    if (lines !== null) profile.lines = lines.lines;
    return profile;
  }

  /**
   * Parallel parsing: the part's tables and statistics, merged by perfProfile. Samples whose runs
   * of repeated groups wait for the whole recording's statistics (./perf-runs.ts: recursion
   * through one call site, or a function inlined into itself) are not in the part's tree: they
   * are handed over with the part's run statistics and folded by the merge (./perf-late.ts).
   */
  finishPart(): Omit<PartialProfile, 'lines' | 'tooLong' | 'sawReplacement'> {
    this.endInput();
    const meta = this.partMeta();
    meta.late = { printedInlined: this.stack.printedInlined, stats: this.stack.stats.data(), addresses: this.stack.addresses.data(), deferred: this.deferred.data() };
    const frames = this.frames.finish();
    const { tree, order } = this.builder.finish(frames);
    const lines = this.stack.sourceLines?.finishOrdered(frames, order) ?? null;
    const samples = this.column.inInputOrder(order, lines?.order);
    // Periods are integers (parsePeriod).
    const sourceLines = lines?.lines ?? null;
    return { format: 'perf-script', frames, moduleKnown: this.frames.moduleKnown(), tree, samples, integralWeights: true, meta, sourceLines, samplesBeforeLines: this.samplesBeforeLines };
  }

  /** What later parts of a split input need: the kept event, once a sample header decided it. */
  splitContext(): PartContext | null {
    if (this.wanted !== null) return {};
    // Undecided while only tracepoints were seen: a CPU event later would become the default.
    return this.chosenBase === null || isTracepoint(this.chosenBase) ? null : { event: this.chosenBase };
  }

  private endInput(): void {
    this.singleLine = false;
    if (this.tentative !== null) {
      // A recording of frames and nothing else: no headers.
      const lines = this.tentative;
      this.tentative = null;
      this.confirmHeaderless(lines);
    }
    if (this.inSample) this.endSample();
  }

  /**
   * The input's last line, which has no line end: perf was cut off mid-write. Whatever it holds (a
   * frame cut to `fib+0x1`, blanks, half a header), the sample it belongs to is incomplete: its
   * lines are skipped and reported, never drawn. The frames of its earlier lines stay in the
   * frame table, unused by the tree.
   */
  private cutAtEnd(text: string, lineNumber: number): void {
    const c = text.charCodeAt(0);
    if (c === HASH) return;
    const header = c !== TAB && c !== SPACE && text.trim() !== '';
    if (header && this.inSample) this.endSample();
    const first = this.inSample ? this.sampleLine : lineNumber;
    this.inSample = false;
    // Line counts, not numbers, in the text: a part's warning lines are shifted, its texts are not.
    const lines = lineNumber - first + 1;
    this.skippedLines += lines;
    const what = header || lines === 1 ? 'this line is' : `its sample (${lines} lines, from the header ${lines - 1} above) is`;
    this.quote(lineNumber, `expected a complete sample (a line end, then a blank line), found the input cut off after ${quoteInput(text)}; ${what} skipped`);
  }

  private partMeta(): PerfPartMeta {
    return {
      wanted: this.wanted,
      chosenBase: this.chosenBase,
      samples: this.samples,
      events: this.events.map((e) => ({ ...e })),
      keptNames: [...this.keptNames],
      otherEventSamples: this.otherEventSamples,
      samplesWithoutPeriod: this.samplesWithoutPeriod,
      badSamples: this.badSamples,
      skippedLines: this.skippedLines,
      quoted: this.warnings,
      quotedCount: this.quoted,
      hasInlined: this.stack.hasInlined,
      names: this.stack.names.data(),
      leaves: this.leaves.finish(),
      derived: this.derived,
      offCpu: this.offCpuSummary,
      column: { count: this.column.count, dropped: this.column.dropped, cap: this.column.cap },
    };
  }

  private startSample(text: string, lineNumber: number): void {
    const h = this.header;
    this.inSample = true;
    this.sampleLine = lineNumber;
    this.kept = this.countEvent(text.slice(h.eventStart, h.eventEnd));
    this.switchRecord = -1;
    if (this.offCpu !== null && !this.offCpuSample(text, lineNumber)) this.kept = false;
    if (!this.kept) this.otherEventSamples++;
    else if (this.switchRecord >= 0) this.weight = 0;
    else if (h.periodStart >= 0) {
      const period = parsePeriod(text, h.periodStart, h.periodEnd);
      if (period < 0) {
        this.kept = false;
        this.badSamples++;
        this.skippedLines++;
        const found = quoteInput(text.slice(h.periodStart, h.periodEnd));
        this.quote(lineNumber, `expected a period (a non-negative integer) in the sample header, found ${found}; sample skipped`);
      } else this.weight = period;
    } else {
      this.weight = 1;
      this.samplesWithoutPeriod++;
    }
    if (this.kept) {
      parseTimeInto(text, h.timeStart, h.timeEnd, this.column.nextTime);
      this.thread = h.tidEnd - h.tidStart <= 9 ? parsePeriod(text, h.tidStart, h.tidEnd) : -1;
      this.root = this.rootFrame(text);
      this.stack.begin();
    }
    if (h.restStart >= 0 && parseFrame(text, h.restStart, this.frameFields)) {
      // A sample without call chain: its one frame is on the header line, and no blank follows;
      // it ends with the next line, which may be the frame's source line (-F +srcline).
      if (this.kept) this.stack.frame(text, this.frameFields);
      this.singleLine = true;
    }
  }

  /**
   * A sample printed without header (`-F ip,sym`, `-F ip,sym,srcline`): weight 1, no event, time
   * or thread, and no process frame: its stack starts at its outermost frame (root -1).
   */
  private startHeaderless(lineNumber: number): void {
    this.inSample = true;
    this.sampleLine = lineNumber;
    this.kept = true;
    this.weight = 1;
    this.samplesWithoutPeriod++;
    this.column.nextTime[0] = -1;
    this.thread = -1;
    this.root = -1;
    this.stack.begin();
  }

  private endSample(): void {
    this.inSample = false;
    if (!this.kept) return;
    const stack = this.stack;
    const depth = stack.end();
    const ordinal = this.samples++;
    if (stack.leafOffset >= 0 && this.switchRecord < 0) this.leaves.add(stack.leafFrame, stack.leafOffset, this.weight, 1);
    if (stack.runs.unsettled) {
      if (this.switchRecord >= 0) this.deferredSwitches.set(ordinal, this.switchRecord);
      if (stack.sourceLines !== null) {
        // Its located frames would be numbered where one parser adds it, which the merge does not
        // reconstruct (../../parallel/merge-lines.ts): one parser reads such a recording.
        if (this.options.part) throw new WholeInputNeeded('a sample with source lines waits for the run statistics of the whole recording');
        this.deferredLocations.push(stack.stackLocation.slice(0, depth));
      }
      else this.deferredLocations.push(null);
      this.deferred.add(this.root, this.thread, ordinal, this.weight, this.column.nextTime[0], stack.stack, depth, stack.runs, this.frames.size, stack.printedInlined);
      if (this.deferred.full) {
        // One parser folds them with the statistics known now; a part cannot know those (see
        // ./perf-late.ts), and the recording is read by one parser.
        if (this.options.part) throw new WholeInputNeeded(`more than ${DEFERRED_LIMIT} ints of samples wait for the run statistics of the whole recording`);
        this.addDeferred();
      }
      return;
    }
    if (stack.runs.count > 0 && stack.printedInlined && foldRuns(stack.stack, stack.runs.data, stack.runs.count, stack.stats, this.frames)) stack.hasInlined = true;
    this.hook?.sample(this.root, stack.stack, depth, this.weight, ordinal);
    if (stack.sourceLines === null) this.samplesBeforeLines++;
    this.addPath(this.root, stack.stack, depth, this.weight, this.thread, this.switchRecord, stack.sourceLines === null ? null : stack.stackLocation);
  }

  /** Folds the samples kept aside with the runs' final gcds and adds them to the tree. */
  private addDeferred(): void {
    const time = this.column.nextTime[0];
    const locations = this.deferredLocations;
    let k = 0;
    this.deferred.drain((root, thread, ordinal, weight, at, stack, depth, runs, runCount) => {
      if (this.stack.printedInlined && foldRuns(stack, runs, runCount, this.stack.stats, this.frames)) this.stack.hasInlined = true;
      this.column.nextTime[0] = at;
      this.hook?.sample(root, stack, depth, weight, ordinal);
      this.addPath(root, stack, depth, weight, thread, this.deferredSwitches.get(ordinal) ?? -1, locations[k++] ?? null);
    });
    this.deferredLocations = [];
    this.column.nextTime[0] = time;
  }

  /**
   * A sample header when a derived event is read: every sample says its thread runs; a switch
   * sample starts an interval (its stack is the switch-out's). False when the switch's fields
   * cannot be read (the sample is skipped and reported).
   */
  private offCpuSample(text: string, lineNumber: number): boolean {
    const record = (this.offCpu as OffCpuIntervals).header(text, this.header, this.kept, this.column.nextTime);
    if (record === BAD_SWITCH) {
      this.badSamples++;
      this.skippedLines++;
      this.quote(lineNumber, `expected a sched_switch sample "TIME: sched:sched_switch: prev_comm=… prev_pid=N … prev_state=S ==> next_comm=… next_pid=N", found ${quoteInput(text)}; sample skipped`);
      return false;
    }
    this.switchRecord = record;
    return true;
  }

  /** The derived events' intervals, each a leaf per state under its switch-out stack. */
  private addIntervals(): void {
    const offCpu = this.offCpu;
    if (offCpu === null) return;
    const leaves = STATE_LEAVES.map((name) => this.frames.intern(name, 0));
    const time = this.column.nextTime;
    this.offCpuSummary = offCpu.finish((node, state, ns, start, thread, waker) => {
      let leaf = this.builder.child(node, leaves[state]);
      if (waker !== null) leaf = this.builder.child(leaf, this.frames.intern(waker, 0));
      this.builder.addSelf(leaf, ns, 1);
      time[0] = start;
      // A span in time order, from the switch-out for its duration (the weight's nanoseconds).
      this.column.push(leaf, ns, thread, ns / 1e9);
    });
  }

  /**
   * Adds root, stack[depth-1] … stack[0] to the tree, reusing the previous sample's prefix. A
   * switch sample (`switchRecord` ≥ 0) adds no weight: its node is where its interval will go.
   */
  private addPath(root: FrameIndex, frames: Int32Array, depth: number, weight: number, thread: number, switchRecord: number, locations: Int32Array | null): void {
    // A sample without header has no process frame (root -1): its path is its frames alone.
    const r = root < 0 ? 0 : 1;
    const length = depth + r;
    if (length > this.prevFrames.length) {
      const size = Math.max(length, this.prevFrames.length * 2);
      const f = new Int32Array(size);
      f.set(this.prevFrames);
      this.prevFrames = f;
      const n = new Int32Array(size);
      n.set(this.prevNodes);
      this.prevNodes = n;
    }
    const prevFrames = this.prevFrames;
    const prevNodes = this.prevNodes;
    let node: NodeIndex = ROOT_NODE;
    let d = 0;
    const shared = Math.min(length, this.prevLength);
    while (d < shared) {
      const f = d === 0 && r === 1 ? root : frames[depth - d - 1 + r];
      if (prevFrames[d] !== f) break;
      node = prevNodes[d];
      d++;
    }
    for (; d < length; d++) {
      const f = d === 0 && r === 1 ? root : frames[depth - d - 1 + r];
      node = this.builder.child(node, f);
      prevFrames[d] = f;
      prevNodes[d] = node;
    }
    this.prevLength = length;
    if (switchRecord >= 0) {
      this.offCpu?.setNode(switchRecord, node);
      return;
    }
    this.builder.addSelf(node, weight, 1);
    this.column.push(node, weight, thread);
    if (locations !== null) this.column.setLine(this.addLines(root, frames, locations, depth, weight));
  }

  /**
   * The sample's located path into the line tree (../../model/source-lines.ts), reusing the
   * previous sample's prefix as addPath does; prevNodes holds the path's tree nodes by now.
   */
  private addLines(root: FrameIndex, frames: Int32Array, locations: Int32Array, depth: number, weight: number): NodeIndex {
    const lines = this.stack.sourceLines!;
    const r = root < 0 ? 0 : 1;
    const length = depth + r;
    if (length > this.prevLineFrames.length) {
      const size = Math.max(length, this.prevLineFrames.length * 2);
      this.prevLineFrames = grown(this.prevLineFrames, size);
      this.prevLineLocations = grown(this.prevLineLocations, size);
      this.prevLineNodes = grown(this.prevLineNodes, size);
    }
    const prevFrames = this.prevLineFrames;
    const prevLocations = this.prevLineLocations;
    const prevNodes = this.prevLineNodes;
    let node: NodeIndex = ROOT_NODE;
    let d = 0;
    const shared = Math.min(length, this.prevLineLength);
    while (d < shared) {
      const f = d === 0 && r === 1 ? root : frames[depth - d - 1 + r];
      const l = d === 0 && r === 1 ? -1 : locations[depth - d - 1 + r];
      if (prevFrames[d] !== f || prevLocations[d] !== l) break;
      node = prevNodes[d];
      d++;
    }
    for (; d < length; d++) {
      const f = d === 0 && r === 1 ? root : frames[depth - d - 1 + r];
      const l = d === 0 && r === 1 ? -1 : locations[depth - d - 1 + r];
      node = lines.child(node, f, l, this.prevNodes[d]);
      prevFrames[d] = f;
      prevLocations[d] = l;
      prevNodes[d] = node;
    }
    this.prevLineLength = length;
    lines.addSelf(node, weight, 1);
    return node;
  }

  /** Counts the event; returns whether samples of it are kept. */
  private countEvent(name: string): boolean {
    const last = this.lastEvent;
    if (last !== null && last.name === name) {
      last.samples++;
      return this.lastEventKept;
    }
    let summary = this.events.find((e) => e.name === name);
    if (!summary) {
      summary = { name: detach(name), samples: 0 };
      this.events.push(summary);
    }
    summary.samples++;
    this.lastEvent = summary;
    let kept: boolean;
    const base = eventBaseName(name);
    if (this.derived !== null) kept = base === SWITCH_EVENT || (this.derived === 'wall' && TIME_EVENTS.has(base));
    else if (this.wanted !== null) kept = this.wantedIsFull ? name === this.wanted : base === this.wanted;
    else {
      if (this.chosenBase === null) this.chosenBase = base;
      // A mixed recording opens on its CPU samples, whatever tracepoint comes first.
      else if (isTracepoint(this.chosenBase) && !isTracepoint(base) && this.options.partContext === undefined) this.restart(base);
      kept = base === this.chosenBase;
    }
    if (kept) this.keptNames.add(summary.name);
    this.lastEventKept = kept;
    return kept;
  }

  /**
   * The default event becomes `base`, a CPU event met after samples of a tracepoint: what was
   * kept of the tracepoint is dropped (its frames stay in the table, unused) and counted among
   * the other events' samples.
   */
  private restart(base: string): void {
    this.chosenBase = base;
    this.otherEventSamples += this.samples + this.badSamples;
    this.samples = 0;
    this.badSamples = 0;
    this.samplesWithoutPeriod = 0;
    this.keptNames.clear();
    this.builder = new TreeBuilder();
    this.column = new SampleColumnBuilder(this.column.cap);
    this.deferred = new DeferredSamples();
    this.leaves = new LeafAddressesBuilder();
    this.prevLength = 0;
  }

  private rootFrame(text: string): FrameIndex {
    const h = this.header;
    const comm = text.slice(h.commStart, h.commEnd);
    let key = comm;
    if (this.split !== 'process') {
      const pid = h.pidStart >= 0 ? text.slice(h.pidStart, h.pidEnd) : '?';
      key = this.split === 'pid' ? `${comm}\u0000${pid}` : `${comm}\u0000${pid}\u0000${text.slice(h.tidStart, h.tidEnd)}`;
    }
    let frame = this.roots.get(key);
    if (frame === undefined) {
      const parts = key.split('\u0000');
      let name = parts[0].replaceAll(' ', '_');
      if (parts.length === 2) name += `-${parts[1]}`;
      else if (parts.length === 3) name += `-${parts[1]}/${parts[2]}`;
      frame = this.frames.intern(detach(name), 0);
      this.roots.set(detach(key), frame);
    }
    return frame;
  }

  readonly badFrame = (lineNumber: number, text: string): void =>
    this.skip(lineNumber, `a frame line "ADDRESS SYMBOL (DSO)"`, text);

  private skip(lineNumber: number, expected: string, text: string): void {
    this.skippedLines++;
    this.quote(lineNumber, `expected ${expected}, found ${quoteInput(text)}; line skipped`);
  }

  private quote(line: number, message: string): void {
    if (this.quoted++ < MAX_QUOTED) this.warnings.push({ line, message });
  }
}

/** A tracepoint (`sched:sched_switch`), not a CPU event: its name keeps a colon. */
function isTracepoint(base: string): boolean {
  return base.includes(':');
}

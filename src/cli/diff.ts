// `flameview diff A B`: two recordings in (perf script text or folded stacks, gzip or not), the
// differential folded text out, `stack weightA weightB` per line, as FlameGraph's
// difffolded.pl prints it, ready for `flamegraph.pl` or `inferno-flamegraph`.
//
// Invariants: stack names and annotations are exactly those of `flameview collapse` with the
// same options (one exporter: core/export/folded.ts); every stack of either input appears once,
// with 0 for the input that lacks it; lines are sorted in UTF-8 byte order (difffolded.pl prints
// them in hash order; sorting makes the output reproducible and diffable).
// `--normalize` is difffolded.pl's -n: when the totals differ, every A weight becomes
// int(A × totalB / totalA), truncated toward zero, computed in doubles as perl does.
//
// Exit codes: 0 done, 1 an input cannot be read or is not a recording, 2 usage error.

import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { compareUtf8, foldedStacks, formatWeight, type FoldedOptions, type FoldedStacks } from '../core/export/folded';
import { loadProfile } from '../core/import/load';
import { ImportError, type Profile } from '../core/profile';
import type { CliIo } from './main';

export const DIFF_USAGE = `usage: flameview diff [options] A B
  prints "stack weightA weightB" lines (A = baseline, B = comparison), sorted bytewise,
  for flamegraph.pl or inferno-flamegraph; a stack missing from one input gets 0 there.
  --view inline|functions  inline (default): every frame, inlined ones marked _[i];
                           functions: inlined frames merged into their caller
  --samples                weight by sample count instead of the summed period
  --pid, --tid             root frame comm-PID or comm-PID/TID instead of the process name
  --event NAME             perf script: keep samples of this event (default: the first seen)
  --full-names             keep argument lists and full names (only ';' becomes ':')
  --normalize, -n          scale A's weights to B's total, as difffolded.pl -n
  A or B may be - for stdin (not both).
`;

const MAX_WARNINGS = 5;

export async function runDiff(args: string[], io: CliIo): Promise<number> {
  if (args.includes('--open')) {
    return usageError(io, '--open is not part of this command: `flameview A B` opens the comparison in the browser');
  }
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        view: { type: 'string' },
        samples: { type: 'boolean' },
        pid: { type: 'boolean' },
        tid: { type: 'boolean' },
        event: { type: 'string' },
        'full-names': { type: 'boolean' },
        normalize: { type: 'boolean', short: 'n' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    return usageError(io, e instanceof Error ? e.message : String(e));
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(DIFF_USAGE);
    return 0;
  }
  const view = values.view ?? 'inline';
  if (view !== 'inline' && view !== 'functions') return usageError(io, `--view must be inline or functions, not '${view}'`);
  if (positionals.length !== 2) return usageError(io, `expected two recordings A and B, got ${positionals.length}`);
  if (positionals[0] === '-' && positionals[1] === '-') return usageError(io, 'only one of A and B can be - (stdin)');

  const split = values.tid ? 'tid' : values.pid ? 'pid' : 'process';
  const [a, b] = await Promise.all(positionals.map((file) => loadInput(file, io, { event: values.event, split })));
  if (!a || !b) return 1;
  if (a.meta.event !== null && b.meta.event !== null && a.meta.event !== b.meta.event && !values.samples) {
    io.stderr.write(
      `flameview: warning: A's event is ${a.meta.event} but B's is ${b.meta.event}; their weights may not be comparable (--samples compares sample counts)\n`,
    );
  }

  const options: FoldedOptions = {
    view,
    weight: values.samples ? 'samples' : 'period',
    annotateInline: true,
    fullNames: Boolean(values['full-names']),
  };
  const lines = diffFoldedChunks(foldedStacks(a, options), foldedStacks(b, options), { normalize: Boolean(values.normalize) });
  return writeChunks(io.stdout, lines);
}

export interface DiffFoldedOptions {
  /** difffolded.pl -n: scale A to B's total. */
  normalize?: boolean;
}

/**
 * Merges two sorted folded stack lists into `stack a b` lines, in chunks of whole lines.
 * Both inputs must be sorted in UTF-8 byte order with distinct stacks (foldedStacks gives that).
 */
export function* diffFoldedChunks(a: FoldedStacks, b: FoldedStacks, options: DiffFoldedOptions = {}): Generator<string> {
  const totalA = sum(a.weights);
  const totalB = sum(b.weights);
  // difffolded.pl: `int($count1 * $total2 / $total1)` only when the totals differ. Perl multiplies
  // the (exact) integers and divides in doubles; JS doubles give the same result.
  const scale = options.normalize && totalA !== totalB && totalA > 0;
  const weightA = (w: number) => formatWeight(scale ? Math.trunc((w * totalB) / totalA) : w);
  let chunk = '';
  let i = 0;
  let j = 0;
  while (i < a.stacks.length || j < b.stacks.length) {
    const c = i >= a.stacks.length ? 1 : j >= b.stacks.length ? -1 : compareUtf8(a.stacks[i], b.stacks[j]);
    if (c < 0) {
      chunk += a.stacks[i] + ' ' + weightA(a.weights[i]) + ' 0\n';
      i++;
    } else if (c > 0) {
      chunk += b.stacks[j] + ' 0 ' + formatWeight(b.weights[j]) + '\n';
      j++;
    } else {
      chunk += a.stacks[i] + ' ' + weightA(a.weights[i]) + ' ' + formatWeight(b.weights[j]) + '\n';
      i++;
      j++;
    }
    if (chunk.length >= 65536) {
      yield chunk;
      chunk = '';
    }
  }
  if (chunk.length > 0) yield chunk;
}

function sum(w: Float64Array): number {
  let s = 0;
  for (let i = 0; i < w.length; i++) s += w[i];
  return s;
}

/** Loads one recording; on failure writes one line to stderr and returns null. */
async function loadInput(file: string, io: CliIo, options: { event?: string; split: 'process' | 'pid' | 'tid' }): Promise<Profile | null> {
  const source = file === '-' ? '<stdin>' : file;
  let input: AsyncIterable<Uint8Array>;
  if (file === '-') {
    input = io.stdin as AsyncIterable<Uint8Array>;
  } else {
    try {
      // Open first so a missing or unreadable file is one clear line, not a stream error.
      const handle = await open(file, 'r');
      const stat = await handle.stat();
      if (stat.isDirectory()) {
        await handle.close();
        io.stderr.write(`flameview: ${file}: is a directory\n`);
        return null;
      }
      // The stream owns the FileHandle and closes it (a raw fd would be closed twice: once by
      // the stream, once when the FileHandle is garbage-collected, which throws EBADF).
      input = handle.createReadStream({ highWaterMark: 1 << 20 });
    } catch (e) {
      io.stderr.write(`flameview: ${file}: cannot read: ${describeFsError(e)}\n`);
      return null;
    }
  }
  let profile: Profile;
  try {
    profile = await loadProfile(input, { source, ...options });
  } catch (e) {
    if (e instanceof ImportError) io.stderr.write(`flameview: ${oneLine(e.message)}\n`);
    else if (isFsError(e)) io.stderr.write(`flameview: ${source}: cannot read: ${describeFsError(e)}\n`);
    else io.stderr.write(`flameview: ${source}: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    return null;
  }
  const { skippedLines, warnings } = profile.meta;
  if (skippedLines > 0) {
    io.stderr.write(`flameview: ${source}: warning: skipped ${skippedLines} unparseable line${skippedLines === 1 ? '' : 's'}\n`);
  }
  for (const w of warnings.slice(0, MAX_WARNINGS)) {
    io.stderr.write(`flameview: ${source}: ${w.line > 0 ? `line ${w.line}: ` : ''}${oneLine(w.message)}\n`);
  }
  if (warnings.length > MAX_WARNINGS) io.stderr.write(`flameview: ${source}: … and ${warnings.length - MAX_WARNINGS} more warnings\n`);
  return profile;
}

/** Writes with backpressure; a closed pipe (e.g. `| head`) ends the output quietly. */
async function writeChunks(out: NodeJS.WritableStream, chunks: Iterable<string>): Promise<number> {
  let closed = false;
  const onError = (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
  };
  out.on('error', onError);
  try {
    for (const chunk of chunks) {
      if (closed) break;
      if (!out.write(chunk)) await drainOrClose(out);
    }
  } finally {
    out.off('error', onError);
  }
  return 0;
}

/** Resolves on 'drain', 'close' or 'error', removing all three listeners (no leak per chunk). */
function drainOrClose(out: NodeJS.WritableStream): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      out.off('close', done);
      out.off('error', done);
      resolve();
    };
    out.on('drain', done);
    out.on('close', done);
    out.on('error', done);
  });
}

function usageError(io: CliIo, message: string): number {
  io.stderr.write(`flameview diff: ${oneLine(message)}\n${DIFF_USAGE}`);
  return 2;
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ');
}

function isFsError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && (e as NodeJS.ErrnoException).syscall !== undefined;
}

function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    default:
      return err?.code ?? (e instanceof Error ? e.message : String(e));
  }
}

// What every file-reading subcommand (collapse, diff, svg, top) shares: opening FILE or `-`,
// loading it with one-line errors, reporting skipped lines and warnings on stderr, and writing
// output with backpressure where a closed pipe (`| head`) ends quietly.
//
// Invariant: a failure is printed as exactly one line `flameview: SOURCE: …` and never as a
// stack trace; callers turn a null result into exit status 1.

import { open, rename, rm, writeFile, type FileHandle } from 'node:fs/promises';
import { loadProfile, type LoadOptions } from '../core/import/load';
import { ImportError, type Profile } from '../core/model/profile';
import type { CliIo } from './main';
import { loadFileInParts } from './parallel-load';
import { perfDataOnStdinMessage, runPerfScript, symfsBuildIds, type PerfScriptRun } from './perf-data';
import { READ_CHUNK, readAhead } from '../node/read-ahead';
import { isPerfData, PERF_DATA_MAGICS } from '../core/import/sniff';
import { readHead } from '../server/sniff';

/** How many warnings are quoted before "… and N more". */
export const MAX_WARNINGS = 5;

export function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ');
}

/** A usage error for `flameview COMMAND`: the message, the usage text, exit status 2. */
export function usageError(io: CliIo, command: string, usage: string, message: string): number {
  io.stderr.write(`flameview ${command}: ${oneLine(message)}\n${usage}`);
  return 2;
}

/** parseArgs's messages, shortened for the one unknown-option case users meet most. */
export function describeArgsError(e: unknown, args: readonly string[] = []): string {
  const message = e instanceof Error ? e.message : String(e);
  const unknown = /^Unknown option '([^']*)'/.exec(message);
  if (unknown) return `unknown option '${unknown[1]}'`;
  // Node names an option with a short form as "-o, --o <value>": say it as it was typed.
  const missing = /^Option '(?:(-[^ ,']+), )?(--[^ ']+) <value>' argument missing/.exec(message);
  if (missing) {
    const typed = args[args.length - 1];
    return `${typed === missing[1] || typed === missing[2] ? typed : (missing[1] ?? missing[2])} needs a value`;
  }
  // `-n -5`: node takes -5 for an option and refuses; say which value, and how to give it.
  const ambiguous = /^Option '([^']+)' argument is ambiguous/.exec(message);
  if (ambiguous) {
    const option = ambiguous[1];
    const next = args.find((a, i) => i > 0 && args[i - 1] === option && a.startsWith('-'));
    if (next === undefined || next === '--') return `${option} needs a value`;
    return `${option} needs a value, and '${next}' reads as an option (write ${option.startsWith('--') ? `${option}=${next}` : `${option}${next}`} to give it)`;
  }
  const flag = /^Option '([^']+)' does not take an argument/.exec(message);
  if (flag) return `${flag[1]} takes no value`;
  return message;
}

/**
 * Loads FILE (or stdin for `-`). On failure writes one line to stderr and returns null; on
 * success reports skipped lines and warnings and returns the profile.
 */
export async function loadRecording(
  file: string,
  io: CliIo,
  options: Pick<LoadOptions, 'event' | 'split' | 'unit'> = {},
  /** A perf.data input is printed with its source lines (`perf script -F +srcline`). */
  srcline = false,
  /** perf's --symfs: where a perf.data input's binaries are, if not at their recorded paths. */
  symfs?: string,
): Promise<Profile | null> {
  const source = file === '-' ? '<stdin>' : file;
  let input: AsyncIterable<Uint8Array>;
  let perf: PerfScriptRun | null = null;
  // A large regular file (not perf.data) may be parsed in parts on every core: its size, and its
  // handle, closed here when the parts loaded it (readAhead, which owns it otherwise, never started).
  let parallel: { size: number; handle: FileHandle } | null = null;
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
      if (stat.isFile() && isPerfData(await readHead(file, 8))) {
        // perf.data: read the text `perf script` prints for it, as `flameview FILE` does.
        await handle.close();
        const cache = await symfsBuildIds(file, symfs);
        perf = runPerfScript(file, file, io, srcline, cache.dir);
        void perf.exited.then(cache.remove, cache.remove);
        input = perf.output;
      } else {
        // The reader owns the FileHandle and closes it (a raw fd would be closed twice: once by
        // the stream, once when the FileHandle is garbage-collected, which throws EBADF). A
        // regular file is read with several reads in flight; a pipe or device as a stream.
        input = stat.isFile() ? readAhead(handle) : handle.createReadStream({ highWaterMark: READ_CHUNK });
        if (stat.isFile()) parallel = { size: stat.size, handle };
      }
    } catch (e) {
      io.stderr.write(`flameview: ${file}: cannot read: ${describeFsError(e)}\n`);
      return null;
    }
  }
  let profile: Profile;
  try {
    // A large regular file is parsed in parts on every core (./parallel-load.ts); what cannot
    // be split is read by one parser (readAhead starts reading, and owns the handle, only then).
    const inParts = parallel ? await loadFileInParts(file, parallel.size, { source, ...options }).catch(async (e: unknown) => {
      await parallel?.handle.close();
      throw e;
    }) : null;
    if (inParts) await parallel?.handle.close();
    profile = inParts ?? (await loadProfile(input, { source, ...options }));
    await perf?.exited;
  } catch (e) {
    // When perf failed, its message explains whatever the loader then made of its output.
    const perfFailure = await perf?.exited.then(
      () => null,
      (p: Error) => p,
    );
    if (perfFailure) io.stderr.write(`flameview: ${oneLine(perfFailure.message)}\n`);
    else if (e instanceof ImportError && e.line === 1 && PERF_DATA_MAGICS.some((m) => e.found.includes(m))) io.stderr.write(`flameview: ${perfDataOnStdinMessage()}\n`);
    else if (e instanceof ImportError) io.stderr.write(`flameview: ${oneLine(e.message)}\n`);
    else if (isFsError(e)) io.stderr.write(`flameview: ${source}: cannot read: ${describeFsError(e)}\n`);
    else io.stderr.write(`flameview: ${source}: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    return null;
  }
  reportWarnings(io, source, profile);
  // Only folded text has bare numbers; every other format says what its weights are.
  if (options.unit && options.unit !== 'samples' && profile.meta.format !== 'folded') {
    io.stderr.write(`flameview: ${source}: note: --unit ignored: the input is ${profile.meta.format}, whose weights carry their own unit\n`);
  }
  return profile;
}

function reportWarnings(io: CliIo, source: string, profile: Profile): void {
  const { skippedLines, warnings } = profile.meta;
  if (skippedLines > 0) {
    io.stderr.write(`flameview: ${source}: warning: skipped ${skippedLines} unparseable line${skippedLines === 1 ? '' : 's'}\n`);
  }
  for (const w of warnings.slice(0, MAX_WARNINGS)) {
    io.stderr.write(`flameview: ${source}: ${w.line > 0 ? `line ${w.line}: ` : ''}${oneLine(w.message)}\n`);
  }
  if (warnings.length > MAX_WARNINGS) io.stderr.write(`flameview: ${source}: … and ${warnings.length - MAX_WARNINGS} more warnings\n`);
}

/** Writes with backpressure; a closed pipe (e.g. `| head`) ends the output quietly. Returns 0. */
export async function writeChunks(out: NodeJS.WritableStream, chunks: Iterable<string>): Promise<number> {
  let closed = false;
  // Kept after we return: an EPIPE can be reported after the last write, and an unhandled
  // 'error' event would print a stack trace.
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
    else throw e;
  });
  for (const chunk of chunks) {
    if (closed) break;
    if (chunk.length > 0 && !out.write(chunk)) await drained(out);
  }
  return 0;
}

/** Resolves on 'drain', 'close' or 'error', removing all three listeners (no leak per chunk). */
function drained(out: NodeJS.WritableStream): Promise<void> {
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

function isFsError(e: unknown): e is NodeJS.ErrnoException {
  return e instanceof Error && typeof (e as NodeJS.ErrnoException).code === 'string' && (e as NodeJS.ErrnoException).syscall !== undefined;
}

export function describeFsError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a directory';
    case 'ENOTDIR':
      return 'no such file (a part of the path is not a directory)';
    case 'ELOOP':
      return 'too many symbolic links';
    default:
      return err?.code ?? (e instanceof Error ? e.message : String(e));
  }
}

/**
 * Writes `bytes` to `out` whole or not at all (a temporary file renamed into place), so a failure
 * leaves no truncated file for another tool to choke on. False after printing the one-line error.
 */
export async function writeWhole(out: string, bytes: Uint8Array | string, io: CliIo): Promise<boolean> {
  const temporary = `${out}.flameview-${process.pid}.tmp`;
  try {
    await writeFile(temporary, bytes);
    await rename(temporary, out);
    return true;
  } catch (e) {
    await rm(temporary, { force: true });
    io.stderr.write(`flameview: ${out}: cannot write: ${describeFsError(e)}\n`);
    return false;
  }
}

// `flameview collapse`: a recording (perf script text or folded stacks, gzip or not) in, sorted
// folded stacks out, as inferno-collapse-perf / stackcollapse-perf.pl print them.
//
// Exit codes: 0 done (also for an empty recording, with a note on stderr; skipped lines are
// reported on stderr), 1 the input cannot be read or is not a recording (one line on stderr,
// never a stack trace), 2 usage error.

import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { foldedChunks, type FoldedOptions } from '../core/export/folded';
import { loadProfile } from '../core/import/load';
import { ImportError, type Profile } from '../core/profile';
import type { CliIo } from './main';

export const COLLAPSE_USAGE = `usage: flameview collapse [options] FILE|-
  --view inline|functions  inline (default): every frame, inlined ones marked _[i];
                           functions: inlined frames merged into their caller
  --samples                weight by sample count instead of the summed period
  --pid, --tid             root frame comm-PID or comm-PID/TID instead of the process name
  --event NAME             perf script: keep samples of this event (default: the first seen)
  --kernel, --jit          annotate kernel frames _[k], JIT frames _[j]; --all: both
  --full-names             keep argument lists and full names (only ';' becomes ':')
`;

const MAX_WARNINGS = 5;

export async function runCollapse(args: string[], io: CliIo): Promise<number> {
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
        kernel: { type: 'boolean' },
        jit: { type: 'boolean' },
        all: { type: 'boolean' },
        'full-names': { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    const unknown = /^Unknown option '([^']*)'/.exec(message);
    return usageError(io, unknown ? `unknown option '${unknown[1]}'` : message);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(COLLAPSE_USAGE);
    return 0;
  }
  const view = values.view ?? 'inline';
  if (view !== 'inline' && view !== 'functions') return usageError(io, `--view must be inline or functions, not '${view}'`);
  if (positionals.length !== 1) {
    return usageError(io, positionals.length === 0 ? 'missing FILE (use - for stdin)' : `expected one FILE, got ${positionals.length}`);
  }
  const file = positionals[0];
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
        return 1;
      }
      // The stream owns the handle and closes it at the end (or on error).
      input = handle.createReadStream({ highWaterMark: 1 << 20 });
    } catch (e) {
      io.stderr.write(`flameview: ${file}: cannot read: ${describeFsError(e)}\n`);
      return 1;
    }
  }

  let profile: Profile;
  try {
    profile = await loadProfile(input, {
      source,
      event: values.event,
      split: values.tid ? 'tid' : values.pid ? 'pid' : 'process',
    });
  } catch (e) {
    if (e instanceof ImportError) io.stderr.write(`flameview: ${oneLine(e.message)}\n`);
    else if (isFsError(e)) io.stderr.write(`flameview: ${source}: cannot read: ${describeFsError(e)}\n`);
    else io.stderr.write(`flameview: ${source}: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }

  reportWarnings(io, source, profile);
  if (profile.meta.format === 'folded') {
    const ignored = [values.event !== undefined && '--event', values.pid && '--pid', values.tid && '--tid'].filter(Boolean);
    if (ignored.length > 0) io.stderr.write(`flameview: ${source}: note: ${ignored.join(', ')} ignored: the input is already folded\n`);
  }

  const options: FoldedOptions = {
    view,
    weight: values.samples ? 'samples' : 'period',
    annotateInline: true,
    annotateKernel: Boolean(values.kernel || values.all),
    annotateJit: Boolean(values.jit || values.all),
    fullNames: Boolean(values['full-names']),
  };
  if (profile.tree.totalSamples[0] === 0 && profile.tree.totalWeight[0] === 0) {
    if (!profile.meta.warnings.some((w) => w.message.includes('no samples'))) {
      io.stderr.write(`flameview: ${source}: note: no samples; nothing to print\n`);
    }
    return 0;
  }
  return writeChunks(io.stdout, foldedChunks(profile, options));
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

/** Writes with backpressure; a closed pipe (e.g. `| head`) ends the output quietly. */
async function writeChunks(out: NodeJS.WritableStream, chunks: Iterable<string>): Promise<number> {
  let closed = false;
  // Kept after we return: an EPIPE can be reported after the last write, and an unhandled
  // 'error' event would print a stack trace.
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
    else throw e;
  });
  for (const chunk of chunks) {
    if (closed) break;
    if (!out.write(chunk)) await drained(out);
  }
  return 0;
}

/** Resolves on 'drain', 'close' or 'error' (events.once would reject on 'error'). */
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

function usageError(io: CliIo, message: string): number {
  io.stderr.write(`flameview collapse: ${oneLine(message)}\n${COLLAPSE_USAGE}`);
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

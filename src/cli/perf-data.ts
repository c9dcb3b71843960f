// perf.data files on the command line: every command that reads a recording runs `perf script
// -i FILE` and reads its text output, as `flameview FILE` does, with one set of messages (perf
// missing, perf failing) and a sample count on the terminal while perf runs.
//
// Invariant: the returned `done` promise settles only once perf has exited and its output has
// been consumed or written; it rejects with a PerfScriptError whose message is one line.

import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { symfsBuildIdCache } from '../node/disasm';
import { cleanupOnStop, type StopCleanup } from './on-stop';
import type { Readable } from 'node:stream';
import type { CliIo } from './main';

export class PerfScriptError extends Error {}

export interface PerfScriptRun {
  /** perf script's text output. */
  output: Readable;
  /** Resolves when perf exited successfully; rejects with a PerfScriptError otherwise. */
  exited: Promise<void>;
}

/** The message for a perf.data input when perf cannot be started at all. */
export function perfMissingMessage(label: string): string {
  return (
    `${label} is a perf.data file and reading it needs perf, which is not installed ` +
    `(Debian/Ubuntu: apt install linux-perf); or run \`perf script -i ${label} | flameview -\` where perf is`
  );
}

/** The message for perf.data bytes that arrive on stdin, where perf script cannot seek in them. */
export function perfDataOnStdinMessage(): string {
  return 'stdin is a perf.data file, which perf script reads only from a file: pass its name instead of -, or pipe `perf script` output';
}

/**
 * `-F +srcline` for every event type that has an instruction address, but not for tracepoints:
 * perf refuses a plain `-F +srcline` on a recording with `sched:sched_switch` ("sample IP is not
 * selected"), and adding `ip,sym,dso` to tracepoints would append them to the event's text when
 * they carry no call chain. The samples' lines print as with `-F +srcline`; tracepoints as plainly.
 */
const SRCLINE_FIELDS = ['hw', 'sw', 'raw', 'break', 'synth'].flatMap((type) => ['-F', `${type}:+srcline`]);

/**
 * Starts `perf script -i INPUT`, counting samples (its unindented header lines) for a progress
 * line on a terminal stderr and a final count line. perf prints inline frames by default when
 * it can. `srcline`: with `-F +srcline` (SRCLINE_FIELDS), each frame's source line (perf runs
 * addr2line for them, as it does for inline frames: on fixtures/srcline/'s cargo recording 1.2x
 * the time of the plain printing, 2.2 s against 1.9 s), which flameview reads as the recording's
 * lines; with
 * `--full-source-path`, so the files are named by the absolute paths the Source panel's listing
 * is served from (perf prints base names otherwise). `buildIdDir`: perf's `--buildid-dir`, the
 * cache symfsBuildIds fills from `--symfs`.
 */
export function runPerfScript(input: string, label: string, io: Pick<CliIo, 'stderr'>, srcline = false, buildIdDir?: string): PerfScriptRun {
  const cache = buildIdDir ? ['--buildid-dir', buildIdDir] : [];
  const child = spawn('perf', [...cache, 'script', '-i', input, ...(srcline ? [...SRCLINE_FIELDS, '--full-source-path'] : [])], { stdio: ['ignore', 'pipe', 'pipe'] });
  runningPerf.add(child);
  const tty = (io.stderr as NodeJS.WriteStream).isTTY === true;
  let samples = 0;
  let lineStart = true;
  let lastShown = 0;
  let stderrTail = '';
  const show = (final: boolean) => {
    const text = `flameview: perf script ${label}: ${samples} samples${final ? '' : '…'}`;
    if (tty) io.stderr.write(`\r${text}${final ? '\n' : ''}`);
    else if (final) io.stderr.write(`${text}\n`);
  };
  child.stdout.on('data', (chunk: Buffer) => {
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk[i];
      if (lineStart && c !== 0x09 && c !== 0x20 && c !== 0x0a && c !== 0x23) samples++;
      lineStart = c === 0x0a;
    }
    const now = Date.now();
    if (now - lastShown > 200) {
      lastShown = now;
      show(false);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderrTail = (stderrTail + chunk.toString('utf8')).slice(-4096);
  });
  const exited = new Promise<void>((resolve, reject) => {
    child.on('error', (e: NodeJS.ErrnoException) => {
      reject(new PerfScriptError(e.code === 'ENOENT' ? perfMissingMessage(label) : `cannot run perf: ${e.message}`));
    });
    child.on('close', (code, signal) => {
      const status = code ?? (signal ? 128 : 1);
      if (status !== 0) {
        // perf wraps a message over lines and may print its usage after it: the last paragraph
        // that is not usage, on one line.
        const paragraphs = stderrTail.trim().split(/\n\s*\n/).map((p) => p.split('\n').map((l) => l.trim()).filter(Boolean).join(' '));
        const last = paragraphs.filter((p) => p && !/^(Usage:|-)/.test(p)).pop() ?? `exit status ${status}`;
        if (tty) io.stderr.write('\n');
        reject(new PerfScriptError(`perf script failed on ${label}: ${last}`));
        return;
      }
      show(true);
      resolve();
    });
  });
  // The caller may reject early on the stream; keep an unobserved rejection from crashing.
  exited.catch(() => undefined);
  return { output: child.stdout, exited };
}

/**
 * The perf children still running, stopped if flameview ends first, by Ctrl+C, SIGTERM or an exit
 * mid-parse (the opener's stop): a terminal's Ctrl+C reaches perf too, but a signal sent to
 * flameview alone would leave perf printing on into a pipe nobody reads, until its next write fails.
 */
class RunningPerf {
  private readonly children = new Set<ChildProcess>();
  private onStop: StopCleanup | null = null;

  add(child: ChildProcess): void {
    this.onStop ??= cleanupOnStop(() => {
      for (const c of this.children) c.kill('SIGTERM');
    });
    this.children.add(child);
    const done = () => {
      if (this.children.delete(child) && this.children.size === 0) {
        this.onStop?.off();
        this.onStop = null;
      }
    };
    child.once('exit', done);
    child.once('error', done); // never started (no perf)
  }
}

const runningPerf = new RunningPerf();

/**
 * With `--symfs DIR`, a build-id cache for `perf script` holding the recording's binaries found
 * there and nowhere else perf looks (symfsBuildIdCache): its folder, and its removal for when
 * perf is done. Without, or when there is no such binary, no folder: perf then looks where it
 * always does (the recorded paths, ~/.debug). With one, perf reads this cache instead of
 * ~/.debug for that run. `parent`: where the folder goes (`flameview FILE` gives its own
 * temporary folder, which its Ctrl+C handler removes); without, the system's, the folder removed
 * on Ctrl+C too.
 */
export async function symfsBuildIds(perfData: string, symfs: string | undefined, parent?: string): Promise<{ dir?: string; remove(): Promise<void> }> {
  if (!symfs) return { remove: async () => undefined };
  const dir = await mkdtemp(join(parent ?? tmpdir(), 'flameview-buildids-'));
  // In the system's temporary directory: removed on Ctrl+C too, until perf is done.
  const onStop = parent ? null : cleanupOnStop(() => rmSync(dir, { recursive: true, force: true }));
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    onStop?.off();
  };
  let held = 0;
  try {
    held = await symfsBuildIdCache(perfData, symfs, dir);
  } finally {
    if (held === 0) await remove();
  }
  return held > 0 ? { dir, remove } : { remove: async () => undefined };
}

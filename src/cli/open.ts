// `flameview [--no-open] [--port N] [--raw] FILE [FILE2]`, `… | flameview -`: opens recordings
// from the terminal. Serves the built app and only the named files (each behind a random token) on
// 127.0.0.1, then opens the browser on `#profile=/api/local/<token>/<name>` (two files: `&compare=`).
// Several recordings as one (issue 31): `--sum a b c …` names each in a `profile=` (the page shows
// their sum), and `a1 a2 … vs b1 b2 …` each side's runs in `profile=` and `compare=` (groups
// compared, as `flameview diff` takes them); `flameview A B` stays the comparison of two files.
//
// - Each recording is parsed here first, by the CLI's parallel parser, and the page is served its
//   processed form (.flameview, not gzipped: loopback), which it opens without parsing; the file
//   itself is served too and named by `&original=`, from which the page reads another event or
//   split (the processed form keeps one event). A file the parser refuses, or `--raw`, is served
//   as it is, for the page to parse (and to show its error).
// - perf.data (magic PERFILE2) is turned into text by `perf script -i FILE`, streamed to a
//   temporary file with a sample count in the terminal; stdin is spooled to a temporary file.
// - Every input is checked before the server starts: a missing, unreadable or unrecognised file
//   is one line on stderr and exit status 1, never a stack trace.
// - A subcommand name (`diff`, `svg`, …) that reaches this point came after an option, so it is
//   ambiguous: the user is told to put the command first, or to write `./diff` or `-- diff` to
//   open a file of that name.

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, rmSync } from 'node:fs';
import { mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { importers } from '../core/import/registry';
import { buildApp, localFilePath, type LocalFile } from '../server/app';
import { ensureBuilt } from '../server/dist';
import { ListenError, listen, parsePort, untilStopped } from '../server/lifecycle';
import { isPerfData } from '../core/import/sniff';
import { readHead, sniffFile } from '../server/sniff';
import { describeFsError, loadRecording } from './cli-common';
import { toProcessed } from '../core/export/processed';
import type { CliIo } from './main';
import { COMMAND_NAMES } from './command-names';
import { PerfScriptError, runPerfScript } from './perf-data';
import { workersSetting } from './parallel-load';
import { FileGuard } from '../server/source-guard';
import { sourceBase } from '../server/source-routes';
import { recordedFiles } from '../core/query/source-lines';
import { splitSides } from './diff';

export const OPEN_USAGE =
  'usage: flameview [--no-open] [--port N] [--raw] [--lines] [--source-root DIR]... FILE [FILE2] | --sum FILE FILE... | A1 A2... vs B1 B2...   (FILE may be -, for stdin)\n';

/** An error the user sees as one line after "flameview: ". */
class OpenError extends Error {}

interface OpenArgs {
  /** The baseline's recordings (several: one graph of their sum) and the comparison's (none, one, or a group). */
  a: string[];
  b: string[];
  open: boolean;
  port: number;
  /** Serve the files as they are, for the page to parse (no processed form). */
  raw: boolean;
  /** perf.data is printed with its source lines (perf script -F +srcline). */
  lines: boolean;
  /**
   * Directories whose source files the page may read (the files the recording names); the working
   * directory when none is given: where a project is usually built and recorded, and not the rest
   * of the home directory or the system.
   */
  sourceRoots: string[];
}

function parseArgs(args: string[]): OpenArgs {
  const inputs: string[] = [];
  let open = true;
  let raw = false;
  let port = 0;
  let lines = false;
  let sum = false;
  const sourceRoots: string[] = [];
  let options = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (options && arg === '--') {
      options = false;
    } else if (options && arg === '--no-open') {
      open = false;
    } else if (options && arg === '--raw') {
      raw = true;
    } else if (options && arg === '--lines') {
      lines = true;
    } else if (options && arg === '--sum') {
      sum = true;
    } else if (options && (arg === '--source-root' || arg.startsWith('--source-root='))) {
      const v = arg === '--source-root' ? args[++i] : arg.slice('--source-root='.length);
      if (!v) throw new OpenError('--source-root needs a directory');
      sourceRoots.push(v);
    } else if (options && (arg === '--port' || arg.startsWith('--port='))) {
      const v = arg === '--port' ? args[++i] : arg.slice(7);
      const p = v === undefined ? null : parsePort(v);
      if (p === null) throw new OpenError(`--port needs a port number (0-65535), found ${JSON.stringify(v ?? '')}`);
      port = p;
    } else if (options && arg.startsWith('-') && arg !== '-') {
      throw new OpenError(`unknown option ${JSON.stringify(arg)}\n${OPEN_USAGE.trimEnd()}`);
    } else {
      if (options && inputs.length === 0 && (COMMAND_NAMES as readonly string[]).includes(arg)) {
        throw new OpenError(`'${arg}' is a command: put it first (flameview ${arg} …); to open a file named ${arg}, use ./${arg} or -- ${arg}`);
      }
      inputs.push(arg);
    }
  }
  if (inputs.length === 0) throw new OpenError(`no file to open\n${OPEN_USAGE.trimEnd()}`);
  if (inputs.filter((f) => f === '-').length > 1) throw new OpenError('stdin (-) can be read only once');
  const roots = sourceRoots.length > 0 ? sourceRoots : [process.cwd()];
  const rest = { open, port, raw, lines, sourceRoots: roots };
  if (sum) {
    if (inputs.includes('vs')) throw new OpenError('--sum opens one graph: vs has no place in it (write ./vs for a file named vs)');
    if (inputs.length < 2) throw new OpenError(`--sum needs two recordings or more, found ${inputs.length}`);
    return { a: inputs, b: [], ...rest };
  }
  if (inputs.includes('vs')) {
    const sides = splitSides(inputs);
    if (typeof sides === 'string') throw new OpenError(sides);
    return { ...sides, ...rest };
  }
  if (inputs.length > 2) throw new OpenError(`at most two files without --sum or vs (a recording, or two to compare); found ${inputs.length}: --sum a b c opens their sum, a1 a2 vs b1 b2 compares groups`);
  return { a: inputs.slice(0, 1), b: inputs.slice(1), ...rest };
}

export async function runOpen(args: string[], io: CliIo): Promise<number> {
  let temp: string | null = null;
  const cleanup = () => {
    if (temp) rmSync(temp, { recursive: true, force: true });
    temp = null;
  };
  // Ctrl+C while perf script or stdin is still running: remove the partial files, then stop.
  const interrupted = () => {
    cleanup();
    process.exit(130);
  };
  process.on('exit', cleanup);
  process.on('SIGINT', interrupted);
  process.on('SIGTERM', interrupted);
  const handlersOff = () => {
    process.off('SIGINT', interrupted);
    process.off('SIGTERM', interrupted);
  };
  try {
    const parsed = parseArgs(args);
    let made: Promise<string> | null = null;
    const tempDir = () => (made ??= mkdtemp(join(tmpdir(), 'flameview-')).then((d) => (temp = d)));
    const files = new Map<string, LocalFile>();
    const paths: { a: string[]; b: string[] } = { a: [], b: [] };
    let original: string | null = null;
    const sourceNames = new Set<string>();
    const serve = (file: LocalFile) => {
      const token = randomBytes(16).toString('hex');
      files.set(token, file);
      return localFilePath(token, file.name);
    };
    for (const side of ['a', 'b'] as const) {
      for (const input of parsed[side]) {
        const file = await prepare(input, io, tempDir, parsed.lines);
        const processed = parsed.raw ? null : await processLocal(file, io, tempDir, sourceNames);
        paths[side].push(serve(processed ?? file));
        // The baseline's own bytes, for the event picker (the comparison's events are not picked;
        // nor a sum's, which the page reads again from its parts).
        if (processed && side === 'a' && parsed.a.length === 1) original = serve(file);
      }
    }
    // Only the files the recordings name, under the roots; none when they name none (or --raw).
    let sources: FileGuard | undefined;
    if (sourceNames.size > 0) {
      try {
        sources = await FileGuard.create({ roots: parsed.sourceRoots, names: sourceNames });
      } catch (e) {
        throw new OpenError((e as Error).message);
      }
    }
    const distDir = await ensureBuilt(io.stderr);
    // FLAMEVIEW_WORKERS=1 (parallel parsing off) holds for the page too: no ranges, one parser.
    // Only when set: the page's cores are its own (this machine may be a 1-core container).
    const app = await buildApp({ distDir, localFiles: files, localRanges: workersSetting() !== 1, sources });
    const base = await listen(app, '127.0.0.1', parsed.port);
    handlersOff();
    const stopped = untilStopped(app, cleanup);
    // The paths hold only [A-Za-z0-9._/-], so they need no percent-encoding in the hash.
    let url = `${base}/#${[...paths.a.map((p) => `profile=${p}`), ...paths.b.map((p) => `compare=${p}`)].join('&')}`;
    if (original) url += `&original=${original}`;
    if (sources) {
      url += `&source=${sourceBase(sources)}`;
      io.stderr.write(`flameview: the page may read the ${sourceNames.size} source files the recording names under ${sources.rootPaths.join(', ')}\n`);
    }
    if (!parsed.open) {
      io.stdout.write(`${url}\n`);
    } else if (!(await openBrowser(url))) {
      io.stderr.write('flameview: could not start a browser; open this link:\n');
      io.stdout.write(`${url}\n`);
    } else {
      io.stderr.write(`flameview: opened ${url}\n`);
    }
    io.stderr.write('flameview: serving until Ctrl+C\n');
    await stopped;
    return 0;
  } catch (e) {
    cleanup();
    if (e instanceof OpenError || e instanceof ListenError) {
      io.stderr.write(`flameview: ${e.message}\n`);
      return e instanceof OpenError && /^(unknown option|no file to open)/.test(e.message) ? 2 : 1;
    }
    io.stderr.write(`flameview: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    return 1;
  } finally {
    handlersOff();
    process.off('exit', cleanup);
  }
}

/** Checks one input and returns the file to serve (the input itself, or a temporary file). */
async function prepare(input: string, io: CliIo, tempDir: () => Promise<string>, lines = false): Promise<LocalFile> {
  let path: string;
  let name: string;
  if (input === '-') {
    if ((io.stdin as NodeJS.ReadStream).isTTY) {
      throw new OpenError('-: stdin is a terminal; pipe a recording in, e.g. `perf script | flameview -`');
    }
    name = 'stdin';
    path = join(await tempDir(), 'stdin');
    try {
      await pipeline(io.stdin, createWriteStream(path, { mode: 0o600 }));
    } catch (e) {
      throw new OpenError(`stdin: ${(e as Error).message}`);
    }
  } else {
    path = resolve(input);
    name = basename(input);
    const s = await stat(path).catch((e: NodeJS.ErrnoException) => {
      throw new OpenError(`${input}: ${describeFsError(e)}`);
    });
    if (s.isDirectory()) throw new OpenError(`${input}: is a directory`);
  }
  const label = input === '-' ? 'stdin' : input;
  const head = await readHead(path, 16).catch((e: NodeJS.ErrnoException) => {
    throw new OpenError(`${label}: ${describeFsError(e)}`);
  });
  if (isPerfData(head)) {
    const out = join(await tempDir(), `${randomBytes(6).toString('hex')}.perf-script.txt`);
    await perfScript(path, label, out, io, lines);
    path = out;
    name = `${name}.txt`;
  }
  const sniffed = await sniffFile(path, importers).catch((e: NodeJS.ErrnoException) => {
    throw new OpenError(`${label}: ${describeFsError(e)}`);
  });
  if (!sniffed.ok) throw new OpenError(`${label}: not a recording flameview reads: ${sniffed.reason}`);
  return { path, name };
}

/**
 * Parses `file` here (in parts on every core when large) and writes its processed form to the
 * temporary directory, served under the file's own name, and adds the source files it names to
 * `sourceNames`; null, after saying why on stderr, when
 * the parser refused it (the page is then served the file and shows its error).
 */
async function processLocal(file: LocalFile, io: CliIo, tempDir: () => Promise<string>, sourceNames: Set<string>): Promise<LocalFile | null> {
  const started = performance.now();
  const profile = await loadRecording(file.path, io);
  if (!profile) {
    io.stderr.write(`flameview: ${file.name}: serving the file as it is, for the page to read\n`);
    return null;
  }
  for (const name of recordedFiles(profile)) sourceNames.add(name);
  const path = join(await tempDir(), `${randomBytes(6).toString('hex')}.flameview`);
  // Not gzipped: on loopback, gzip and gunzip would cost more than the bytes they save.
  await writeFile(path, toProcessed(profile), { mode: 0o600 });
  io.stderr.write(`flameview: read ${file.name} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
  return { path, name: file.name };
}

/** Runs `perf script -i INPUT` into `out` (see perf-data.ts). */
async function perfScript(input: string, label: string, out: string, io: CliIo, lines: boolean): Promise<void> {
  const run = runPerfScript(input, label, io, lines);
  const written = pipeline(run.output, createWriteStream(out, { mode: 0o600 }));
  written.catch(() => undefined); // perf's own failure, below, is the better message
  try {
    await run.exited;
  } catch (e) {
    throw new OpenError(e instanceof PerfScriptError ? e.message : String(e));
  }
  await written.catch((e: Error) => {
    throw new OpenError(`cannot write ${out}: ${e.message}`);
  });
}

/** Opens the default browser; false when no opener could be started. */
export function openBrowser(url: string): Promise<boolean> {
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]
        : ['xdg-open', [url]];
  return new Promise((resolvePromise) => {
    let done = false;
    const finish = (ok: boolean) => {
      if (!done) {
        done = true;
        resolvePromise(ok);
      }
    };
    try {
      const child = spawn(command, args, { stdio: 'ignore', detached: true });
      child.on('error', () => finish(false));
      child.on('exit', (code) => finish(code === 0));
      // xdg-open may stay around as long as the browser; after a moment, count it as opened.
      setTimeout(() => {
        child.unref();
        finish(true);
      }, 3000).unref();
    } catch {
      finish(false);
    }
  });
}

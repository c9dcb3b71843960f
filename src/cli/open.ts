// `flameview [--no-open] [--port N] [--raw] FILE [FILE2]`, `… | flameview -`: opens recordings
// from the terminal. Serves the built app and only the named files (each behind a random token) on
// 127.0.0.1, then opens the browser on `#profile=/api/local/<token>/<name>` (two files: `&compare=`).
// Several recordings as one (issue 31): `--sum a b c …` names each in a `profile=` (the page shows
// their sum), and `a1 a2 … vs b1 b2 …` each side's runs in `profile=` and `compare=` (groups
// compared, as `flameview diff` takes them); `flameview A B` stays the comparison of two files.
//
// - Each recording is parsed here, by the CLI's parallel parser, while the server starts and the
//   browser loads the page (the link is printed and opened at once; the page's request for the
//   recording waits until it is parsed), and the page is served its processed form (.flameview,
//   not gzipped: loopback), which it opens without parsing; the file itself is served too and
//   named by `&original=`, from which the page reads another event or split (the processed form
//   keeps one event). A file the parser refuses, or `--raw`, is served as it is, for the page to
//   parse (and to show its error). `&source=` and `&asm=` are in every link but a `--raw` one: the
//   files the recording names are known only once it is parsed, and none are served before. The
//   first recording's functions can be disassembled by `GET /api/asm/<secret>`
//   (server/asm-routes.ts; `--symfs DIR` as perf's), which waits for the parse too.
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
import { cleanupOnStop } from './on-stop';
import { symfsProblem } from './command-args';
import { toProcessed } from '../core/export/processed';
import type { CliIo } from './main';
import { COMMAND_NAMES } from './command-names';
import { PerfScriptError, runPerfScript, symfsBuildIds } from './perf-data';
import { workersSetting } from './parallel-load';
import { FileGuard } from '../server/source-guard';
import { sourceBase } from '../server/source-routes';
import { recordedFiles } from '../core/query/source-lines';
import type { Profile } from '../core/model/profile';
import { NO_ADDRESSES, asmBase, asmSource, type AsmSource } from '../server/asm-routes';
import { recordedBuildIds } from '../node/disasm';
import { checkTemplate } from '../core/query/source-listing';
import { splitSides } from './diff';

export const OPEN_USAGE =
  'usage: flameview [--no-open] [--port N] [--raw] [--lines] [--source-root DIR]... [--source-url TEMPLATE] [--symfs DIR] FILE [FILE2] | --sum FILE FILE... | A1 A2... vs B1 B2...   (FILE may be -, for stdin)\n';

/** An error the user sees as one line after "flameview: ". */
class OpenError extends Error {}

/** A command line flameview cannot run (an option's value, the files' arrangement): exit status 2. */
class UsageError extends OpenError {}

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
  /** Where the recording machine's binaries are (perf's --symfs), for the Assembly panel. */
  symfs?: string;
  /** The Source panel's "open in editor / repository" link template (`{path}`, `{line}`), or null. */
  sourceUrl: string | null;
}

function parseArgs(args: string[]): OpenArgs {
  const inputs: string[] = [];
  let open = true;
  let raw = false;
  let port = 0;
  let lines = false;
  let sum = false;
  const sourceRoots: string[] = [];
  let symfs: string | undefined;
  let sourceUrl: string | null = null;
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
      if (!v) throw new UsageError('--source-root needs a directory');
      sourceRoots.push(v);
    } else if (options && (arg === '--symfs' || arg.startsWith('--symfs='))) {
      symfs = arg === '--symfs' ? args[++i] : arg.slice('--symfs='.length);
      if (!symfs) throw new UsageError('--symfs needs a directory');
    } else if (options && (arg === '--source-url' || arg.startsWith('--source-url='))) {
      // Checked here as the page checks it: a template that makes no http(s)/editor link is refused.
      const v = arg === '--source-url' ? args[++i] : arg.slice('--source-url='.length);
      const why = v ? checkTemplate(v) : 'it is empty';
      if (why !== null) throw new UsageError(`--source-url: ${why} (e.g. 'https://github.com/ORG/REPO/blob/REV/{path}#L{line}' or 'vscode://file/{path}:{line}')`);
      sourceUrl = v;
    } else if (options && (arg === '--port' || arg.startsWith('--port='))) {
      const v = arg === '--port' ? args[++i] : arg.slice(7);
      const p = v === undefined ? null : parsePort(v);
      if (p === null) throw new UsageError(`--port needs a port number (0-65535), found ${JSON.stringify(v ?? '')}`);
      port = p;
    } else if (options && arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown option ${JSON.stringify(arg)}\n${OPEN_USAGE.trimEnd()}`);
    } else {
      if (options && inputs.length === 0 && (COMMAND_NAMES as readonly string[]).includes(arg)) {
        throw new UsageError(`'${arg}' is a command: put it first (flameview ${arg} …); to open a file named ${arg}, use ./${arg} or -- ${arg}`);
      }
      inputs.push(arg);
    }
  }
  if (inputs.length === 0) throw new UsageError(`no file to open\n${OPEN_USAGE.trimEnd()}`);
  if (inputs.filter((f) => f === '-').length > 1) throw new UsageError('stdin (-) can be read only once');
  const roots = sourceRoots.length > 0 ? sourceRoots : [process.cwd()];
  const rest = { open, port, raw, lines, sourceUrl, sourceRoots: roots, symfs };
  if (sum) {
    if (inputs.includes('vs')) throw new UsageError('--sum opens one graph: vs has no place in it (write ./vs for a file named vs)');
    if (inputs.length < 2) throw new UsageError(`--sum needs two recordings or more, found ${inputs.length}`);
    return { a: inputs, b: [], ...rest };
  }
  if (inputs.includes('vs')) {
    const sides = splitSides(inputs);
    if (typeof sides === 'string') throw new UsageError(sides);
    return { ...sides, ...rest };
  }
  if (inputs.length > 2) throw new UsageError(`at most two files without --sum or vs (a recording, or two to compare); found ${inputs.length}: --sum a b c opens their sum, a1 a2 vs b1 b2 compares groups`);
  return { a: inputs.slice(0, 1), b: inputs.slice(1), ...rest };
}

export async function runOpen(args: string[], io: CliIo): Promise<number> {
  let temp: string | null = null;
  let made: Promise<string> | null = null;
  let stopping = false;
  const tempDir = () => {
    if (stopping) return Promise.reject(new Error('flameview is stopping'));
    return (made ??= mkdtemp(join(tmpdir(), 'flameview-')).then((d) => (temp = d)));
  };
  const cleanup = () => {
    if (!temp) return;
    try {
      // Retried: a parse that ended just now may still be writing its file into the folder.
      rmSync(temp, { recursive: true, force: true, maxRetries: 3 });
    } catch (e) {
      io.stderr.write(`flameview: could not remove ${temp}: ${(e as Error).message}\n`);
    }
    temp = null;
  };
  // Ends the opener, served or failed: nothing more goes into the temporary folder, the folder is
  // removed (one being made now too), and the process exits without waiting for a parse still
  // running, which nobody needs any more and would keep flameview up until it ends.
  const end = async (code: number): Promise<never> => {
    stopping = true;
    await made?.catch(() => undefined);
    cleanup();
    process.exit(code); // the exit hooks stop perf children too
  };
  // Ctrl+C while perf script or stdin is still running: remove the partial files, then stop. Every
  // way out ends in end(), so the exit hook stays until the process goes.
  const onStop = cleanupOnStop(cleanup);
  try {
    const parsed = parseArgs(args);
    // Checked before the server starts, as every input is: a mistyped --symfs is one line now, not
    // a panel that later finds no binaries.
    const symfs = await symfsProblem(parsed.symfs);
    if (symfs) throw new OpenError(symfs);
    const files = new Map<string, LocalFile | Promise<LocalFile>>();
    const paths: { a: string[]; b: string[] } = { a: [], b: [] };
    let original: string | null = null;
    const sourceNames = new Set<string>();
    // One secret for the run: the page holds it once for source files and disassemblies.
    const secret = randomBytes(16).toString('hex');
    let asm: Promise<AsmSource | string> | undefined;
    const serve = (file: LocalFile | Promise<LocalFile>, name: string) => {
      const token = randomBytes(16).toString('hex');
      files.set(token, file);
      return localFilePath(token, name);
    };
    // Each recording is parsed while the server starts and the page loads (the page's request for
    // its processed form waits for it), one after the other so each has every core; a file the
    // parser refuses is then served as it is. The parse starts at once: the page can draw only
    // after it, and the server's start (~0.3 s) costs the parse less than the wait for it did.
    let parsing: Promise<unknown> = Promise.resolve();
    for (const side of ['a', 'b'] as const) {
      for (const [i, input] of parsed[side].entries()) {
        const file = await prepare(input, io, tempDir, parsed.lines, parsed.symfs);
        if (parsed.raw) {
          paths[side].push(serve(file, file.name));
          continue;
        }
        const processed = parsing.then(() => processLocal(file, io, tempDir, sourceNames));
        parsing = processed;
        paths[side].push(serve(processed.then((p) => p?.file ?? file), file.name));
        // The baseline's functions can be disassembled (the comparison's are not annotated), and
        // its own bytes serve the event picker (not a sum's, which the page reads from its parts).
        if (side === 'a' && i === 0 && parsed.a.length === 1) {
          asm = processed.then((p) => asmOf(p?.profile ?? null, file, secret, parsed.symfs, io));
          original = serve(file, file.name);
        }
      }
    }
    // Only the files the recordings name (known once parsed: the guard reads the set as it
    // fills), under the roots; none with --raw.
    let sources: FileGuard | undefined;
    if (!parsed.raw) {
      try {
        sources = await FileGuard.create({ roots: parsed.sourceRoots, names: sourceNames, secret });
      } catch (e) {
        throw new OpenError((e as Error).message);
      }
    }
    const distDir = await ensureBuilt(io.stderr);
    // FLAMEVIEW_WORKERS=1 (parallel parsing off) holds for the page too: no ranges, one parser.
    // Only when set: the page's cores are its own (this machine may be a 1-core container).
    const app = await buildApp({ distDir, localFiles: files, localRanges: workersSetting() !== 1, sources, asm });
    const base = await listen(app, '127.0.0.1', parsed.port);
    onStop.signalsOff();
    const stopped = untilStopped(app);
    // The paths hold only [A-Za-z0-9._/-], so they need no percent-encoding in the hash.
    let url = `${base}/#${[...paths.a.map((p) => `profile=${p}`), ...paths.b.map((p) => `compare=${p}`)].join('&')}`;
    if (original) url += `&original=${original}`;
    if (sources) url += `&source=${sourceBase(sources)}`;
    if (asm) url += `&asm=${asmBase(secret)}`;
    if (parsed.sourceUrl) url += `&srcurl=${encodeURIComponent(parsed.sourceUrl)}`;
    // The browser is started (not awaited: an opener may stay up to 3 s) while the parse runs.
    const opened = parsed.open ? openBrowser(url) : null;
    if (!opened) io.stdout.write(`${url}\n`);
    // A stop while the browser's opener runs (up to 3 s) ends flameview then, not after it.
    const started = opened ? await Promise.race([opened, stopped.then(() => 'stopped' as const)]) : null;
    if (started !== 'stopped') {
      if (opened && !started) {
        io.stderr.write('flameview: could not start a browser; open this link:\n');
        io.stdout.write(`${url}\n`);
      } else if (opened) {
        io.stderr.write(`flameview: opened ${url}\n`);
      }
      io.stderr.write('flameview: serving until Ctrl+C\n');
      void parsing.then(() => {
        if (sources && sourceNames.size > 0) {
          io.stderr.write(`flameview: the page may read the ${sourceNames.size} source files the recording names under ${sources.rootPaths.join(', ')}\n`);
        }
      });
    }
    await stopped;
    return await end(0);
  } catch (e) {
    if (e instanceof OpenError || e instanceof ListenError) {
      io.stderr.write(`flameview: ${e.message}\n`);
      return await end(e instanceof UsageError ? 2 : 1);
    }
    io.stderr.write(`flameview: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
    return await end(1);
  }
}

/** Checks one input and returns the file to serve (the input itself, or a temporary file), and the perf.data it came from. */
async function prepare(input: string, io: CliIo, tempDir: () => Promise<string>, lines = false, symfs?: string): Promise<LocalFile & { perfData?: string }> {
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
  let perfData: string | undefined;
  if (isPerfData(head)) {
    perfData = path;
    const out = join(await tempDir(), `${randomBytes(6).toString('hex')}.perf-script.txt`);
    await perfScript(path, label, out, io, lines, symfs, await tempDir());
    path = out;
    name = `${name}.txt`;
  }
  const sniffed = await sniffFile(path, importers).catch((e: NodeJS.ErrnoException) => {
    throw new OpenError(`${label}: ${describeFsError(e)}`);
  });
  if (!sniffed.ok) throw new OpenError(`${label}: not a recording flameview reads: ${sniffed.reason}`);
  return { path, name, ...(perfData ? { perfData } : {}) };
}

/**
 * Parses `file` here (in parts on every core when large) and writes its processed form to the
 * temporary directory, served under the file's own name, and adds the source files it names to
 * `sourceNames`; null, after saying why on stderr, when
 * the parser refused it (the page is then served the file and shows its error).
 */
async function processLocal(file: LocalFile, io: CliIo, tempDir: () => Promise<string>, sourceNames: Set<string>): Promise<{ file: LocalFile; profile: Profile } | null> {
  const started = performance.now();
  // Never rejects: the server is already up and the page waits for an answer, so any failure here
  // (the temporary directory removed by Ctrl+C, a full disk) serves the file for the page to read.
  try {
    const profile = await loadRecording(file.path, io);
    if (profile) {
      for (const name of recordedFiles(profile)) sourceNames.add(name);
      const path = join(await tempDir(), `${randomBytes(6).toString('hex')}.flameview`);
      // Not gzipped: on loopback, gzip and gunzip would cost more than the bytes they save.
      await writeFile(path, toProcessed(profile), { mode: 0o600 });
      io.stderr.write(`flameview: read ${file.name} in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
      return { file: { path, name: file.name }, profile };
    }
  } catch (e) {
    io.stderr.write(`flameview: ${file.name}: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}\n`);
  }
  io.stderr.write(`flameview: ${file.name}: serving the file as it is, for the page to read\n`);
  return null;
}

/**
 * The disassembly source of the parsed baseline, or why there is none (said on stderr too, and by
 * the route to the page). Never rejects: the route awaits it with the server already up.
 */
async function asmOf(profile: Profile | null, file: LocalFile & { perfData?: string }, secret: string, symfs: string | undefined, io: CliIo): Promise<AsmSource | string> {
  if (!profile) return `${file.name} could not be parsed here, so it has no disassemblies`;
  try {
    const buildIds = file.perfData ? await recordedBuildIds(file.perfData) : undefined;
    const asm = await asmSource(profile, { secret, symfs, buildIds });
    if (!asm) return NO_ADDRESSES;
    io.stderr.write(`flameview: the page may disassemble the recording's functions from ${symfs ? `the binaries under --symfs ${symfs}` : 'the binaries it names'}\n`);
    return asm;
  } catch (e) {
    const why = `no disassemblies: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`;
    io.stderr.write(`flameview: ${why}\n`);
    return why;
  }
}

/** Runs `perf script -i INPUT` into `out` (see perf-data.ts), finding the binaries under `symfs` too. */
async function perfScript(input: string, label: string, out: string, io: CliIo, lines: boolean, symfs: string | undefined, temp: string): Promise<void> {
  const cache = await symfsBuildIds(input, symfs, temp);
  const run = runPerfScript(input, label, io, lines, cache.dir);
  const written = pipeline(run.output, createWriteStream(out, { mode: 0o600 }));
  written.catch(() => undefined); // perf's own failure, below, is the better message
  try {
    await run.exited;
  } catch (e) {
    throw new OpenError(e instanceof PerfScriptError ? e.message : String(e));
  } finally {
    await cache.remove();
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

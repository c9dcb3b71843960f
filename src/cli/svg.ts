// `flameview svg`: a recording (any format the viewer opens, gzip or not) in, a standalone
// interactive flame graph SVG out (core/export/svg.ts), streamed to stdout.
//
// Exit codes: 0 written, 1 the input cannot be read or is not a recording (one line on stderr),
// 2 usage error.

import { open } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { defaultView, svgChunks, svgInputOf } from '../core/export/svg';
import { loadProfile } from '../core/import/load';
import { ImportError, type Profile } from '../core/profile';
import type { ViewKind } from '../core/views/function-view';
import type { CliIo } from './main';

export const SVG_USAGE = `usage: flameview svg [options] FILE|- > out.svg
  --view functions|inline  functions: inlined frames merged into their caller; inline: every
                           frame (default: functions when the recording has inline frames)
  --width N                image width in pixels (default 1200)
  --min-width PX           leave out frames narrower than PX pixels (default 0.1; 0 keeps all)
  --title TEXT             title (default: the file name)
  --search REGEX           highlight matches when the SVG opens
`;

const MAX_WARNINGS = 5;

export async function runSvg(args: string[], io: CliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      strict: true,
      options: {
        view: { type: 'string' },
        width: { type: 'string' },
        'min-width': { type: 'string' },
        title: { type: 'string' },
        search: { type: 'string' },
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
    io.stdout.write(SVG_USAGE);
    return 0;
  }
  const view = values.view;
  if (view !== undefined && view !== 'inline' && view !== 'functions') return usageError(io, `--view must be functions or inline, not '${view}'`);
  const width = values.width === undefined ? 1200 : Number(values.width);
  if (!Number.isFinite(width) || width < 100 || width > 100000) return usageError(io, `--width must be a number of pixels from 100 to 100000, not '${values.width}'`);
  const minWidth = values['min-width'] === undefined ? 0.1 : Number(values['min-width']);
  if (!Number.isFinite(minWidth) || minWidth < 0) return usageError(io, `--min-width must be a number of pixels >= 0, not '${values['min-width']}'`);
  if (values.search !== undefined) {
    try {
      new RegExp(values.search);
    } catch (e) {
      return usageError(io, `--search is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (positionals.length !== 1) {
    return usageError(io, positionals.length === 0 ? 'missing FILE (use - for stdin)' : `expected one FILE, got ${positionals.length}`);
  }
  const file = positionals[0];
  const source = file === '-' ? '<stdin>' : file;

  let input: AsyncIterable<Uint8Array>;
  if (file === '-') input = io.stdin as AsyncIterable<Uint8Array>;
  else {
    try {
      const handle = await open(file, 'r');
      if ((await handle.stat()).isDirectory()) {
        await handle.close();
        io.stderr.write(`flameview: ${file}: is a directory\n`);
        return 1;
      }
      input = handle.createReadStream({ highWaterMark: 1 << 20 });
    } catch (e) {
      io.stderr.write(`flameview: ${file}: cannot read: ${describeFsError(e)}\n`);
      return 1;
    }
  }

  let profile: Profile;
  try {
    profile = await loadProfile(input, { source });
  } catch (e) {
    if (e instanceof ImportError) io.stderr.write(`flameview: ${oneLine(e.message)}\n`);
    else io.stderr.write(`flameview: ${source}: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
  const { warnings } = profile.meta;
  for (const w of warnings.slice(0, MAX_WARNINGS)) io.stderr.write(`flameview: ${source}: ${w.line > 0 ? `line ${w.line}: ` : ''}${oneLine(w.message)}\n`);
  if (warnings.length > MAX_WARNINGS) io.stderr.write(`flameview: ${source}: … and ${warnings.length - MAX_WARNINGS} more warnings\n`);

  const chosen: ViewKind = (view as ViewKind | undefined) ?? defaultView(profile.meta);
  const title = values.title ?? (file === '-' ? 'Flame Graph' : file.replace(/^.*\//, ''));
  return writeChunks(io.stdout, svgChunks(svgInputOf(profile, chosen), { width, minWidth, title, search: values.search }));
}

/** Writes with backpressure; a closed pipe ends the output quietly. */
async function writeChunks(out: NodeJS.WritableStream, chunks: Iterable<string>): Promise<number> {
  let closed = false;
  out.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') closed = true;
    else throw e;
  });
  for (const chunk of chunks) {
    if (closed) break;
    if (!out.write(chunk)) {
      await new Promise<void>((resolve) => {
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
  }
  return 0;
}

function usageError(io: CliIo, message: string): number {
  io.stderr.write(`flameview svg: ${oneLine(message)}\n${SVG_USAGE}`);
  return 2;
}

function oneLine(s: string): string {
  return s.replace(/[\r\n]+/g, ' ');
}

function describeFsError(e: unknown): string {
  const code = (e as NodeJS.ErrnoException)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  return code ?? (e instanceof Error ? e.message : String(e));
}

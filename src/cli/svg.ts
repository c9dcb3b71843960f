// `flameview svg`: a recording (any format the viewer opens, gzip or not) in, a standalone
// interactive flame graph SVG out (core/export/svg.ts), streamed to stdout.
//
// Exit codes: 0 written, 1 the input cannot be read or is not a recording (one line on stderr),
// 2 usage error.

import { parseArgs } from 'node:util';
import { defaultView, svgChunks, svgInputOf } from '../core/export/svg';
import type { ViewKind } from '../core/views/function-view';
import { describeArgsError, loadRecording, usageError as usageErrorOf, writeChunks } from './cli-common';
import type { CliIo } from './main';

export const SVG_USAGE = `usage: flameview svg [options] FILE|- > out.svg
  --view functions|inline  functions: inlined frames merged into their caller; inline: every
                           frame (default: functions when the recording has inline frames)
  --width N                image width in pixels (default 1200)
  --min-width PX           leave out frames narrower than PX pixels (default 0.1; 0 keeps all)
  --title TEXT             title (default: the file name)
  --search REGEX           highlight matches when the SVG opens
`;


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
    return usageError(io, describeArgsError(e));
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
  const profile = await loadRecording(file, io);
  if (!profile) return 1;

  const chosen: ViewKind = (view as ViewKind | undefined) ?? defaultView(profile.meta);
  const title = values.title ?? (file === '-' ? 'Flame Graph' : file.replace(/^.*\//, ''));
  return writeChunks(io.stdout, svgChunks(svgInputOf(profile, chosen), { width, minWidth, title, search: values.search }));
}

function usageError(io: CliIo, message: string): number {
  return usageErrorOf(io, 'svg', SVG_USAGE, message);
}

// `flameview svg`: a recording (any format the viewer opens, gzip or not) in, a standalone
// interactive flame graph SVG out (core/export/svg.ts), streamed to stdout.
//
// Exit codes: 0 written, 1 the input cannot be read or is not a recording (one line on stderr),
// 2 usage error.

import { defaultView, svgChunks, svgInputOf } from '../core/export/svg';
import type { ViewKind } from '../core/views/function-view';
import { loadRecording, writeChunks } from './cli-common';
import { CommandLine, perfDataOf, SYMFS_HELP, SYMFS_OPTIONS, TRANSFORM_HELP, TRANSFORM_OPTIONS } from './command-args';
import type { CliIo } from './main';

export const SVG_USAGE = `usage: flameview svg [options] FILE|- > out.svg
  --view functions|inline  functions: inlined frames merged into their caller; inline: every
                           frame (default: functions when the recording has inline frames)
  --width N                image width in pixels (default 1200)
  --min-width PX           leave out frames narrower than PX pixels (default 0.1; 0 keeps all)
  --title TEXT             title (default: the file name)
  --search REGEX           highlight matches when the SVG opens
${SYMFS_HELP}${TRANSFORM_HELP}`;

export async function runSvg(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'svg', SVG_USAGE);
  const parsed = command.parse(args, {
    view: { type: 'string' },
    width: { type: 'string' },
    'min-width': { type: 'string' },
    title: { type: 'string' },
    search: { type: 'string' },
    ...SYMFS_OPTIONS,
    ...TRANSFORM_OPTIONS,
  });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  const view = command.view(values.view, undefined, ['functions', 'inline']);
  if (typeof view === 'number') return view;
  const width = values.width === undefined ? 1200 : Number(values.width);
  if (!Number.isFinite(width) || width < 100 || width > 100000) return command.usageError(`--width must be a number of pixels from 100 to 100000, not '${values.width}'`);
  const minWidth = values['min-width'] === undefined ? 0.1 : Number(values['min-width']);
  if (!Number.isFinite(minWidth) || minWidth < 0) return command.usageError(`--min-width must be a number of pixels >= 0, not '${values['min-width']}'`);
  const transforms = command.transforms(values.transform);
  if (typeof transforms === 'number') return transforms;
  if (values.search !== undefined) {
    try {
      new RegExp(values.search);
    } catch (e) {
      return command.usageError(`--search is not a valid regular expression: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  if (positionals.length !== 1) {
    return command.usageError(positionals.length === 0 ? 'missing FILE (use - for stdin)' : `expected one FILE, got ${positionals.length}`);
  }
  const file = positionals[0];
  const perfData = await perfDataOf(values, io, 'svg');
  if (typeof perfData === 'number') return perfData;
  const profile = await loadRecording(file, io, {}, false, perfData.symfs);
  if (!profile) return 1;

  const chosen: ViewKind = view ?? defaultView(profile.meta);
  const title = values.title ?? (file === '-' ? 'Flame Graph' : file.replace(/^.*\//, ''));
  return writeChunks(io.stdout, svgChunks(svgInputOf(profile, chosen, transforms), { width, minWidth, title, search: values.search }));
}

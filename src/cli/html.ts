// `flameview html FILE [FILE2] -o report.html`: one self-contained HTML file holding the built app
// and the recording(s) in the processed form (gzipped `.flameview`, what `convert` writes), which
// opens from disk or any static host with no server and no network (core/export/report.ts). With
// two files the second opens as the comparison.
//
// Exit codes as the other commands: 0 written, 1 unreadable input, missing build or unwritable
// output, 2 usage error. OUT is written whole or not at all.

import { readFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { toProcessed } from '../core/export/processed';
import { collectApp, reportHtml } from '../core/export/report';
import { ensureBuilt } from '../server/dist';
import { loadRecording, oneLine, writeWhole } from './cli-common';
import { CommandLine, PERF_DATA_OPTIONS, PERF_DATA_USAGE, SPLIT_OPTIONS, perfDataOf, splitOf } from './command-args';
import type { CliIo } from './main';

export const HTML_USAGE = `usage: flameview html [options] FILE [FILE2] -o OUT.html
  -o OUT             where to write the report (- for stdout)
  --title T          the page title (default: the file names)
  --event NAME       perf script: samples of this event (default: the first seen)
  --pid, --tid       perf script: the root frames are process-PID (or thread-TID) names
${PERF_DATA_USAGE}With FILE2 the report compares the two recordings.
`;

export async function runHtml(args: string[], io: CliIo): Promise<number> {
  const command = new CommandLine(io, 'html', HTML_USAGE);
  const parsed = command.parse(args, { ...SPLIT_OPTIONS, o: { type: 'string', short: 'o' }, title: { type: 'string' }, event: { type: 'string' }, ...PERF_DATA_OPTIONS });
  if (typeof parsed === 'number') return parsed;
  const { values, positionals } = parsed;
  if (positionals.length < 1 || positionals.length > 2) return command.usageError(`expected FILE or FILE FILE2, got ${positionals.length} files`);
  if (positionals[0] === '-' && positionals[1] === '-') return command.usageError('only one of FILE and FILE2 can be - (stdin)');
  const out = values.o;
  if (out === undefined) return command.usageError('missing -o OUT.html (use - for stdout)');
  // Before the app is read: a mistyped --symfs should not wait for a build.
  const perfData = await perfDataOf(values, io, 'html');
  if (typeof perfData === 'number') return perfData;

  let app;
  try {
    const dir = await ensureBuilt(io.stderr);
    app = await collectApp(await readFile(join(dir, 'index.html'), 'utf8'), (name) => readFile(join(dir, name), 'utf8'));
  } catch (e) {
    io.stderr.write(`flameview html: ${oneLine(e instanceof Error ? e.message : String(e))}\n`);
    return 1;
  }
  const split = splitOf(values);
  const recordings = [];
  for (const file of positionals) {
    const profile = await loadRecording(file, io, { event: values.event, split }, perfData.srcline, perfData.symfs);
    if (!profile) return 1;
    recordings.push({ name: file === '-' ? 'stdin' : basename(file), bytes: gzipSync(toProcessed(profile)) });
  }
  const html = reportHtml(app, recordings, values.title ?? `${recordings.map((r) => r.name).join(' vs ')} · flameview`);
  if (out === '-') {
    await new Promise<void>((resolve) => {
      io.stdout.once('error', () => resolve());
      io.stdout.write(html, () => resolve());
    });
    return 0;
  }
  return (await writeWhole(out, html, io)) ? 0 : 1;
}

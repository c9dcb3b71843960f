// bin/flameview's dispatcher. Subcommands take precedence over file names; `./diff` or `--`
// opens a file of that name (see the README). Kept small: `flameview --help` loads only this.

import { existsSync } from 'node:fs';
import { COMMAND_NAMES, type CommandName } from './command-names';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

type Command = (args: string[], io: CliIo) => Promise<number>;

const commands: Record<CommandName, () => Promise<Command>> = {
  collapse: async () => (await import('./collapse')).runCollapse,
  serve: async () => (await import('./serve')).runServe,
  'serve-demo': async () => (await import('./serve')).runServeDemo,
  diff: async () => (await import('./diff')).runDiff,
  svg: async () => (await import('./svg')).runSvg,
  top: async () => (await import('./top')).runTop,
  lines: async () => (await import('./lines')).runLines,
  annotate: async () => (await import('./annotate')).runAnnotate,
  convert: async () => (await import('./convert')).runConvert,
  html: async () => (await import('./html')).runHtml,
};

export const USAGE = `usage: flameview [--no-open] [--port N] [--raw] [--lines] [--source-root DIR]... [--source-url TEMPLATE] [--symfs DIR] FILE [FILE2]
       open in the browser (FILE may be -; --lines: a perf.data file with its source lines, perf
       script -F +srcline; --source-root: the page may read the source files the recording names
       under DIR, repeatable, default the working directory; --source-url: a link per source
       line, {path} and {line} filled in, e.g. 'vscode://file/{path}:{line}'; --symfs: the
       Assembly panel finds the recording's binaries under DIR, as perf annotate --symfs); FILE2: compare FILE with it
       flameview [options] --sum FILE FILE...      one graph of the recordings' sum
       flameview [options] A1 A2... vs B1 B2...   compare groups of runs, each side summed
       flameview <command> [options]

commands:
  serve --store DIR|s3://BUCKET/PREFIX [--s3-endpoint URL] [--port N] [--host ADDR]
        [--max-upload BYTES] [--upload-token FILE] [--list] [--max-store BYTES]
        [--expire-days N] [--rate-limit N] [--trust-proxy] [--slow-client-seconds N]
        [--min-upload-rate BYTES] [--allow-embed ORIGIN]...
      the team server: upload, share and delete recordings (127.0.0.1 unless --host);
      --allow-embed lets pages of ORIGIN frame the viewer and send it recordings
  collapse [--view inline|functions] [--samples] [--pid|--tid] [--event NAME]
           [--unit us|ns|ms|samples] [--kernel] [--jit] [--all] [--full-names] [--symfs DIR]
           FILE|-
      print folded stacks, sorted bytewise (inline view by default, as inferno-collapse-perf)
  diff [--view inline|functions] [--samples] [--pid|--tid] [--event NAME]
       [--unit us|ns|ms|samples] [--full-names] [--normalize] [--symfs DIR] A B
      print "stack weightA weightB" lines (difffolded.pl format), sorted bytewise
  svg [--view functions|inline] [--width 1200] [--min-width 0.1] [--title T]
      [--search REGEX] [--symfs DIR] FILE|-
      write a standalone interactive flame graph SVG to stdout
  top [--view functions|inline] [--by self|total] [-n N] [--samples] [--json]
      [--raw] [--unit us|ns|ms|samples] [--full-names] [--symfs DIR] FILE|-
      the heaviest functions over all call sites (pprof -top): self, self%, total, total%, name
  lines [--view functions|inline] [--by line|self|total] [--samples] [--json] [--raw]
        [--full-names] [--symfs DIR] FUNCTION FILE|-
      a function's source lines (pprof -list): self and total per line, from a recording
      with lines (perf script -F +srcline, pprof, .cpuprofile, speedscope)
  annotate [--symfs DIR] [--objdump PATH] [--event NAME] [--json] FUNCTION FILE
      each instruction's share of a function's self time (perf annotate --stdio), from its
      binary on this machine (objdump); without the binary, the sampled offsets
  convert [--to flameview|pprof] [--event NAME] [--pid|--tid] [--lines] [--symfs DIR]
          IN|- -o OUT|-
      write the recording processed (OUT.flameview: opens without parsing) or as pprof
      (OUT.pb.gz: profile.proto, gzipped), both views kept (--lines: a perf.data with its
      source lines)
  html [--title T] [--event NAME] [--pid|--tid] [--lines] [--symfs DIR] FILE [FILE2]
       -o OUT.html|-
      one self-contained HTML report (the app and the recording, processed) that opens
      from disk with no server; with FILE2 it compares the two

Every command reads perf script text, perf.data (through perf script), folded stacks, pprof,
Chrome/Node and speedscope profiles and flamegraph SVGs, gzip or not. top and svg show the
viewer's function view by default; collapse and diff the inline view, as the perl scripts.
A large file is parsed in parallel, a part per core, each part at least 128 MiB of perf script
or 384 MiB of folded stacks; FLAMEVIEW_WORKERS=N sets the parts at most (1: one parser, also in
the page \`flameview FILE\` opens).
`;

export async function main(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(USAGE);
    return first === undefined ? 2 : 0;
  }
  const load = (COMMAND_NAMES as readonly string[]).includes(first) ? commands[first as CommandName] : undefined;
  if (load) return (await load())(rest, io);
  const meant = likelyCommand(first);
  if (meant) {
    io.stderr.write(`flameview: unknown command '${first}'; did you mean ${meant}? (to open a file named ${first}, use ./${first})\n`);
    return 2;
  }
  return (await import('./open')).runOpen(argv, io); // not a command: file names (./diff, --, -)
}

/**
 * The command a word that is no file most likely misspells ("tpo" → top, "colapse" → collapse),
 * or null: a plain lowercase word, not an existing path, within edit distance 1 of a command
 * (2 for longer ones), counting a swap of neighbours as one edit.
 */
export function likelyCommand(word: string, exists: (path: string) => boolean = existsSync): string | null {
  if (!/^[a-z][a-z-]{1,15}$/.test(word) || exists(word)) return null;
  let best: string | null = null;
  let bestDistance = Infinity;
  for (const name of COMMAND_NAMES) {
    if (name === 'serve-demo') continue;
    const d = editDistance(word, name);
    if (d < bestDistance && d <= (name.length > 4 ? 2 : 1)) {
      best = name;
      bestDistance = d;
    }
  }
  return best;
}

/** Optimal string alignment distance (Levenshtein plus transposition of neighbours). */
function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

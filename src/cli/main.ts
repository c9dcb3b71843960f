// bin/flameview's dispatcher. Subcommands take precedence over file names; `./diff` or `--`
// opens a file of that name (see the README).

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
}

type Command = (args: string[], io: CliIo) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  collapse: async () => (await import('./collapse')).runCollapse,
  serve: async () => (await import('./serve')).runServe,
  'serve-demo': async () => (await import('./serve')).runServeDemo,
  diff: async () => (await import('./diff')).runDiff,
  svg: async () => (await import('./svg')).runSvg,
  top: async () => (await import('./top')).runTop,
};

export const USAGE = `usage: flameview [--no-open] [--port N] FILE [FILE2]   open in the browser (FILE may be -)
       flameview <command> [options]

commands:
  serve --store DIR|s3://BUCKET/PREFIX [--s3-endpoint URL] [--port N] [--host ADDR]
        [--max-upload BYTES] [--upload-token FILE] [--list] [--max-store BYTES]
        [--expire-days N] [--rate-limit N] [--trust-proxy]
      the team server: upload, share and delete recordings (127.0.0.1 unless --host)
  collapse [--view inline|functions] [--samples] [--pid|--tid] [--event NAME]
           [--kernel] [--jit] [--all] [--full-names] FILE|-
      print folded stacks, sorted bytewise
  diff [--view inline|functions] [--samples] [--pid|--tid] [--event NAME]
       [--full-names] [--normalize] A B
      print "stack weightA weightB" lines (difffolded.pl format), sorted bytewise
  svg [--view functions|inline] [--width 1200] [--min-width 0.1] [--title T]
      [--search REGEX] FILE|-
      write a standalone interactive flame graph SVG to stdout
  top [--view inline|functions] [--by self|total] [-n N] [--samples] [--json]
      [--full-names] FILE|-
      the heaviest functions over all call sites (pprof -top): self, self%, total, total%, name
`;

export async function main(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(USAGE);
    return first === undefined ? 2 : 0;
  }
  const load = commands[first];
  if (load) return (await load())(rest, io);
  return (await import('./open')).runOpen(argv, io); // not a command: file names (./diff, --, -)
}

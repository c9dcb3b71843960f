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
};

export const USAGE = `usage: flameview <command> [options]

commands:
  collapse [--view inline|functions] [--samples] [--pid|--tid] [--event NAME]
           [--kernel] [--jit] [--all] [--full-names] FILE|-
      print folded stacks, sorted bytewise
`;

export async function main(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    io.stdout.write(USAGE);
    return first === undefined ? 2 : 0;
  }
  const load = commands[first];
  if (load) return (await load())(rest, io);
  io.stderr.write(`flameview: unknown command '${first}'\n${USAGE}`);
  return 2;
}

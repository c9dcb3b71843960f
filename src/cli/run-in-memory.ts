// For tests: runs a subcommand with in-memory stdin/stdout/stderr and returns what it wrote.

import { PassThrough, Readable } from 'node:stream';
import type { CliIo } from './main';

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runInMemory(
  command: (args: string[], io: CliIo) => Promise<number>,
  args: string[],
  stdin = '',
): Promise<CommandResult> {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (d) => (out += d));
  stderr.on('data', (d) => (err += d));
  const io: CliIo = { stdout, stderr, stdin: Readable.from([Buffer.from(stdin)]) };
  const code = await command(args, io);
  return { code, stdout: out, stderr: err };
}

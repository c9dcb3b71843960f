// Node's parseArgs errors as one line a user can act on (describeArgsError), through the commands
// that parse with it: the option as typed, and how to give a value that starts with '-'.

import { expect, it } from 'vitest';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runConvert } from './convert';
import { runInMemory } from './run-in-memory';
import { runSvg } from './svg';
import { runTop } from './top';

const recording = join(fileURLToPath(new URL('../../', import.meta.url)), 'fixtures', 'rust-toyc.folded');
const firstLine = (s: string) => s.split('\n')[0];

it('an option without its value, a value that reads as an option, a value given to a flag', async () => {
  for (const [run, args, line] of [
    [runConvert, [recording, '-o'], 'flameview convert: -o needs a value'],
    [runTop, [recording, '--transform'], 'flameview top: --transform needs a value'],
    [runTop, ['-n', '-5', recording], "flameview top: -n needs a value, and '-5' reads as an option (write -n-5 to give it)"],
    [runTop, [recording, '-n', '--', 'x'], 'flameview top: -n needs a value'],
    [runSvg, ['--width', '-5', recording], "flameview svg: --width needs a value, and '-5' reads as an option (write --width=-5 to give it)"],
    [runTop, ['--raw=1', recording], 'flameview top: --raw takes no value'],
    [runTop, ['-x', recording], "flameview top: unknown option '-x'"],
  ] as const) {
    const r = await runInMemory(run, [...args], '');
    expect(r.code, args.join(' ')).toBe(2);
    expect(firstLine(r.stderr)).toBe(line);
  }
  // Written as the message says, the value reaches the command's own check.
  expect(firstLine((await runInMemory(runTop, ['-n-5', recording], '')).stderr)).toBe("flameview top: -n must be a whole number (0 = all), not '-5'");
  expect(firstLine((await runInMemory(runSvg, ['--width=-5', recording], '')).stderr)).toBe("flameview svg: --width must be a number of pixels from 100 to 100000, not '-5'");
});

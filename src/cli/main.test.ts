// The dispatcher: a word that is no file and looks like a misspelt command is answered with the
// command it most likely means, not with "no such file".

import { describe, expect, it } from 'vitest';
import { likelyCommand, main } from './main';
import { runInMemory } from './run-in-memory';
import { minPartBytes } from '../core/parallel/split';

const none = () => false;

describe('likelyCommand', () => {
  it('finds the command a typo means', () => {
    expect(likelyCommand('tpo', none)).toBe('top');
    expect(likelyCommand('to', none)).toBe('top');
    expect(likelyCommand('colapse', none)).toBe('collapse');
    expect(likelyCommand('collpase', none)).toBe('collapse');
    expect(likelyCommand('serv', none)).toBe('serve');
    expect(likelyCommand('dif', none)).toBe('diff');
    expect(likelyCommand('svgg', none)).toBe('svg');
  });

  it('leaves file names, existing paths and far-off words to the opener', () => {
    expect(likelyCommand('tpo', () => true)).toBeNull();
    expect(likelyCommand('perf.data', none)).toBeNull();
    expect(likelyCommand('./tpo', none)).toBeNull();
    expect(likelyCommand('profile', none)).toBeNull();
    expect(likelyCommand('xyz', none)).toBeNull();
  });
});

it('flameview tpo: unknown command, did you mean top? (exit 2)', async () => {
  const r = await runInMemory(main, ['tpo']);
  expect(r).toEqual({ code: 2, stdout: '', stderr: "flameview: unknown command 'tpo'; did you mean top? (to open a file named tpo, use ./tpo)\n" });
});

it('flameview --help says when a file is parsed in parts (the minimums split.ts uses) and how to turn it off', async () => {
  const r = await runInMemory(main, ['--help']);
  expect(r.code).toBe(0);
  const text = r.stdout.replace(/\s+/g, ' ');
  const MiB = 1024 * 1024;
  expect(text).toContain(`at least ${minPartBytes('perf-script') / MiB} MiB of perf script or ${minPartBytes('folded') / MiB} MiB of folded stacks`);
  expect(text).toContain('FLAMEVIEW_WORKERS=N');
});

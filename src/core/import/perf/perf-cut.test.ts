// A perf script cut off mid-write (perf killed, a full disk, a partial copy) on a real recording:
// the last sample, cut by the end of the input, is reported (which lines, what was found) and not
// drawn; every complete sample loads as from the input without it. One parser in text mode and in
// byte mode, any chunking, and the parts of a split input agree.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../../export/folded';
import type { Profile } from '../../model/profile';
import { loadProfile, loadProfileFromText } from '../load';
import { chunked, expectSameProfile, loadSplitAt } from '../../testing/split-parts';
import { textImporters } from '../../testing/perf-text-only';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));
const full = readFileSync(`${FIXTURES}cpp/fibmix.perf-script.txt`);
const text = full.toString('latin1');
/** Where the last sample's header starts, and its line number. */
const lastStart = text.lastIndexOf('\n\n', text.length - 3) + 2;
const lastLine = text.slice(0, lastStart).split('\n').length;


const both = (p: Profile) => ({ inline: collapseLines(p), functions: collapseLines(p, { view: 'functions' }) });

describe('a perf script cut by the end of the input', () => {
  const complete = loadProfileFromText(full.subarray(0, lastStart));

  // Cut inside the 3rd frame line of the last sample, in the middle of its symbol name.
  const frame3 = text.indexOf('\n', text.indexOf('\n', text.indexOf('\n', lastStart) + 1) + 1) + 1;
  const cutAt = text.indexOf('+0x', frame3) - 2;
  const cut = full.subarray(0, cutAt);
  const cutLine = lastLine + 3;
  const cutText = text.slice(frame3, cutAt);

  it('reports the cut sample with its lines and what was found, and draws none of it', async () => {
    const whole = await complete;
    for (const [name, load] of [
      ['byte mode', () => loadProfileFromText(cut)],
      ['byte mode, 1 KB chunks', () => loadProfile(chunked(cut, 1024))],
      ['text mode, 777-byte chunks', () => loadProfile(chunked(cut, 777), { importers: textImporters })],
    ] as const) {
      const p = await load();
      expect(p.meta.samples, name).toBe(whole.meta.samples);
      expect(p.meta.skippedLines, name).toBe(4);
      expect(p.meta.warnings, name).toEqual([
        {
          line: cutLine,
          message: `expected a complete sample (a line end, then a blank line), found the input cut off after ${JSON.stringify(cutText.slice(0, 60) + (cutText.length > 60 ? '…' : ''))}; its sample (4 lines, from the header 3 above) is skipped`,
        },
      ]);
      expect(both(p), name).toEqual(both(whole));
    }
  });

  it('gives the one-parser profile when read in parts', async () => {
    const one = await loadProfileFromText(cut);
    const parts = await loadSplitAt(cut, [cut.length / 3, (2 * cut.length) / 3]);
    expect(parts).not.toBeNull();
    expectSameProfile(parts!, one);
    expect(parts!.meta.warnings[0].line).toBe(cutLine);
  });

  it('reports a header cut in the middle, and keeps the sample before it', async () => {
    const inHeader = full.subarray(0, lastStart + 20);
    const p = await loadProfileFromText(inHeader);
    expect(p.meta.samples).toBe((await complete).meta.samples);
    expect(p.meta.warnings).toEqual([{ line: lastLine, message: expect.stringMatching(/found the input cut off after ".{20}"; this line is skipped$/) }]);
    expect(both(p)).toEqual(both(await complete));
  });

  it('keeps a last sample that ends with its line end but no blank line (not a cut: FlameGraph has such files)', async () => {
    const p = await loadProfileFromText(full.subarray(0, full.length - 1));
    expect(p.meta.warnings).toEqual([]);
    expect(both(p)).toEqual(both(await loadProfileFromText(full)));
  });
});

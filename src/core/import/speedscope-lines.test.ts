// speedscope source lines (each shared frame's `file` and `line`) against sums over the JSON:
// an evented profile (fixtures/interchange/node.speedscope.json, speedscope's export of a Node
// profile) replayed here, and a sampled one (speedscope-sampled.json).

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from './load';
import { lineDifferences, lineSums, type OracleFrame } from '../testing/line-oracle';

const DIR = fileURLToPath(new URL('../../../fixtures/interchange/', import.meta.url));
const SCALE: Record<string, number> = { nanoseconds: 1, microseconds: 1e3, milliseconds: 1e6, seconds: 1e9 };

interface Frame {
  name: string;
  file?: string;
  line?: number;
}

const where = (f: Frame): string => (f.file ? `${f.file}:${f.line && f.line > 0 ? f.line : 0}` : '?');

describe('speedscope source lines', () => {
  it('evented: per function and line, self and total as replayed from the events', async () => {
    const text = readFileSync(DIR + 'node.speedscope.json', 'utf8');
    const json = JSON.parse(text) as { shared: { frames: Frame[] }; profiles: { unit: string; events: { type: string; frame: number; at: number }[] }[] };
    const profile = await loadProfileFromText(text);
    const { unit, events } = json.profiles[0];
    const samples: { weight: number; frames: OracleFrame[] }[] = [];
    const open: number[] = [];
    let last = NaN;
    for (const e of events) {
      if (open.length > 0 && e.at > last) samples.push({ weight: (e.at - last) * SCALE[unit], frames: open.map((i) => ({ name: json.shared.frames[i].name, where: where(json.shared.frames[i]) })) });
      last = e.at;
      if (e.type === 'O') open.push(e.frame);
      else open.length = open.lastIndexOf(e.frame);
    }
    const sums = lineSums(samples);
    expect(sums.size).toBeGreaterThan(10);
    const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
    expect(lineDifferences(profile, sums, close)).toEqual([]);
  });

  it('sampled: files and lines of the shared frames, a frame without a file unknown', async () => {
    const text = readFileSync(DIR + 'speedscope-sampled.json', 'utf8');
    const json = JSON.parse(text) as { shared: { frames: Frame[] }; profiles: { unit: string; samples: number[][]; weights: number[] }[] };
    const profile = await loadProfileFromText(text);
    const { unit, samples, weights } = json.profiles[0];
    const sums = lineSums(samples.map((s, k) => ({ weight: weights[k] * SCALE[unit], frames: s.map((i) => ({ name: json.shared.frames[i].name, where: where(json.shared.frames[i]) })) })));
    expect(lineDifferences(profile, sums)).toEqual([]);
    expect([...sums.get('main')!.keys()]).toEqual(['/src/main.c:10']);
    expect([...sums.get('emit')!.keys()]).toEqual(['?']);
  });

  it('a file without any file names has no lines', async () => {
    const profile = await loadProfileFromText(readFileSync(DIR + 'speedscope-evented.json', 'utf8'));
    expect(profile.lines ?? null).toBeNull();
  });
});

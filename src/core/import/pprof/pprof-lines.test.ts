// pprof source lines (Line.line, Function.filename; a location's lines are its inline chain)
// against sums over the decoded input (fixtures/interchange/go-cpu.pb.gz, a Go CPU profile).

import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../load';
import { decodePprof } from './pprof-decode';
import { lineDifferences, lineSums, type OracleFrame } from '../../testing/line-oracle';

const GO = readFileSync(fileURLToPath(new URL('../../../../fixtures/interchange/go-cpu.pb.gz', import.meta.url)));

describe('pprof source lines', () => {
  it('per function and line, self and total as summed over the decoded samples', async () => {
    const profile = await loadProfileFromText(GO);
    expect(profile.lines).toBeTruthy();
    const p = decodePprof(gunzipSync(GO));
    const chosen = p.sampleTypes.findIndex(([t, u]) => `${p.strings[t]}/${p.strings[u]}` === profile.meta.event);
    expect(profile.meta.event).toBe('cpu/nanoseconds');
    const samples: { weight: number; frames: OracleFrame[] }[] = [];
    for (let s = 0; s + 1 < p.locStart.length; s++) {
      const weight = p.values[p.valueStart[s] + chosen];
      if (weight === 0) continue;
      const frames: OracleFrame[] = [];
      for (let l = p.locStart[s + 1] - 1; l >= p.locStart[s]; l--) {
        const loc = p.locations.get(p.locs[l])!;
        for (let i = loc.functions.length - 1; i >= 0; i--) {
          const fn = p.functions.get(loc.functions[i])!;
          const file = p.strings[fn.filename];
          frames.push({ name: p.strings[fn.name], where: file ? `${file}:${loc.lines[i]}` : '?' });
        }
      }
      samples.push({ weight, frames });
    }
    const sums = lineSums(samples);
    expect(sums.size).toBeGreaterThan(5);
    expect(lineDifferences(profile, sums)).toEqual([]);
    // An inlined helper has its own lines, and its caller the call site's.
    const inlinedLines = [...sums.get('main.mix')?.keys() ?? []];
    expect(inlinedLines.length).toBeGreaterThan(0);
    expect(inlinedLines.every((w) => w.includes('main.go:'))).toBe(true);
  });
});

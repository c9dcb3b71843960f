// The fixed-seed fuzz pass CI runs (src/core/testing/fuzz.ts says what is mutated and which
// properties are checked): every mutation of every kind of recording flameview reads, a few
// thousand inputs in all. Longer runs: `npm run fuzz -- --minutes N` (scripts/fuzz.ts). A defect a
// run finds becomes a small regression test beside its importer's tests (docs/robustness.md lists them).

import { describe, expect, it } from 'vitest';
import { Rng } from '../../../bench/prng';
import { check, MUTATIONS, mutate, SEEDS } from '../testing/fuzz';

const PER_KIND = Number(process.env.FLAMEVIEW_FUZZ_PER_KIND ?? 24);

describe('fuzz (fixed seed)', () => {
  const others = Object.values(SEEDS);
  for (const [name, seed] of Object.entries(SEEDS)) {
    it(`${name}: ${PER_KIND} mutants of each of ${MUTATIONS.length} kinds fail only with ImportErrors or load consistent profiles`, { timeout: 300_000 }, async () => {
      const input = await seed();
      expect((await check(input)).kind).toBe('loaded');
      const rng = new Rng(0xf1a3e ^ name.length);
      const counts = { loaded: 0, 'import-error': 0 };
      for (const kind of MUTATIONS) {
        for (let i = 0; i < PER_KIND; i++) {
          const other = await others[rng.int(others.length)]();
          const mutant = mutate(rng, input, other, kind);
          const outcome = await check(mutant).catch((e: Error) => {
            throw new Error(`${name}, ${kind} #${i} (${mutant.length} bytes): ${e.message}`);
          });
          counts[outcome.kind]++;
        }
      }
      // The mutants do break things (strict formats such as protobuf and JSON reject most of them).
      expect(counts['import-error'], JSON.stringify(counts)).toBeGreaterThan(0);
    });
  }
});

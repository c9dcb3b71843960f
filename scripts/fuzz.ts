// `npm run fuzz -- --minutes N [--seed S] [--only NAME]`: the mutation fuzzer of
// src/core/testing/fuzz.ts for as long as asked, over every importer in turn (an equal share of
// the time each), with a fresh seed unless --seed is given. Prints per importer the inputs, the
// outcomes, the median and slowest time per MB, and writes every input that broke a property to
// fuzz-failures/ (git-ignored) with the message, to become a regression test.

import { mkdirSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { Rng } from '../bench/prng';
import { check, MUTATIONS, mutate, SEEDS } from '../src/core/testing/fuzz';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '1' }, seed: { type: 'string' }, only: { type: 'string' } } });
const minutes = Number(values.minutes);
const seed = values.seed ? Number(values.seed) : Date.now() % 2 ** 31;
const names = Object.keys(SEEDS).filter((n) => !values.only || n === values.only);
if (!(minutes > 0) || names.length === 0) {
  console.error('usage: npm run fuzz -- --minutes N [--seed S] [--only NAME]   (names: ' + Object.keys(SEEDS).join(', ') + ')');
  process.exit(2);
}
console.log(`seed ${seed}, ${minutes} min over ${names.length} importers`);
const inputs = await Promise.all(Object.values(SEEDS).map((s) => s()));
let failures = 0;
for (const name of names) {
  const input = await SEEDS[name]();
  const rng = new Rng(seed ^ name.length);
  const until = Date.now() + (minutes * 60_000) / names.length;
  const counts = { loaded: 0, 'import-error': 0 };
  const msPerMb: number[] = [];
  let slowest = { ms: 0, bytes: 0, kind: '' };
  let n = 0;
  // A line every few minutes, so that a long run shows it is alive, and a run stuck on one input
  // shows the number to replay (the mutants are a pure function of the seed and their number).
  let report = Date.now() + 5 * 60_000;
  while (Date.now() < until) {
    if (Date.now() > report) {
      report += 5 * 60_000;
      console.log(`  ${name}: ${n} inputs so far, ${counts.loaded} loaded, ${counts['import-error']} import errors`);
    }
    const kind = MUTATIONS[rng.int(MUTATIONS.length)];
    const mutant = mutate(rng, input, inputs[rng.int(inputs.length)], kind);
    n++;
    try {
      const outcome = await check(mutant);
      counts[outcome.kind]++;
      msPerMb.push(outcome.ms / Math.max(mutant.length / 1e6, 0.01));
      if (outcome.ms > slowest.ms) slowest = { ms: outcome.ms, bytes: mutant.length, kind };
    } catch (e) {
      failures++;
      mkdirSync('fuzz-failures', { recursive: true });
      const file = `fuzz-failures/${name.replace(/\W+/g, '-')}-${seed}-${n}`;
      writeFileSync(file, mutant);
      writeFileSync(`${file}.txt`, `${kind}: ${(e as Error).message}\n`);
      console.log(`  FAILED ${name} ${kind} #${n}: ${(e as Error).message.split('\n')[0]} (input in ${file})`);
    }
  }
  msPerMb.sort((a, b) => a - b);
  console.log(`${name}: ${n} inputs, ${counts.loaded} loaded, ${counts['import-error']} import errors; median ${msPerMb[msPerMb.length >> 1]?.toFixed(0)} ms/MB; slowest ${slowest.ms.toFixed(0)} ms (${slowest.kind}, ${(slowest.bytes / 1e6).toFixed(2)} MB)`);
}
console.log(failures === 0 ? 'no property broken' : `${failures} inputs broke a property`);
process.exit(failures === 0 ? 0 : 1);

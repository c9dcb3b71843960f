// For tests: the repo's recordings in every format flameview reads (fixtures/, provenance in
// fixtures/PROVENANCE.md), for checks that must hold of any recording, such as round trips.

import { readFileSync } from 'node:fs';

export const RECORDING_FIXTURES = [
  'rust-toyc.perf-script.txt',
  'rust-toyc.fp.perf-script.txt',
  'sqlite.perf-script.txt',
  'sqlite.no-callchain.perf-script.txt',
  'cpp/funcs.perf-script.txt',
  'cpp/maps.perf-script.txt',
  'cpp/mixed-clang.perf-script.txt',
  'cpp/recur.perf-script.txt',
  'offcpu/waits-a.perf-script.txt.gz',
  'rust-toyc.folded',
  'rust-toyc.svg',
  'interchange/node.cpuprofile',
  'interchange/chrome-trace.json',
  'interchange/node.speedscope.json',
  'interchange/go-cpu.pb.gz',
] as const;

/** A fixture's bytes (gzip left as it is: loading undoes it). */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url));
}

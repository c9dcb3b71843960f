// Vitest global setup: the tests that spawn bin/flameview run the compiled CLI (dist/node/), so
// build it from the sources under test first (esbuild, well under a second). Every temporary
// file of the run (the tests' own, and those of the CLIs and servers they start) goes under one
// folder of the system's temporary directory, removed when the run ends: a test that fails half
// way, or a child killed hard, then leaves nothing behind on the machine.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildNode } from './build.mjs';
import { removeRunFolder } from './run-folder.mjs';

export default async function setup() {
  await buildNode({ quiet: true });
  const root = mkdtempSync(join(tmpdir(), 'flameview-vitest-'));
  process.env.TMPDIR = root;
  return () => removeRunFolder(root);
}

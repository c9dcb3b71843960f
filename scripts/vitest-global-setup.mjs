// Vitest global setup: the tests that spawn bin/flameview run the compiled CLI (dist/node/), so
// build it from the sources under test first (esbuild, well under a second).
import { buildNode } from './build.mjs';

export default async function setup() {
  await buildNode({ quiet: true });
}

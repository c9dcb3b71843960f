#!/usr/bin/env node
// bin/flameview.mjs (started by the bin/flameview shell wrapper): runs the compiled CLI,
// dist/node/flameview.mjs (`npm run build` or `npm run build:node`; the package ships it). In a
// checkout not built yet, or with FLAMEVIEW_FROM_SOURCE=1, it runs src/ through tsx instead.
import { existsSync } from 'node:fs';

const built = new URL('../dist/node/flameview.mjs', import.meta.url);
const source = new URL('../src/cli/bin.ts', import.meta.url);
if (process.env.FLAMEVIEW_FROM_SOURCE === '1' || !existsSync(built)) {
  if (!existsSync(source)) {
    process.stderr.write('flameview: the package is incomplete: dist/node/flameview.mjs is missing; reinstall it\n');
    process.exit(1);
  }
  let register;
  try {
    ({ register } = await import('tsx/esm/api'));
  } catch {
    process.stderr.write('flameview: not built yet: run `npm run build` (or `npm ci`, which builds the CLI)\n');
    process.exit(1);
  }
  register();
  await import(source.href);
} else {
  await import(built.href);
}

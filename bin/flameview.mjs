#!/usr/bin/env node
// bin/flameview.mjs (started by the bin/flameview shell wrapper): runs the TypeScript CLI
// (src/cli/main.ts) through tsx, so it works right after `npm ci` with no separate build step.
import { register } from 'tsx/esm/api';
import { fileURLToPath } from 'node:url';
import { dirname, join } from 'node:path';

register();
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const { main } = await import(join(root, 'src/cli/main.ts'));
process.exitCode = await main(process.argv.slice(2));

// The CLI's process entry (built to dist/node/flameview.mjs, started by bin/flameview): runs the
// dispatcher on the command line and leaves its status as the exit code.
import { main } from './main';

process.exitCode = await main(process.argv.slice(2));

// The folder a test run's temporary files go under (vitest's global setup, playwright.config.ts),
// removed at the end of the run. A removal that fails (a tmpfs a failed test left mounted) is
// said, not thrown: the run's own result stands.
import { rmSync } from 'node:fs';

export function removeRunFolder(root) {
  try {
    rmSync(root, { recursive: true, force: true });
  } catch (e) {
    process.stderr.write(`could not remove the run's temporary folder ${root}: ${e.message}\n`);
  }
}

// Removes the folder playwright.config.ts gave the run's temporary files (TMPDIR).
import { removeRunFolder } from '../scripts/run-folder.mjs';

export default function teardown(): void {
  if (process.env.FLAMEVIEW_E2E_TMP) removeRunFolder(process.env.FLAMEVIEW_E2E_TMP);
}

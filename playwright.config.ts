import { defineConfig } from '@playwright/test';
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeRunFolder } from './scripts/run-folder.mjs';

// Browser tests run against the built app (vite build + vite preview) in Debian's Chromium.
// Never `npx playwright install`: the browser is /usr/bin/chromium (apt-get install chromium).
//
// The suite starts its own server, never reuses one: on FLAMEVIEW_E2E_PORT when set, else on a
// port the system reports free (chosen once here and passed to the workers, which read this
// file again, through the environment). A port already answering fails the run, rather than
// testing someone else's build.
if (!process.env.FLAMEVIEW_E2E_PORT) {
  const probe = spawnSync(process.execPath, ['-e', "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"], { encoding: 'utf8' });
  process.env.FLAMEVIEW_E2E_PORT = probe.stdout.trim();
}
const PORT = Number(process.env.FLAMEVIEW_E2E_PORT);
// The run's temporary files (the specs' exports and reports, the CLIs they start, Chromium's
// profiles) go under one folder, chosen once like the port and removed when the process that
// chose it exits (also after a run whose server failed to start, or a --list).
if (!process.env.FLAMEVIEW_E2E_TMP) {
  const runFolder = mkdtempSync(join(tmpdir(), 'flameview-e2e-run-'));
  process.env.FLAMEVIEW_E2E_TMP = runFolder;
  process.env.TMPDIR = runFolder;
  process.on('exit', () => removeRunFolder(runFolder));
}
// Built apart from dist/ (under node_modules/.cache, already ignored by git) so a test run never
// races a `vite build` of dist/ started by someone else, and each port gets its own copy.
const OUT_DIR = `node_modules/.cache/flameview-e2e-${PORT}`;

export default defineConfig({
  testDir: 'e2e',
  // Per port, like the build: a concurrent run on another port must not delete our artifacts.
  outputDir: `test-results/port-${PORT}`,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list'], ['junit', { outputFile: 'test-results/e2e-junit.xml' }]] : 'list',
  use: {
    baseURL: `http://localhost:${PORT}/`,
    headless: true,
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
    trace: 'retain-on-failure',
  },
  webServer: {
    // The CLI too: some specs start `bin/flameview serve` (dist/node/) against this build.
    command: `node scripts/build.mjs --node --quiet && npx vite build --logLevel warn --outDir ${OUT_DIR} --emptyOutDir && npx vite preview --port ${PORT} --strictPort --outDir ${OUT_DIR}`,
    url: `http://localhost:${PORT}/`,
    reuseExistingServer: false,
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});

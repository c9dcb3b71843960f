// Shared steps for the browser tests: wait for the explicit "drawn" signal (never sleep), and open
// files through the real file input.

import { expect, type Page } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export function fixturePath(name: string): string {
  return path.join(REPO_ROOT, 'fixtures', name);
}

/** Waits until the flame graph shows the current state (aria-busy="false"). */
export async function waitForIdle(page: Page, timeout = 30_000): Promise<void> {
  await expect(page.locator('[aria-label="Flame graph"][aria-busy="false"]')).toBeVisible({ timeout });
}

/** Opens a file (a fixture name, or an absolute path) through the "Open file" input. */
export async function openFixture(page: Page, file: string): Promise<void> {
  const full = path.isAbsolute(file) ? file : fixturePath(file);
  await page.getByLabel('Open file').setInputFiles(full);
}

/** Opens in-memory bytes through the "Open file" input. */
export async function openBytes(page: Page, name: string, buffer: Buffer, mimeType = 'application/octet-stream'): Promise<void> {
  await page.getByLabel('Open file').setInputFiles({ name, mimeType, buffer });
}

/** The demo (or `url`) opened and drawn. */
export async function gotoAndWait(page: Page, url = './'): Promise<void> {
  await page.goto(url);
  await waitForIdle(page);
}

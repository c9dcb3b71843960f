// Shared steps for the browser tests: wait for the explicit "drawn" signal (never sleep), and open
// files through the real file input.

import { expect, type Locator, type Page } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

type FramesHook = { flameviewFrames: { rect(l: string, n: string): { x: number; y: number; width: number; height: number } | null } };

/** Clicks the frame `name` of the graph `label` (found through the test hook window.flameviewFrames) once it is drawn. */
export async function clickFrame(page: Page, label: string, name: string): Promise<void> {
  await expect(page.locator(`[aria-label="${label}"][aria-busy="false"]`)).toBeVisible({ timeout: 30_000 });
  await expect.poll(() => page.evaluate(([l, n]) => (window as unknown as FramesHook).flameviewFrames.rect(l, n) !== null, [label, name] as const)).toBe(true);
  const r = (await page.evaluate(([l, n]) => (window as unknown as FramesHook).flameviewFrames.rect(l, n), [label, name] as const))!;
  await page.mouse.click(r.x + Math.min(r.width / 2, 40), r.y + r.height / 2);
}

/** The demo (or `url`) opened and drawn. */
export async function gotoAndWait(page: Page, url = './'): Promise<void> {
  await page.goto(url);
  await waitForIdle(page);
}

export interface MainThreadTasks {
  /** Tasks on the page's main thread (CrRendererMain) while tracing. */
  tasks: number;
  /** Longest task by wall-clock time (what 'longtask' reports; inflated when the CPU is busy). */
  longestWallMs: number;
  /** Longest task by the thread's own CPU time (robust to other processes on the machine). */
  longestCpuMs: number;
  /** Tasks over 50 ms of CPU time. */
  overBudget: number;
  /** The thread's CPU time in all its tasks. */
  totalCpuMs: number;
}

/**
 * Runs `action` under a Chromium trace and measures the tasks of the page's main thread. CPU
 * time is reported beside wall time: on a shared 2-core machine a 5 ms task can take 200 ms of
 * wall time while the thread waits for a core, which is not the app's doing.
 */
export async function traceMainThread(page: Page, action: () => Promise<void>): Promise<MainThreadTasks> {
  return summariseTrace(await timelineTrace(page, action));
}

/** Runs `action` under a Chromium timeline trace and returns the trace (JSON text). */
export async function timelineTrace(page: Page, action: () => Promise<void>): Promise<string> {
  const browser = page.context().browser();
  if (!browser) throw new Error('tracing needs a browser-backed page');
  await browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline'] });
  let buffer: Buffer;
  try {
    await action();
  } finally {
    buffer = await browser.stopTracing();
  }
  return buffer.toString('utf8');
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** How many complete events named `name` a trace has on the page's main thread (CrRendererMain). */
export function mainThreadEvents(json: string, name: string): number {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set<string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') main.add(`${e.pid}:${e.tid}`);
  return events.filter((e) => e.name === name && e.ph === 'X' && main.has(`${e.pid}:${e.tid}`)).length;
}

export function summariseTrace(json: string): MainThreadTasks {
  const parsed = JSON.parse(json) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  const events = Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
  const main = new Set<string>();
  for (const e of events) if (e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain') main.add(`${e.pid}:${e.tid}`);
  let tasks = 0;
  let wall = 0;
  let cpu = 0;
  let over = 0;
  let total = 0;
  for (const e of events) {
    if (e.name !== 'RunTask' || e.ph !== 'X' || !main.has(`${e.pid}:${e.tid}`)) continue;
    tasks++;
    const w = (e.dur ?? 0) / 1000;
    const c = (e.tdur ?? e.dur ?? 0) / 1000;
    total += c;
    if (w > wall) wall = w;
    if (c > cpu) cpu = c;
    if (c > 50) over++;
  }
  return { tasks, longestWallMs: wall, longestCpuMs: cpu, overBudget: over, totalCpuMs: Math.round(total) };
}

/** Records every dialog the page opens (and dismisses it): a script injected through a name would show here. */
export function collectDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  return dialogs;
}

/** A running `bin/flameview serve --store` on a free port, serving this e2e run's build. */
export interface StoreServer {
  /** http://127.0.0.1:PORT, without a trailing slash. */
  base: string;
  /** The store directory (a fresh temp dir). */
  store: string;
  /** Stops the server and removes the store. */
  stop(): void;
}

export async function startStoreServer(prefix: string, args: string[] = []): Promise<StoreServer> {
  const store = mkdtempSync(path.join(tmpdir(), prefix));
  try {
    const cli = await startCli(['serve', '--store', store, '--port', '0', ...args]);
    return {
      base: cli.url.replace(/\/$/, ''),
      store,
      stop: () => {
        cli.stop();
        rmSync(store, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(store, { recursive: true, force: true });
    throw e;
  }
}

/** The directory this e2e run built the app into (playwright.config.ts). */
export function e2eDist(): string {
  return path.join(REPO_ROOT, 'node_modules', '.cache', `flameview-e2e-${Number(process.env.FLAMEVIEW_E2E_PORT ?? 4173)}`);
}

export interface RunningCli {
  /** The first URL the command printed on stdout. */
  url: string;
  /** What it wrote on stderr so far. */
  stderr: () => string;
  stop(): void;
}

/** Starts `bin/flameview ARGS` serving this run's build, and waits for the URL it prints. */
export async function startCli(args: string[]): Promise<RunningCli> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin', 'flameview.mjs'), ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, FLAMEVIEW_DIST: e2eDist() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  const stop = () => void child.kill('SIGTERM');
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`flameview ${args[0]} did not start: ${err}`)), 30_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /http:\/\/\S+/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
      child.on('exit', (code) => reject(new Error(`flameview ${args[0]} exited with ${code}: ${err}`)));
    });
    return { url, stderr: () => err, stop };
  } catch (e) {
    stop();
    throw e;
  }
}

/** A parameter of the location hash as written (still percent-encoded), or null when absent. */
export const hashParam = (page: Page, key: string): Promise<string | null> =>
  page.evaluate((k) => location.hash.slice(1).split('&').find((p) => p.startsWith(`${k}=`))?.slice(k.length + 1) ?? null, key);

/**
 * Opens a fixture through a link, as a shared link would (#profile=e2e-fixtures/NAME, served by a
 * route), with `extra` appended to the hash (e.g. '&transforms=hide:kernel').
 */
export async function openLinkedFixture(page: Page, name: string, extra = ''): Promise<void> {
  const body = readFileSync(fixturePath(name));
  await page.route('**/e2e-fixtures/**', (route) => route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain' } }));
  await page.goto(`./#v=1&profile=e2e-fixtures/${name}${extra}`);
  await waitForIdle(page);
  await expect(page.getByTestId('recording-name')).toHaveText(name);
  await waitForIdle(page);
}

/** Serves every fixture under e2e-fixtures/NAME (404 for a missing one), for links naming several. */
export async function serveFixtures(page: Page): Promise<void> {
  await page.route('**/e2e-fixtures/**', async (route) => {
    const name = decodeURIComponent(new URL(route.request().url()).pathname.split('/').pop() ?? '');
    const file = fixturePath(name);
    if (!existsSync(file)) return route.fulfill({ status: 404, body: 'not found' });
    const body = readFileSync(file);
    return route.fulfill({ status: 200, body, headers: { 'content-type': 'text/plain', 'content-length': String(body.length) } });
  });
}

/**
 * A toolbar menu's panel ("View", or "More actions" for the ⋯ menu), opened if it is closed: the
 * controls that moved into the menus are found inside it.
 */
export async function menu(page: Page, name: 'View' | 'More actions') {
  const button = page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name, exact: true });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
  return page.getByRole('group', { name, exact: true });
}

/**
 * Picks another event in the View menu and waits until the recording has been read again for it:
 * the graph then takes the focus (components/Viewer.tsx), which closes the menu, so a menu
 * reopened before that would close under the test. For a pick that reads successfully, one graph
 * shown (a failed read leaves the focus where it was: this then times out).
 */
export async function pickEvent(page: Page, event: string): Promise<void> {
  await (await menu(page, 'View')).getByLabel('Event').selectOption(event);
  await expect(page.getByRole('application', { name: 'Flame graph', exact: true })).toBeFocused();
  await waitForIdle(page);
}

/** A button in a toolbar menu (the menu opened if it is closed). */
export async function menuButton(page: Page, menuName: 'View' | 'More actions', name: string): Promise<Locator> {
  return (await menu(page, menuName)).getByRole('button', { name, exact: true });
}

/** Downloads the open recording through the Export menu's `item` into `dir`: its suggested name and where it was saved. */
export async function exportAs(page: Page, dir: string, item: 'SVG (interactive)' | 'PNG image' | 'Folded stacks' | 'pprof (.pb.gz)' | 'Processed recording (.flameview)'): Promise<{ name: string; file: string }> {
  await (await menuButton(page, 'More actions', 'Export')).click();
  const download = page.waitForEvent('download');
  await page.getByRole('menuitem', { name: item }).click();
  const d = await download;
  const file = path.join(dir, d.suggestedFilename());
  await d.saveAs(file);
  return { name: d.suggestedFilename(), file };
}

/** The time-order chart (its scroll container, with the aria-busy and data-window contract). */
export const chart = (page: Page) => page.getByRole('img', { name: 'Stack chart of the samples in time order' });

export async function chartIdle(page: Page) {
  await expect(page.locator('.time-chart[aria-busy="false"]')).toBeVisible();
}

/** Drags across the time-order chart from fraction a to fraction b of its width. */
export async function dragRange(page: Page, a: number, b: number) {
  const box = (await chart(page).boundingBox())!;
  const y = box.y + 40;
  await page.mouse.move(box.x + box.width * a, y);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width * ((a + b) / 2), y, { steps: 4 });
  await page.mouse.move(box.x + box.width * b, y, { steps: 4 });
  await page.mouse.up();
}

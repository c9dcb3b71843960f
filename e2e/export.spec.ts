// Export menu: folded stacks of the current view, the standalone SVG (opened again in Chromium:
// zoom, search, hostile names stay text), and the PNG of the canvas at device resolution.

import { expect, test, type Page } from '@playwright/test';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { collectDialogs, exportAs as exportTo, fixturePath, gotoAndWait, menuButton, openBytes, openFixture, REPO_ROOT, waitForIdle } from './helpers';

const tmp = mkdtempSync(path.join(tmpdir(), 'flameview-export-'));

const exportAs = (page: Page, item: Parameters<typeof exportTo>[2]) => exportTo(page, tmp, item);

async function openToyc(page: Page) {
  await gotoAndWait(page);
  await openFixture(page, 'rust-toyc.perf-script.txt');
  await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc.perf-script.txt');
  await waitForIdle(page);
}

test.describe('export', () => {
  test('folded stacks of the current view', async ({ page }) => {
    await openToyc(page);
    await (await menuButton(page, 'More actions', 'Export')).click();
    await expect(page.getByRole('menu', { name: 'Export' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('export-menu.png') });
    await page.keyboard.press('Escape');
    await expect(page.getByRole('menu', { name: 'Export' })).toHaveCount(0);
    const fn = await exportAs(page, 'Folded stacks');
    expect(fn.name).toBe('rust-toyc.perf-script-functions.folded.txt');
    const fnText = readFileSync(fn.file, 'utf8');
    // The function view has no _[i] frames; its total is the recording's.
    expect(fnText).not.toContain('_[i]');
    const total = (t: string) => t.trim().split('\n').reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
    expect(total(fnText)).toBe(1066132256);

    await page.getByRole('button', { name: 'Inline frames' }).click();
    await waitForIdle(page);
    const inl = await exportAs(page, 'Folded stacks');
    expect(inl.name).toBe('rust-toyc.perf-script-inline.folded.txt');
    const inlText = readFileSync(inl.file, 'utf8');
    expect(inlText).toContain('_[i]');
    expect(total(inlText)).toBe(1066132256);
  });

  test('pprof of the whole recording: both views read back as the recording, whatever the view shown', async ({ page }) => {
    await openToyc(page);
    await page.getByRole('button', { name: 'Inline frames' }).click();
    await waitForIdle(page);
    const pb = await exportAs(page, 'pprof (.pb.gz)');
    expect(pb.name).toBe('rust-toyc.perf-script.pb.gz');
    expect(readFileSync(pb.file).subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    const collapse = (view: string, file: string) => {
      const r = spawnSync(path.join(REPO_ROOT, 'bin/flameview'), ['collapse', '--view', view, file], { encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    for (const view of ['inline', 'functions']) expect(collapse(view, pb.file)).toBe(collapse(view, fixturePath('rust-toyc.perf-script.txt')));
  });

  test('pprof of a recording with source lines keeps them: flameview lines reads the export as the recording', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'srcline/hashack.srcline.perf-script.txt.gz');
    await waitForIdle(page);
    await expect(page.getByTestId('recording-name')).toHaveText('hashack.srcline.perf-script.txt.gz');
    const pb = await exportAs(page, 'pprof (.pb.gz)');
    expect(pb.name).toBe('hashack.srcline.perf-script.pb.gz');
    // Every function's lines, self and total (the regular expression `.` matches every name), in
    // both views: in the inline view the inlined `get` and `put` have lines of their own.
    const lines = (view: string, file: string) => {
      const r = spawnSync(path.join(REPO_ROOT, 'bin/flameview'), ['lines', '--view', view, '--json', '.', file], { encoding: 'utf8', maxBuffer: 64 << 20 });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as { name: string; lines: { file: string | null }[] }[];
    };
    for (const view of ['functions', 'inline']) {
      const want = lines(view, fixturePath('srcline/hashack.srcline.perf-script.txt.gz'));
      expect(want.flatMap((f) => f.lines).filter((l) => l.file !== null).length, view).toBeGreaterThan(50);
      expect(lines(view, pb.file), view).toEqual(want);
    }
  });

  test('the processed recording: the CLI reads it as the original, and the page opens it again with its time order', async ({ page }) => {
    await openToyc(page);
    const fv = await exportAs(page, 'Processed recording (.flameview)');
    expect(fv.name).toBe('rust-toyc.perf-script.flameview');
    const collapse = (view: string, file: string) => spawnSync(path.join(REPO_ROOT, 'bin/flameview'), ['collapse', '--view', view, file], { encoding: 'utf8', maxBuffer: 64 << 20 }).stdout;
    for (const view of ['inline', 'functions']) expect(collapse(view, fv.file)).toBe(collapse(view, fixturePath('rust-toyc.perf-script.txt')));
    await openBytes(page, 'again.flameview', readFileSync(fv.file), 'application/octet-stream');
    await expect(page.getByTestId('recording-name')).toHaveText('again.flameview');
    await waitForIdle(page);
    await expect(page.getByRole('alert')).toHaveCount(0);
    // The samples came along: the time order draws them.
    const timeOrder = page.getByRole('toolbar', { name: 'Tools' }).getByRole('button', { name: 'Time order' });
    await timeOrder.click();
    await expect(timeOrder).toHaveAttribute('aria-pressed', 'true');
    await expect(page.locator('.time-chart[aria-busy="false"]')).toBeVisible();
    const chart = page.getByRole('img', { name: 'Stack chart of the samples in time order' });
    expect(Number(await chart.getAttribute('data-rects'))).toBeGreaterThan(50);
  });

  test('SVG: downloads with the title, opens standalone, zooms and searches', async ({ page }) => {
    await openToyc(page);
    const svg = await exportAs(page, 'SVG (interactive)');
    expect(svg.name).toBe('rust-toyc.perf-script-functions.svg');
    const text = readFileSync(svg.file, 'utf8');
    expect(text).toContain('<text id="title" x="600" y="24">rust-toyc.perf-script.txt</text>');
    expect(text).toContain('fv:view="functions"');

    const copy = path.join(tmp, 'opened.svg');
    copyFileSync(svg.file, copy);
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto('file://' + copy);
    await expect(page.locator('#title')).toHaveText('rust-toyc.perf-script.txt');
    await page.screenshot({ path: test.info().outputPath('export-svg.png') });

    // Click a frame: it fills the width, Reset Zoom appears, and resets.
    const frame = page.locator('g.f', { has: page.locator('title', { hasText: /^toyc::compile_module / }) }).first();
    await frame.locator('rect').click();
    await expect(page.locator('#unzoom')).not.toHaveClass('hide');
    await expect(frame.locator('rect')).toHaveAttribute('width', '1180.0');
    await page.screenshot({ path: test.info().outputPath('export-svg-zoomed.png') });
    await page.locator('#unzoom').click();
    await expect(page.locator('#unzoom')).toHaveClass('hide');

    // Search through the prompt.
    page.once('dialog', (d) => void d.accept('^toyc::compile_module$'));
    await page.locator('#search').click();
    await expect(page.locator('#matched')).toHaveText(/^Matched: \d+(\.\d)?%$/);
    await expect(page.locator('rect[fill="rgb(230,0,230)"]').first()).toBeVisible();
    expect(errors).toEqual([]);
  });

  test('SVG of hostile names: text only, no script runs', async ({ page }) => {
    const dialogs = collectDialogs(page);
    await gotoAndWait(page);
    const evil = '<img src=x onerror=alert(1)>';
    await openBytes(page, 'evil.folded', Buffer.from(`main;${evil};leaf 5\nmain;safe 3\n`));
    await waitForIdle(page);
    const svg = await exportAs(page, 'SVG (interactive)');
    const text = readFileSync(svg.file, 'utf8');
    expect(text).not.toContain('<img');
    const copy = path.join(tmp, 'evil.svg');
    writeFileSync(copy, text);
    await page.goto('file://' + copy);
    const frame = page.locator('g.f', { has: page.locator('title', { hasText: evil }) });
    await expect(frame).toHaveCount(1);
    await frame.locator('rect').hover();
    await expect(page.locator('#details')).toHaveText(`Function: ${evil} (5 samples, 62.50%)`);
    await frame.locator('rect').click();
    await expect(page.locator('img')).toHaveCount(0);
    expect(dialogs).toEqual([]);
  });

  test('a flamegraph.pl SVG opens in the viewer, and exports again', async ({ page }) => {
    await gotoAndWait(page);
    await openFixture(page, 'rust-toyc-functions.svg');
    await expect(page.getByTestId('recording-name')).toHaveText('rust-toyc-functions.svg');
    await waitForIdle(page);
    await expect(page.locator('footer')).toContainText('Format: flame graph SVG');
    const folded = await exportAs(page, 'Folded stacks');
    const lines = readFileSync(folded.file, 'utf8').trim().split('\n');
    expect(lines.reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0)).toBe(1066132256);
    await page.screenshot({ path: test.info().outputPath('open-svg.png') });
  });

  test('bin/flameview svg --search: the SVG opens with the matches highlighted', async ({ page }) => {
    const svg = path.join(tmp, 'searched.svg');
    const r = spawnSync(path.join(REPO_ROOT, 'bin/flameview'), ['svg', '--view', 'inline', '--search', '^toyc::compile_module$', fixturePath('rust-toyc.perf-script.txt')], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    writeFileSync(svg, r.stdout);
    await page.goto('file://' + svg);
    // The oracle: the share of the folded stacks (inline view) with a matching frame.
    const lines = readFileSync(fixturePath('rust-toyc.folded'), 'utf8').trim().split('\n');
    let matched = 0;
    let total = 0;
    for (const l of lines) {
      const at = l.lastIndexOf(' ');
      const w = Number(l.slice(at + 1));
      total += w;
      if (l.slice(0, at).split(';').some((f) => /^toyc::compile_module$/.test(f.replace(/_\[i\]$/, '')))) matched += w;
    }
    await expect(page.locator('#matched')).toHaveText(`Matched: ${((100 * matched) / total).toFixed(1)}%`);
    await expect(page.locator('#search')).toHaveText('Reset Search');
    await page.locator('#search').click();
    await expect(page.locator('#matched')).toHaveText(' ');
    await expect(page.locator('rect[fill="rgb(230,0,230)"]')).toHaveCount(0);
  });

  test('PNG at device resolution', async ({ page }) => {
    await openToyc(page);
    const png = await exportAs(page, 'PNG image');
    expect(png.name).toBe('rust-toyc.perf-script-functions.png');
    const bytes = readFileSync(png.file);
    expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
    const width = bytes.readUInt32BE(16);
    const canvasWidth = await page.locator('canvas.flame-canvas').evaluate((c: HTMLCanvasElement) => c.width);
    expect(width).toBe(canvasWidth);
    expect(width).toBeGreaterThan(0);
  });
});

// A V8 CPU profile of the profile worker while the built app opens one file, for comparison with
// `node --cpu-prof` of the same engine (bench/cpu-summary.ts summarises either).
//
//   npx tsx bench/browser/worker-profile.ts FILE [--via url|file] [--out worker.cpuprofile] [--no-build] [--port 4306]
//
// Playwright has no CDP session for a dedicated worker, so this speaks CDP itself: Chromium is
// started with a debugging port, the page target is attached in flat mode, auto-attach reports
// the worker (the app starts it for the demo recording), and Profiler.start runs on the worker's
// session before the file is opened. Needs Node's WebSocket (run under
// `node --experimental-websocket` on Node 20; npx tsx passes NODE_OPTIONS through).

import { spawnSync } from 'node:child_process';
import { createReadStream, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { basename, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from '@playwright/test';
import { preview } from 'vite';
import { summarise } from '../cpu-summary';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

class Cdp {
  private id = 0;
  private readonly pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
  private readonly listeners: ((method: string, params: Record<string, unknown>, sessionId?: string) => void)[] = [];

  private constructor(private readonly ws: WebSocket) {
    ws.addEventListener('message', (e) => {
      const msg = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string }; method?: string; params?: Record<string, unknown>; sessionId?: string };
      if (msg.id !== undefined) {
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (msg.error) p?.reject(new Error(msg.error.message));
        else p?.resolve(msg.result);
      } else if (msg.method) {
        for (const l of this.listeners) l(msg.method, msg.params ?? {}, msg.sessionId);
      }
    });
  }

  static async connect(url: string): Promise<Cdp> {
    const WS = (globalThis as { WebSocket?: typeof WebSocket }).WebSocket;
    if (!WS) throw new Error('no WebSocket in this Node: run with NODE_OPTIONS=--experimental-websocket');
    const ws = new WS(url);
    await new Promise((res, rej) => {
      ws.addEventListener('open', res);
      ws.addEventListener('error', rej);
    });
    return new Cdp(ws);
  }

  send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    const id = ++this.id;
    this.ws.send(JSON.stringify({ id, method, params, sessionId }));
    return new Promise((resolve, reject) => this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject }));
  }

  on(listener: (method: string, params: Record<string, unknown>, sessionId?: string) => void): void {
    this.listeners.push(listener);
  }

  close(): void {
    this.ws.close();
  }
}

async function main(): Promise<void> {
  const file = resolve(process.argv[2] ?? '');
  const name = basename(file);
  const via = arg('--via') ?? 'url';
  const out = arg('--out') ?? 'worker.cpuprofile';
  const port = Number(arg('--port') ?? 4306);
  const outDir = `node_modules/.cache/flameview-bench-${port}`;
  if (!process.argv.includes('--no-build')) {
    const r = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', outDir, '--emptyOutDir'], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('vite build failed');
  }
  const data = createServer((_req, res) => {
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.writeHead(200, { 'Content-Type': 'text/plain', 'Content-Length': String(statSync(file).size) });
    createReadStream(file, { highWaterMark: 1 << 20 }).pipe(res);
  });
  await new Promise<void>((r) => data.listen(port + 1, '127.0.0.1', r));
  const app = await preview({ root: ROOT, logLevel: 'warn', build: { outDir }, preview: { port, strictPort: true, open: false } });
  const debugPort = port + 2;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', `--remote-debugging-port=${debugPort}`],
    headless: true,
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`http://localhost:${port}/`);
    await page.waitForFunction(() => document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false', null, { timeout: 60_000 });
    const version = (await (await fetch(`http://127.0.0.1:${debugPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const cdp = await Cdp.connect(version.webSocketDebuggerUrl);
    const workers: string[] = [];
    cdp.on((method, params) => {
      if (method === 'Target.attachedToTarget' && (params.targetInfo as { type: string }).type === 'worker') workers.push(params.sessionId as string);
    });
    const { targetInfos } = await cdp.send<{ targetInfos: { targetId: string; type: string; url: string }[] }>('Target.getTargets');
    const target = targetInfos.find((t) => t.type === 'page' && t.url.startsWith(`http://localhost:${port}/`));
    if (!target) throw new Error('page target not found');
    const { sessionId } = await cdp.send<{ sessionId: string }>('Target.attachToTarget', { targetId: target.targetId, flatten: true });
    await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId);
    for (let i = 0; i < 50 && workers.length === 0; i++) await new Promise((r) => setTimeout(r, 100));
    if (workers.length === 0) throw new Error('no worker attached');
    // The app may run more than one worker (search, analysis): profile them all, report each.
    for (const w of workers) {
      await cdp.send('Profiler.enable', {}, w);
      await cdp.send('Profiler.setSamplingInterval', { interval: 200 }, w);
      await cdp.send('Profiler.start', {}, w);
    }
    const t0 = Date.now();
    if (via === 'file') await page.getByLabel('Open file').setInputFiles(file);
    else await page.goto(`http://localhost:${port}/#profile=${encodeURIComponent(`http://127.0.0.1:${port + 1}/${name}`)}`);
    await page.waitForFunction(
      (n) => document.title.startsWith(n + ' ·') && document.querySelector('[aria-label="Flame graph"]')?.getAttribute('aria-busy') === 'false',
      name,
      { timeout: 300_000, polling: 50 },
    );
    console.log(`${name} via ${via}: drawn after ${Date.now() - t0} ms`);
    for (const [i, w] of workers.entries()) {
      const { profile } = await cdp.send<{ profile: Parameters<typeof summarise>[0] & { nodes: unknown[] } }>('Profiler.stop', {}, w);
      const path = workers.length === 1 ? out : out.replace(/(\.cpuprofile)?$/, `.${i}.cpuprofile`);
      writeFileSync(path, JSON.stringify(profile));
      console.log(`worker ${i}: ${path}\n${summarise(profile, 30)}`);
    }
    cdp.close();
  } finally {
    await browser.close();
    await new Promise<void>((r) => app.httpServer.close(() => r()));
    data.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// Chromium driven over its DevTools pipe, with nothing attached but the one page: the small
// bench's timed first visits (small.ts). Playwright attaches itself to every worker a page starts
// and holds the worker until its client has set it up (Target.setAutoAttach with
// waitForDebuggerOnStart), which no user's browser does: a page timing its own worker measured
// 33 ms from `new Worker` to the worker's first statement under Playwright and 23 ms over this
// pipe (medians of 7, alternating; bench/README.md, "Timed over the DevTools pipe"). speedscope
// starts no worker; flameview's first picture waits on one. Traces and returning visits stay
// with Playwright.
//
// The protocol: JSON messages ending in NUL, written to the browser's fd 3, read from its fd 4
// (`--remote-debugging-pipe`); page commands carry the page's session id (flat sessions).

import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';

/** What Playwright's own launch passes that bears on a page's timing (its chromiumSwitches), so both drivers see one browser. */
const SWITCHES = [
  '--headless',
  '--hide-scrollbars',
  '--mute-audio',
  '--disable-field-trial-config',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--disable-renderer-backgrounding',
  '--disable-back-forward-cache',
  '--disable-extensions',
  '--disable-component-extensions-with-background-pages',
  '--disable-default-apps',
  '--disable-hang-monitor',
  '--disable-ipc-flooding-protection',
  '--disable-features=PaintHolding',
  '--force-color-profile=srgb',
  '--no-default-browser-check',
  '--enable-unsafe-swiftshader',
];

interface Reply {
  id?: number;
  result?: Record<string, unknown>;
  error?: { message: string };
}

/** The longest one command may take (a page's promise included): past it the call fails. */
const CALL_TIMEOUT_MS = 150_000;

export class PipeBrowser {
  private nextId = 1;
  private readonly waiting = new Map<number, { done: (r: Record<string, unknown>) => void; fail: (e: Error) => void }>();
  private buffered = '';
  /** Why the browser cannot answer any more (it exited, or could not start), once it cannot. */
  private gone: Error | null = null;
  /** The end of the browser's stderr: what a failed launch says. */
  private stderr = '';
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly profile: string,
  ) {
    const input = child.stdio[4] as Readable;
    input.setEncoding('utf8');
    input.on('data', (text: string) => this.receive(text));
    const errors = child.stderr!;
    errors.setEncoding('utf8');
    errors.on('data', (text: string) => (this.stderr = (this.stderr + text).slice(-2000)));
    // A pipe broken by the browser's end, or a launch that failed: the calls in flight and every
    // later one fail at once (the exit handler says why).
    for (const stream of [input, child.stdio[3] as Writable, errors]) stream.on('error', (e) => this.end(new Error(`the browser's DevTools pipe broke (${e.message}): it exited or could not start`)));
    this.exited = new Promise((done) => {
      child.once('error', (e) => {
        this.end(e);
        done();
      });
      child.once('exit', (code, signal) => {
        this.end(new Error(`the browser exited (${signal ?? code})${this.stderr ? `: ${this.stderr.trim().split('\n').slice(-3).join(' / ')}` : ''}`));
        done();
      });
    });
  }

  /** A fresh browser on a fresh profile; `args` after the switches Playwright would pass. */
  static launch(executable: string, args: readonly string[]): PipeBrowser {
    const profile = mkdtempSync(join(tmpdir(), 'flameview-pipe-'));
    const child = spawn(executable, [...SWITCHES, ...args, '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe'] });
    return new PipeBrowser(child, profile);
  }

  private end(why: Error): void {
    this.gone ??= why;
    for (const w of this.waiting.values()) w.fail(this.gone);
    this.waiting.clear();
  }

  private receive(text: string): void {
    this.buffered += text;
    for (let end = this.buffered.indexOf('\0'); end >= 0; end = this.buffered.indexOf('\0')) {
      const reply = JSON.parse(this.buffered.slice(0, end)) as Reply;
      this.buffered = this.buffered.slice(end + 1);
      const w = reply.id === undefined ? undefined : this.waiting.get(reply.id);
      if (!w) continue; // an event: none is asked for
      this.waiting.delete(reply.id!);
      if (reply.error) w.fail(new Error(reply.error.message));
      else w.done(reply.result ?? {});
    }
  }

  /** One command's result; fails when the browser is gone or after CALL_TIMEOUT_MS. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    if (this.gone) return Promise.reject(this.gone);
    const id = this.nextId++;
    return new Promise((done, fail) => {
      const timer = setTimeout(() => {
        this.waiting.delete(id);
        fail(new Error(`${method}: no answer in ${CALL_TIMEOUT_MS / 1000} s`));
      }, CALL_TIMEOUT_MS);
      const settle = <A>(f: (a: A) => void) => (a: A) => {
        clearTimeout(timer);
        f(a);
      };
      this.waiting.set(id, { done: settle(done), fail: settle(fail) });
      (this.child.stdio[3] as Writable).write(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }) + '\0');
    });
  }

  /** The first page's session, its viewport set. */
  async page(viewport: { width: number; height: number }): Promise<string> {
    const { targetInfos } = (await this.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string }[] };
    let target = targetInfos.find((t) => t.type === 'page')?.targetId;
    target ??= ((await this.send('Target.createTarget', { url: 'about:blank' })) as { targetId: string }).targetId;
    const { sessionId } = (await this.send('Target.attachToTarget', { targetId: target, flatten: true })) as { sessionId: string };
    // Scripts added to new documents run only with the Page domain on.
    await this.send('Page.enable', {}, sessionId);
    await this.send('Emulation.setDeviceMetricsOverride', { ...viewport, deviceScaleFactor: 1, mobile: false }, sessionId);
    return sessionId;
  }

  /** Navigates the page; a navigation that fails (no server, a refused port) throws with the browser's reason. */
  async navigate(sessionId: string, url: string): Promise<void> {
    const { errorText } = (await this.send('Page.navigate', { url }, sessionId)) as { errorText?: string };
    if (errorText) throw new Error(`${url}: ${errorText}`);
  }

  /** `expression`'s value in the page (a promise awaited), by value. */
  async evaluate<T>(sessionId: string, expression: string): Promise<T> {
    const r = (await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true }, sessionId)) as { result: { value: T }; exceptionDetails?: { text: string; exception?: { description?: string } } };
    if (r.exceptionDetails) throw new Error(r.exceptionDetails.exception?.description ?? r.exceptionDetails.text);
    return r.result.value;
  }

  /** Closes the browser (killed if it does not exit within 5 s) and removes its profile. */
  async close(): Promise<void> {
    // Asked to close (its answer awaited up to 5 s), then killed if it has not exited 5 s later.
    if (!this.gone) await Promise.race([this.send('Browser.close').catch(() => {}), new Promise((r) => setTimeout(r, 5000).unref())]);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), 5000);
    await this.exited;
    clearTimeout(timer);
    // A killed browser's other processes may still be writing their last files: retried.
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 50 });
  }
}

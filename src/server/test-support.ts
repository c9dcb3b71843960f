// Helpers for the server and CLI tests: a tiny stand-in for the built app, recordings with
// distinct bytes, and child processes of bin/flameview that are always killed afterwards.

import { spawn, spawnSync, type ChildProcessWithoutNullStreams, type SpawnOptionsWithoutStdio } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { REPO_ROOT } from './dist';

export const BIN = join(REPO_ROOT, 'bin', 'flameview.mjs');
export const FIXTURES = join(REPO_ROOT, 'fixtures');
export const INDEX_HTML = '<!doctype html><title>flameview test app</title><script type="module" src="/assets/app.js"></script>\n';

export function tempDir(prefix = 'flameview-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A minimal dist/ directory: index.html and one asset. */
export function fixtureDist(): string {
  const dir = tempDir('flameview-dist-');
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'index.html'), INDEX_HTML);
  writeFileSync(join(dir, 'assets', 'app.js'), 'export {};\n');
  return dir;
}

/** Folded stacks whose bytes differ with `seed`, about `lines` lines long. */
export function foldedRecording(seed: number, lines = 50): string {
  let text = '';
  for (let i = 0; i < lines; i++) text += `main;work_${seed};step_${i % 7};leaf_${(i * 31 + seed) % 13} ${1 + ((i * seed) % 9)}\n`;
  return text;
}

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  stdout: () => string;
  stderr: () => string;
  exit: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

const live = new Set<ChildProcessWithoutNullStreams>();

/** Runs bin/flameview with node directly (so PATH may be restricted) and records it for killAll. */
export function runCli(args: string[], options: SpawnOptionsWithoutStdio = {}, bin = BIN): Spawned {
  return spawnTracked(process.execPath, [bin, ...args], options);
}

/** Spawns a command (cwd: the repository unless given) and records it for killAll. */
export function spawnTracked(command: string, args: string[], options: SpawnOptionsWithoutStdio = {}): Spawned {
  const child = spawn(command, args, { cwd: REPO_ROOT, ...options });
  live.add(child);
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
  const exit = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on('close', (code, signal) => {
      live.delete(child);
      resolve({ code, signal });
    });
  });
  return { child, stdout: () => out, stderr: () => err, exit };
}

/** Waits until the child's stdout holds a line matching `pattern`; fails on exit or timeout. */
export async function waitForLine(s: Spawned, pattern: RegExp, timeoutMs = 30_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const line = s.stdout().split('\n').find((l) => pattern.test(l));
    if (line) return line;
    if (s.child.exitCode !== null || s.child.signalCode !== null) {
      throw new Error(`flameview exited (${s.child.exitCode ?? s.child.signalCode}) before printing ${pattern}: ${s.stderr()}`);
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}; stderr: ${s.stderr()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Stops every child still running (SIGTERM, then SIGKILL) and waits for them to go. */
export async function killAll(): Promise<void> {
  const waits = [...live].map(
    (child) =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        // SIGTERM first, as a user's Ctrl+C would, so the command removes its temp files; SIGKILL
        // when it has not exited within two seconds.
        const force = setTimeout(() => child.kill('SIGKILL'), 2000);
        child.once('close', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  );
  await Promise.all(waits);
}

/** Writes `first`, then calls `drip` every `everyMs` (at most `times` times) until the server closes; returns what it answered. */
export function rawExchange(port: number, first: string, drip: (n: number) => string, everyMs: number, times: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(first));
    let n = 0;
    const timer = setInterval(() => {
      if (n++ < times && socket.writable) socket.write(drip(n));
    }, everyMs);
    let text = '';
    socket.setEncoding('utf8').on('data', (d: string) => (text += d));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearInterval(timer);
      resolve(text);
    });
  });
}

/** This process's open file descriptors on `path` (Linux /proc). */
export function openDescriptors(path: string): number {
  let n = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

/** Whether process `pid` runs (a zombie no parent has reaped yet does not). */
export function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

/**
 * Ctrl+C (or `signal`) to `s` once `ready()` holds, while a stand-in perf that wrote its pid to
 * `pidFile` runs on: flameview stops with exit status 130 (143 for SIGTERM), leaves `tmp` (its
 * TMPDIR) empty and stops the stand-in. A terminal's Ctrl+C reaches perf too, but a signal sent to
 * flameview alone (a supervisor's, a test's) must not leave perf running; here only flameview gets it.
 */
export async function expectCleanInterrupt(s: Spawned, tmp: string, pidFile: string, ready: () => boolean, signal: 'SIGINT' | 'SIGTERM' = 'SIGINT'): Promise<void> {
  try {
    await expect.poll(() => existsSync(pidFile) && readFileSync(pidFile, 'utf8').endsWith('\n') && ready(), { timeout: 30_000 }).toBe(true);
    s.child.kill(signal);
    expect((await s.exit).code).toBe(signal === 'SIGINT' ? 130 : 143);
    expect(readdirSync(tmp)).toEqual([]);
    await expect.poll(() => running(Number(readFileSync(pidFile, 'utf8')))).toBe(false);
  } finally {
    if (existsSync(pidFile)) spawnSync('kill', [readFileSync(pidFile, 'utf8').trim()]);
  }
}

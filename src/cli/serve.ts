// `flameview serve --store DIR [--port N] [--host ADDR] [--max-upload BYTES]`: the team server.
// Stores uploaded recordings content-addressed under DIR and serves the app; see src/server/app.ts.

import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, DEFAULT_MAX_UPLOAD } from '../server/app';
import { ensureBuilt } from '../server/dist';
import { ListenError, listen, parseBytes, parsePort, untilStopped } from '../server/lifecycle';
import { ProfileStore } from '../server/store';
import type { CliIo } from './main';
import { openBrowser } from './open';

export const SERVE_USAGE = 'usage: flameview serve --store DIR [--port N] [--host ADDR] [--max-upload BYTES]\n';
export const DEFAULT_SERVE_PORT = 8080;

interface ServeArgs {
  store: string;
  port: number;
  host: string;
  maxUpload: number;
}

function parseArgs(args: string[]): ServeArgs | string {
  let store: string | undefined;
  let port = DEFAULT_SERVE_PORT;
  let host = '127.0.0.1';
  let maxUpload = DEFAULT_MAX_UPLOAD;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const [flag, inline] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    switch (flag) {
      case '--store': {
        const v = value();
        if (!v) return '--store needs a directory';
        store = v;
        break;
      }
      case '--port': {
        const v = value();
        const p = v === undefined ? null : parsePort(v);
        if (p === null) return `--port needs a port number (0-65535), found ${JSON.stringify(v ?? '')}`;
        port = p;
        break;
      }
      case '--host': {
        const v = value();
        if (!v) return '--host needs an address';
        host = v;
        break;
      }
      case '--max-upload': {
        const v = value();
        const n = v === undefined ? null : parseBytes(v);
        if (n === null || n <= 0) return `--max-upload needs a size in bytes (e.g. 1073741824 or 1g), found ${JSON.stringify(v ?? '')}`;
        maxUpload = n;
        break;
      }
      default:
        return `unknown option ${JSON.stringify(arg)}`;
    }
  }
  if (!store) return '--store DIR is required';
  return { store: resolve(store), port, host, maxUpload };
}

export async function runServe(args: string[], io: CliIo): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout.write(SERVE_USAGE);
    return 0;
  }
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.stderr.write(`flameview serve: ${parsed}\n${SERVE_USAGE}`);
    return 2;
  }
  try {
    const store = await ProfileStore.open(parsed.store);
    const distDir = await ensureBuilt(io.stderr);
    const app = await buildApp({ distDir, store, maxUpload: parsed.maxUpload });
    const url = await listen(app, parsed.host, parsed.port);
    const stopped = untilStopped(app);
    io.stderr.write(`flameview: serving recordings from ${parsed.store} (uploads up to ${parsed.maxUpload} bytes); Ctrl+C stops\n`);
    if (parsed.host !== '127.0.0.1' && parsed.host !== 'localhost' && parsed.host !== '::1') {
      io.stderr.write(`flameview: listening on ${parsed.host}: anyone who can reach it can upload and read recordings\n`);
    }
    io.stdout.write(`${url}/\n`);
    await stopped;
    return 0;
  } catch (e) {
    const message = e instanceof ListenError ? e.message : describeError(e, parsed.store);
    io.stderr.write(`flameview serve: ${message}\n`);
    return 1;
  }
}

function describeError(e: unknown, dir: string): string {
  const err = e as NodeJS.ErrnoException;
  if (err.code === 'EACCES' || err.code === 'EPERM') return `${dir}: permission denied`;
  if (err.code === 'ENOTDIR' || err.code === 'EEXIST') return `${dir}: not a directory`;
  if (err.code === 'EROFS') return `${dir}: read-only file system`;
  return err.message ?? String(e);
}

/** How many ports after the asked one `serve-demo` tries before asking the system for any. */
const DEMO_PORT_TRIES = 20;

/**
 * `flameview serve-demo [--port N] [--no-open]` (what `npm start` runs): the built app alone on
 * 127.0.0.1:4173, which opens the embedded demo recording when no link names another. When the
 * port is taken (another `npm start`, a preview server) it takes the next free one and says so:
 * `npm start` should not trip over a server left running.
 */
export async function runServeDemo(args: string[], io: CliIo): Promise<number> {
  let port = 4173;
  let open = true;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === '--no-open') {
      open = false;
      continue;
    }
    if (arg === '--port') {
      const p = parsePort(args[++i] ?? '');
      if (p !== null) {
        port = p;
        continue;
      }
    }
    io.stderr.write(`flameview serve-demo: unexpected ${JSON.stringify(args[i] ?? '')}\nusage: flameview serve-demo [--port N] [--no-open]\n`);
    return 2;
  }
  try {
    const app = await buildApp({ distDir: await ensureBuilt(io.stderr) });
    const url = `${await listenFrom(app, port, io)}/`;
    const stopped = untilStopped(app);
    if (!open || !(await openBrowser(url))) io.stdout.write(`${url}\n`);
    else io.stderr.write(`flameview: opened ${url}\n`);
    io.stderr.write('flameview: serving the app until Ctrl+C\n');
    await stopped;
    return 0;
  } catch (e) {
    io.stderr.write(`flameview serve-demo: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

/** Listens on 127.0.0.1 at `port`, else the next free port of the few after it, else any. */
async function listenFrom(app: FastifyInstance, port: number, io: CliIo): Promise<string> {
  const candidates = port === 0 ? [0] : [...Array.from({ length: DEMO_PORT_TRIES + 1 }, (_, i) => port + i).filter((p) => p <= 65535), 0];
  for (const candidate of candidates) {
    try {
      const url = await listen(app, '127.0.0.1', candidate);
      if (candidate !== port) io.stderr.write(`flameview: port ${port} is in use; serving on ${new URL(url).port} instead\n`);
      return url;
    } catch (e) {
      if (!(e instanceof ListenError && e.inUse)) throw e;
    }
  }
  throw new ListenError(`no free port from ${port}`);
}

// `flameview serve --store DIR|s3://BUCKET/PREFIX …`: the team server. Stores uploaded
// recordings content-addressed in a directory or a bucket (any number of replicas may share one
// bucket) and serves the app; see src/server/store-routes.ts.

import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp, DEFAULT_MAX_UPLOAD, DEFAULT_SLOW_CLIENT_LIMITS, type SlowClientLimits } from '../server/app';
import { ensureBuilt } from '../server/dist';
import { ListenError, listen, parseBytes, parsePort, untilStopped } from '../server/lifecycle';
import type { Retention } from '../server/retention';
import { openStore } from '../server/open-store';
import { DEFAULT_WRITES_PER_MINUTE } from '../server/store-routes';
import { embedOrigin } from '../server/security';
import { checkUploadToken } from '../server/tokens';
import type { CliIo } from './main';
import { openBrowser } from './open';

export const SERVE_USAGE =
  'usage: flameview serve --store DIR|s3://BUCKET/PREFIX [--s3-endpoint URL] [--port N] [--host ADDR]\n' +
  '         [--max-upload BYTES] [--upload-token FILE] [--list] [--max-store BYTES] [--expire-days N]\n' +
  '         [--rate-limit N] [--trust-proxy] [--slow-client-seconds N] [--min-upload-rate BYTES]\n' +
  '         [--allow-embed ORIGIN]...\n';
export const DEFAULT_SERVE_PORT = 8080;
/** CopyObject's limit, which an S3 store commits uploads with. */
const MAX_S3_UPLOAD = 5 * 1024 ** 3;

interface ServeArgs {
  store: string;
  s3Endpoint?: string;
  port: number;
  host: string;
  maxUpload: number;
  maxUploadGiven: boolean;
  uploadTokenFile?: string;
  list: boolean;
  retention: Retention;
  writesPerMinute: number;
  trustProxy: boolean;
  slowClients: SlowClientLimits;
  allowEmbed: string[];
}

function parseArgs(args: string[], env: NodeJS.ProcessEnv): ServeArgs | string {
  let store: string | undefined;
  const parsed: Omit<ServeArgs, 'store'> = {
    s3Endpoint: env.AWS_ENDPOINT_URL_S3 || env.AWS_ENDPOINT_URL || undefined,
    port: DEFAULT_SERVE_PORT,
    host: '127.0.0.1',
    maxUpload: DEFAULT_MAX_UPLOAD,
    maxUploadGiven: false,
    list: false,
    retention: {},
    writesPerMinute: DEFAULT_WRITES_PER_MINUTE,
    trustProxy: false,
    slowClients: { ...DEFAULT_SLOW_CLIENT_LIMITS, upload: { ...DEFAULT_SLOW_CLIENT_LIMITS.upload } },
    allowEmbed: [],
  };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const eq = arg.indexOf('=');
    const [flag, inline] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = (): string | undefined => inline ?? args[++i];
    const bytes = (what: string): number | string => {
      const v = value();
      const n = v === undefined ? null : parseBytes(v);
      if (n === null || n <= 0) return `${what} needs a size in bytes (e.g. 1073741824 or 1g), found ${JSON.stringify(v ?? '')}`;
      return n;
    };
    const count = (what: string, min: number): number | string => {
      const v = value();
      if (v === undefined || !/^\d{1,9}$/.test(v) || Number(v) < min) return `${what} needs a whole number of at least ${min}, found ${JSON.stringify(v ?? '')}`;
      return Number(v);
    };
    switch (flag) {
      case '--store': {
        const v = value();
        if (!v) return '--store needs a directory or s3://BUCKET/PREFIX';
        store = v;
        break;
      }
      case '--s3-endpoint': {
        const v = value();
        if (!v || !/^https?:\/\/[^/]/.test(v)) return `--s3-endpoint needs an http(s) URL, found ${JSON.stringify(v ?? '')}`;
        parsed.s3Endpoint = v;
        break;
      }
      case '--port': {
        const v = value();
        const p = v === undefined ? null : parsePort(v);
        if (p === null) return `--port needs a port number (0-65535), found ${JSON.stringify(v ?? '')}`;
        parsed.port = p;
        break;
      }
      case '--host': {
        const v = value();
        if (!v) return '--host needs an address';
        parsed.host = v;
        break;
      }
      case '--max-upload': {
        const n = bytes('--max-upload');
        if (typeof n === 'string') return n;
        parsed.maxUpload = n;
        parsed.maxUploadGiven = true;
        break;
      }
      case '--max-store': {
        const n = bytes('--max-store');
        if (typeof n === 'string') return n;
        parsed.retention.maxStoreBytes = n;
        break;
      }
      case '--expire-days': {
        const n = count('--expire-days', 1);
        if (typeof n === 'string') return n;
        parsed.retention.expireDays = n;
        break;
      }
      case '--rate-limit': {
        const n = count('--rate-limit', 0);
        if (typeof n === 'string') return n;
        parsed.writesPerMinute = n;
        break;
      }
      case '--slow-client-seconds': {
        // How long request headers may take, and an upload's grace before its pace counts; a
        // connection may stand still three times as long.
        const n = count('--slow-client-seconds', 1);
        if (typeof n === 'string') return n;
        parsed.slowClients.headersMs = parsed.slowClients.upload.graceMs = n * 1000;
        parsed.slowClients.idleMs = 3 * n * 1000;
        break;
      }
      case '--min-upload-rate': {
        const n = bytes('--min-upload-rate');
        if (typeof n === 'string') return n;
        parsed.slowClients.upload.minBytesPerSecond = n;
        break;
      }
      case '--upload-token': {
        const v = value();
        if (!v) return '--upload-token needs a file that holds the token';
        parsed.uploadTokenFile = v;
        break;
      }
      case '--list':
        if (inline !== undefined) return `--list takes no value`;
        parsed.list = true;
        break;
      case '--trust-proxy':
        if (inline !== undefined) return `--trust-proxy takes no value`;
        parsed.trustProxy = true;
        break;
      case '--allow-embed': {
        const v = value();
        const origin = v === undefined ? null : embedOrigin(v);
        if (origin === null) return `--allow-embed needs an origin such as https://ci.example.com (scheme, host, port; no path), found ${JSON.stringify(v ?? '')}`;
        if (!parsed.allowEmbed.includes(origin)) parsed.allowEmbed.push(origin);
        break;
      }
      default:
        return `unknown option ${JSON.stringify(arg)}`;
    }
  }
  if (!store) return '--store DIR or --store s3://BUCKET/PREFIX is required';
  const s3 = store.startsWith('s3://');
  if (s3 && parsed.maxUpload > MAX_S3_UPLOAD) return `--max-upload is at most 5g with an S3 store (one CopyObject)`;
  if (!s3 && parsed.s3Endpoint && args.some((a) => a.startsWith('--s3-endpoint'))) return '--s3-endpoint goes with --store s3://BUCKET/PREFIX';
  const maxStore = parsed.retention.maxStoreBytes;
  if (maxStore !== undefined && parsed.maxUpload > maxStore) {
    if (parsed.maxUploadGiven) return `--max-upload (${parsed.maxUpload}) is over --max-store (${maxStore})`;
    parsed.maxUpload = maxStore;
  }
  return { ...parsed, store: s3 ? store : resolve(store) };
}

/** The upload token from --upload-token FILE, else FLAMEVIEW_UPLOAD_TOKEN, else none. */
async function uploadToken(file: string | undefined, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  if (file !== undefined) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch (e) {
      throw new Error(`--upload-token ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
    }
    return checkUploadToken(text, file);
  }
  if (env.FLAMEVIEW_UPLOAD_TOKEN) return checkUploadToken(env.FLAMEVIEW_UPLOAD_TOKEN, 'FLAMEVIEW_UPLOAD_TOKEN');
  return undefined;
}

export async function runServe(args: string[], io: CliIo, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  if (args.includes('-h') || args.includes('--help')) {
    io.stdout.write(SERVE_USAGE);
    return 0;
  }
  const parsed = parseArgs(args, env);
  if (typeof parsed === 'string') {
    io.stderr.write(`flameview serve: ${parsed}\n${SERVE_USAGE}`);
    return 2;
  }
  try {
    const token = await uploadToken(parsed.uploadTokenFile, env);
    const store = await openStore(parsed.store, { endpoint: parsed.s3Endpoint });
    const distDir = await ensureBuilt(io.stderr);
    const app = await buildApp({
      distDir,
      store,
      maxUpload: parsed.maxUpload,
      trustProxy: parsed.trustProxy,
      slowClients: parsed.slowClients,
      allowEmbed: parsed.allowEmbed,
      team: { uploadToken: token, list: parsed.list, writesPerMinute: parsed.writesPerMinute, retention: parsed.retention },
    });
    const url = await listen(app, parsed.host, parsed.port);
    const stopped = untilStopped(app, () => store.close());
    io.stderr.write(`flameview: serving recordings from ${store.location} (uploads up to ${parsed.maxUpload} bytes${token ? ', with the upload token' : ''}); Ctrl+C stops\n`);
    if (!token && parsed.host !== '127.0.0.1' && parsed.host !== 'localhost' && parsed.host !== '::1') {
      io.stderr.write(`flameview: listening on ${parsed.host} without --upload-token: anyone who can reach it can upload recordings\n`);
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

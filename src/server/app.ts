// The HTTP side of `flameview FILE` and `flameview serve`, as one fastify instance (testable
// with app.inject() or a real listen on 127.0.0.1:0).
//
//   GET  /, /assets/…          the built app (dist/)
//   GET  /api/local/<token>[/<name>]  a file named on the command line (open mode only)
//   GET  /api/source/<secret>?path=P  a source file the recording names (open mode with source
//                              roots only; source-routes.ts, source-guard.ts)
//   /api/profiles…, /p/<id>    the team server (store mode only; store-routes.ts); its pages are
//                              marked <meta name=flameview-store> with what it offers
//   GET  /p/<anything else>    the app's files, as at / (relative asset paths under /p/<id>)
//
// Invariants: SECURITY_HEADERS on every response (hooks plus the raw client-error path); request
// bodies are streamed, never buffered; only ids matching ID_PATTERN and tokens minted by the CLI
// reach the file system; errors answer a one-line JSON {error}, never a stack.

import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { open, type FileHandle } from 'node:fs/promises';
import type { Socket } from 'node:net';
import { join, resolve, sep } from 'node:path';
import type { Importer } from '../core/import/importer';
import { importers as defaultImporters } from '../core/import/registry';
import { SECURITY_HEADERS, attachmentDisposition, securityHeaders } from './security';
import { StoreUnavailable, type RecordingStore, type UploadPace } from './store';
import { parseRange, registerStore, type StoreRouteOptions } from './store-routes';
import { bodyRange, replyWithFileBytes } from './send-file';
import type { FileGuard } from './source-guard';
import { registerSource } from './source-routes';
import { registerAsm, type AsmSource } from './asm-routes';

export { withStoreMeta } from './store-routes';

export const DEFAULT_MAX_UPLOAD = 1024 * 1024 * 1024;

/** Slow clients: how long request headers may take, and the pace an upload must keep. */
export interface SlowClientLimits {
  /** The request line and headers must be complete within this (slowloris). */
  headersMs: number;
  upload: UploadPace;
  /**
   * A connection on which nothing moves either way for this long is closed: a client that stops
   * reading a download (its socket buffers full) no longer holds the socket and the file.
   */
  idleMs: number;
}

/** As Apache's mod_reqtimeout (header=20, body=20 with MinRate=500) and its Timeout (60 s). */
export const DEFAULT_SLOW_CLIENT_LIMITS: SlowClientLimits = {
  headersMs: 20_000,
  upload: { graceMs: 20_000, minBytesPerSecond: 500 },
  idleMs: 60_000,
};

export interface LocalFile {
  path: string;
  /** Shown as the download name. */
  name: string;
}

export interface AppOptions {
  /** Directory of the built app (must hold index.html). */
  distDir: string;
  /** Enables the upload/download API and /p/<id>. */
  store?: RecordingStore;
  maxUpload?: number;
  /** The team server's settings (see StoreRouteOptions). */
  team?: Pick<StoreRouteOptions, 'uploadToken' | 'list' | 'writesPerMinute' | 'retention'>;
  /** Defaults to DEFAULT_SLOW_CLIENT_LIMITS; the tests make them short. */
  slowClients?: SlowClientLimits;
  /** Take the client's address from X-Forwarded-For (behind a load balancer). */
  trustProxy?: boolean;
  /**
   * Open mode: token → file named on the command line, or the promise of one still being made
   * (`flameview FILE`'s processed form while the CLI parses): its requests wait for it, so the
   * page loads meanwhile. The promise must not reject.
   */
  localFiles?: ReadonlyMap<string, LocalFile | Promise<LocalFile>>;
  /**
   * Whether local files are served in byte ranges (default true), which lets the page parse a
   * large one in parallel parts; `flameview FILE` turns it off with FLAMEVIEW_WORKERS=1.
   */
  localRanges?: boolean;
  /** Open mode: the source files the recording names, under the allowed roots. Never with `store`. */
  sources?: FileGuard;
  /** Open mode: disassemblies of the recording's functions from its binaries (./asm-routes.ts). Never with `store`. */
  asm?: AsmSource | Promise<AsmSource | string>;
  importers?: readonly Importer[];
  /** Origins that may frame the viewer and send it recordings (`serve --allow-embed`). */
  allowEmbed?: readonly string[];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const slow = options.slowClients ?? DEFAULT_SLOW_CLIENT_LIMITS;
  const app = Fastify({
    logger: false,
    // Big uploads over slow links must not be cut by a total-time timer; the size limit and the
    // upload pace (slow.upload) bound them.
    requestTimeout: 0,
    connectionTimeout: slow.idleMs,
    // Node answers headers that take longer than this through rawClientError (408); it checks
    // every connectionsCheckingInterval, so that is a fraction of the limit.
    http: { headersTimeout: slow.headersMs, connectionsCheckingInterval: Math.max(10, Math.min(30_000, Math.floor(slow.headersMs / 4))) },
    forceCloseConnections: true,
    trustProxy: options.trustProxy ?? false,
    clientErrorHandler: rawClientError,
    rewriteUrl: rewriteAppPath,
    // Bad URL encoding and over-long parameters are answered before any hook runs.
    frameworkErrors: (error, _request, reply) => {
      reply.headers(SECURITY_HEADERS);
      const status = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 400 : 500;
      return fail(reply, status, status === 400 ? 'bad request: malformed URL' : 'internal error');
    },
  });

  const headers = securityHeaders(options.allowEmbed);
  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(headers);
  });
  // Again just before sending: error paths may have replaced the headers set above.
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(headers);
    // The host pages' helper (public/flameview-embed.js) is imported by pages of other origins.
    if (request.url === '/flameview-embed.js') reply.header('access-control-allow-origin', '*');
    return payload;
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (error instanceof StoreUnavailable) {
      // A store that is down is a state, not a bug: one line, and the client is told to retry.
      process.stderr.write(`flameview: ${request.method} ${request.url}: ${error.message}\n`);
      return fail(reply.header('retry-after', '5'), 503, 'the recording store is unavailable; try again shortly');
    }
    if (status >= 500) process.stderr.write(`flameview: ${request.method} ${request.url}: ${error.stack ?? error.message}\n`);
    const message = status >= 500 ? 'internal error' : error.message.split('\n')[0];
    return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
  });
  app.setNotFoundHandler((_request, reply) => fail(reply, 404, 'not found'));

  const assetsDir = join(resolve(options.distDir), 'assets') + sep;
  await app.register(fastifyStatic, {
    root: options.distDir,
    index: ['index.html'],
    wildcard: true,
    dotfiles: 'ignore',
    setHeaders: (reply, path) => {
      // Vite names what it writes under assets/ by content hash: a returning visit uses them (and
      // V8's code cache beside them) without asking again. index.html is revalidated; the rest
      // (the demo, flameview-embed.js) keeps its name across versions, so it is kept an hour.
      const r = reply as unknown as { setHeader?(n: string, v: string): void; header?(n: string, v: string): void };
      const value = path.endsWith('.html') ? 'no-cache' : path.startsWith(assetsDir) ? 'public, max-age=31536000, immutable' : 'public, max-age=3600';
      if (r.header) r.header('cache-control', value);
      else r.setHeader?.('cache-control', value);
    },
  });

  if (options.localFiles) registerLocal(app, options.localFiles, options.localRanges ?? true);
  // The team server never serves source files, whatever it is given.
  if (options.sources && !options.store) registerSource(app, options.sources);
  if (options.asm && !options.store) registerAsm(app, options.asm);
  if (options.store) {
    await registerStore(app, {
      ...options.team,
      allowEmbed: options.allowEmbed,
      store: options.store,
      distDir: options.distDir,
      maxUpload: options.maxUpload ?? DEFAULT_MAX_UPLOAD,
      uploadPace: slow.upload,
      importers: options.importers ?? defaultImporters,
    });
  }
  return app;
}

function fail(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

/**
 * Waits for a local file still being made. The CLI's parse of a large recording may outlast the
 * idle timeout (slowClients.idleMs), which would close the waiting request's socket, so it has
 * none meanwhile: it is the page's own request on loopback, silent until the file exists.
 */
async function untilMade(file: Promise<LocalFile>, socket: Socket): Promise<LocalFile> {
  const idle = socket.timeout ?? 0;
  socket.setTimeout(0);
  try {
    return await file;
  } finally {
    if (!socket.destroyed) socket.setTimeout(idle);
  }
}

function registerLocal(app: FastifyInstance, files: ReadonlyMap<string, LocalFile | Promise<LocalFile>>, ranges: boolean): void {
  // The optional last segment is only the file's name, for the page to show; the token decides.
  const handler = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const entry = files.get(request.params.token);
    if (!entry) return fail(reply, 404, 'not found');
    const file = entry instanceof Promise ? await untilMade(entry, request.raw.socket) : entry;
    let handle: FileHandle;
    try {
      handle = await open(file.path, 'r');
    } catch {
      return fail(reply, 410, `${file.name} is no longer readable`);
    }
    const size = await handle.stat().then(
      (st) => st.size,
      async (error: unknown) => {
        await handle.close();
        throw error;
      },
    );
    reply
      .type('application/octet-stream')
      .header('accept-ranges', ranges ? 'bytes' : 'none')
      .header('content-disposition', attachmentDisposition(file.name, 'recording'))
      .header('cache-control', 'no-store');
    // One byte range: the page's part workers each fetch their own range of a large recording
    // (src/core/parallel/split.ts).
    const range = ranges ? parseRange(request.headers.range, size) : null;
    if (range === 'unsatisfiable') {
      await handle.close();
      return reply.code(416).header('content-range', `bytes */${size}`).send();
    }
    const { start, end } = bodyRange(reply, range, size);
    await replyWithFileBytes(reply, handle, start, end);
  };
  app.get('/api/local/:token', handler);
  app.get('/api/local/:token/:name', handler);
}

/** The path a local file is served at: its token, then its name reduced to URL-safe characters. */
export function localFilePath(token: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_').slice(0, 100);
  return `/api/local/${token}${safe ? `/${safe}` : ''}`;
}

/**
 * The app is built with a relative base (`./assets/…`), so on /p/<id> the browser asks for
 * /p/assets/…, /p/favicon.svg, …: every /p/ path that is not a recording id is the app's own file
 * at the root. (The static plugin still refuses `..` after the rewrite.)
 */
export function rewriteAppPath(request: { url?: string }): string {
  const url = request.url ?? '/';
  if (!url.startsWith('/p/') || /^\/p\/[0-9a-f]{64}(?:[?#]|$)/.test(url)) return url;
  return url.slice(2);
}

const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  bad: [400, 'Bad Request', 'bad request'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'request header fields too large'],
  // Node's headersTimeout: the request line and headers came too slowly (slowloris).
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'the request headers took too long to arrive'],
};

/** Malformed HTTP never reaches fastify's hooks; answer it with the same headers. */
function rawClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = CLIENT_ERRORS[error.code ?? ''] ?? CLIENT_ERRORS.bad;
  const body = JSON.stringify({ error: message });
  const headers = Object.entries(SECURITY_HEADERS)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n${headers}\r\n${body}`,
  );
}

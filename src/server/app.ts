// The HTTP side of `flameview FILE` and `flameview serve`, as one fastify instance (testable
// with app.inject() or a real listen on 127.0.0.1:0).
//
//   GET  /, /assets/…          the built app (dist/)
//   GET  /api/local/<token>[/<name>]  a file named on the command line (open mode only)
//   POST /api/profiles         upload a recording (store mode only) → 201/200 {id, url}
//   GET  /api/profiles         stored recordings, newest first
//   GET  /api/profiles/<id>    the bytes as uploaded, as an attachment
//   GET  /, /p/<id>            the app (store mode: marked <meta name=flameview-store>); /p/<id>
//                              makes it open that recording
//   GET  /p/<anything else>    the app's files, as at / (relative asset paths under /p/<id>)
//
// Invariants: SECURITY_HEADERS on every response (hooks plus the raw client-error path); request
// bodies are streamed, never buffered; only ids matching ID_PATTERN and tokens minted by the CLI
// reach the file system; errors answer a one-line JSON {error}, never a stack.

import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { Importer } from '../core/import/importer';
import { importers as defaultImporters } from '../core/import/registry';
import { SECURITY_HEADERS, attachmentDisposition, cleanFileName, isValidId } from './security';
import { sniffFile } from './sniff';
import type { ProfileStore } from './store';

export const DEFAULT_MAX_UPLOAD = 1024 * 1024 * 1024;

export interface LocalFile {
  path: string;
  /** Shown as the download name. */
  name: string;
}

export interface AppOptions {
  /** Directory of the built app (must hold index.html). */
  distDir: string;
  /** Enables the upload/list/download API and /p/<id>. */
  store?: ProfileStore;
  maxUpload?: number;
  /** Open mode: token → file named on the command line. */
  localFiles?: ReadonlyMap<string, LocalFile>;
  importers?: readonly Importer[];
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    // Big uploads over slow links must not be cut by a timer; the size limit bounds them.
    requestTimeout: 0,
    forceCloseConnections: true,
    clientErrorHandler: rawClientError,
    rewriteUrl: rewriteAppPath,
    // Bad URL encoding and over-long parameters are answered before any hook runs.
    frameworkErrors: (error, _request, reply) => {
      reply.headers(SECURITY_HEADERS);
      const status = error.code === 'FST_ERR_BAD_URL' || error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 400 : 500;
      return fail(reply, status, status === 400 ? 'bad request: malformed URL' : 'internal error');
    },
  });

  app.addHook('onRequest', async (_request, reply) => {
    reply.headers(SECURITY_HEADERS);
  });
  // Again just before sending: error paths may have replaced the headers set above.
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.headers(SECURITY_HEADERS);
    return payload;
  });

  app.setErrorHandler((error: Error & { statusCode?: number }, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) process.stderr.write(`flameview: ${request.method} ${request.url}: ${error.stack ?? error.message}\n`);
    const message = status >= 500 ? 'internal error' : error.message.split('\n')[0];
    return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
  });
  app.setNotFoundHandler((_request, reply) => fail(reply, 404, 'not found'));

  await app.register(fastifyStatic, {
    root: options.distDir,
    index: ['index.html'],
    wildcard: true,
    dotfiles: 'ignore',
    setHeaders: (reply, path) => {
      // Vite names assets by content hash; only index.html must be revalidated.
      const r = reply as unknown as { setHeader?(n: string, v: string): void; header?(n: string, v: string): void };
      const value = path.endsWith('.html') ? 'no-cache' : 'public, max-age=3600';
      if (r.header) r.header('cache-control', value);
      else r.setHeader?.('cache-control', value);
    },
  });

  if (options.localFiles) registerLocal(app, options.localFiles);
  if (options.store) registerStore(app, options.distDir, options.store, options.maxUpload ?? DEFAULT_MAX_UPLOAD, options.importers ?? defaultImporters);
  return app;
}

function fail(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

function registerLocal(app: FastifyInstance, files: ReadonlyMap<string, LocalFile>): void {
  // The optional last segment is only the file's name, for the page to show; the token decides.
  const handler = async (request: FastifyRequest<{ Params: { token: string } }>, reply: FastifyReply) => {
    const file = files.get(request.params.token);
    if (!file) return fail(reply, 404, 'not found');
    let size: number;
    try {
      size = (await stat(file.path)).size;
    } catch {
      return fail(reply, 410, `${file.name} is no longer readable`);
    }
    reply
      .type('application/octet-stream')
      .header('accept-ranges', 'bytes')
      .header('content-disposition', attachmentDisposition(file.name, 'recording'))
      .header('cache-control', 'no-store');
    // One byte range (`bytes=A-B`, `bytes=A-`): the page's part workers each fetch their own
    // range of a large recording (src/core/parallel/split.ts).
    const range = byteRange(request.headers.range, size);
    if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${size}`).send();
    if (range) {
      return reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${size}`)
        .header('content-length', range.end - range.start + 1)
        .send(createReadStream(file.path, range));
    }
    return reply.header('content-length', size).send(createReadStream(file.path));
  };
  app.get('/api/local/:token', handler);
  app.get('/api/local/:token/:name', handler);
}

/** A single `bytes=A-B` or `bytes=A-` range of a `size`-byte body (inclusive end); null to send it whole. */
export function byteRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null;
  if (!m) return null;
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return { start, end };
}

/** The path a local file is served at: its token, then its name reduced to URL-safe characters. */
export function localFilePath(token: string, name: string): string {
  const safe = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^\.+/, '_').slice(0, 100);
  return `/api/local/${token}${safe ? `/${safe}` : ''}`;
}

function registerStore(app: FastifyInstance, distDir: string, store: ProfileStore, maxUpload: number, importers: readonly Importer[]): void {
  const idError = 'invalid recording id: expected 64 lowercase hex digits (sha256)';

  app.get('/api/profiles', async (_request, reply) => {
    return reply.header('cache-control', 'no-store').send(await store.list());
  });

  app.get<{ Params: { id: string } }>('/api/profiles/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isValidId(id)) return fail(reply, 400, idError);
    const found = await store.read(id);
    if (!found) return fail(reply, 404, 'no recording with this id');
    const etag = `"${id}"`;
    reply
      .header('etag', etag)
      // Content-addressed: the bytes behind an id never change.
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-disposition', attachmentDisposition(found.info.name, `${id.slice(0, 12)}.recording`));
    if (request.headers['if-none-match'] === etag) {
      found.stream.destroy();
      return reply.code(304).send();
    }
    return reply.type('application/octet-stream').header('content-length', found.info.size).send(found.stream);
  });

  // The app's page, marked so the app knows it may offer Share without probing the API.
  const page = async (reply: FastifyReply) => {
    const html = await readFile(join(distDir, 'index.html'), 'utf8');
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(withStoreMeta(html));
  };
  app.get('/', async (_request, reply) => page(reply));
  app.get('/index.html', async (_request, reply) => page(reply));

  app.get<{ Params: { id: string } }>('/p/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isValidId(id)) return fail(reply, 404, idError);
    if (!(await store.info(id))) return fail(reply, 404, 'no recording with this id');
    return page(reply);
  });

  // Uploads live in their own scope so that no built-in parser (JSON, text) ever sees the body:
  // whatever the Content-Type says, the raw stream goes to the store and the content decides.
  app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post('/api/profiles', { bodyLimit: maxUpload }, async (request, reply) => upload(request, reply));
  });

  async function upload(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    const tooLarge = () =>
      fail(reply.header('connection', 'close'), 413, `the recording is over the upload limit of ${maxUpload} bytes`);
    const length = Number(request.headers['content-length']);
    if (Number.isFinite(length) && length > maxUpload) {
      // Refused before a byte is read; the connection closes so the client stops sending.
      return tooLarge();
    }
    const body = request.body instanceof Readable ? request.body : Readable.from([]);
    const result = await store.put(body, {
      name: cleanFileName(request.headers['x-filename']),
      maxBytes: maxUpload,
      accept: async (path) => {
        const sniffed = await sniffFile(path, importers);
        return sniffed.ok ? null : sniffed.reason;
      },
    });
    if (result.kind === 'too-large') return tooLarge();
    if (result.kind === 'interrupted') return fail(reply.header('connection', 'close'), 400, 'the upload was interrupted');
    if (result.kind === 'no-space') return fail(reply, 507, 'the server is out of disk space');
    if (result.kind === 'rejected') return fail(reply, 415, `not a recording flameview reads: ${result.reason}`);
    const { id } = result.info;
    return reply.code(result.created ? 201 : 200).send({ id, url: `/p/${id}` });
  }
}

/** index.html with `<meta name="flameview-store">` (src/share/share.ts reads it) in its head. */
export function withStoreMeta(html: string): string {
  const meta = '<meta name="flameview-store" content="/api/profiles">';
  const head = /<head[^>]*>/i.exec(html) ?? /<!doctype[^>]*>/i.exec(html);
  return head ? html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length) : meta + html;
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

/** Malformed HTTP never reaches fastify's hooks; answer it with the same headers. */
function rawClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const status = error.code === 'HPE_HEADER_OVERFLOW' ? 431 : 400;
  const body = JSON.stringify({ error: status === 431 ? 'request header fields too large' : 'bad request' });
  const headers = Object.entries(SECURITY_HEADERS)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  socket.end(
    `HTTP/1.1 ${status} ${status === 431 ? 'Request Header Fields Too Large' : 'Bad Request'}\r\n` +
      `content-type: application/json; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\n` +
      `connection: close\r\n${headers}\r\n${body}`,
  );
}

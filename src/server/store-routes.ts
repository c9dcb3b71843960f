// The team server's routes over a RecordingStore (`flameview serve`):
//
//   GET    /, /index.html       the app, marked <meta name="flameview-store"> with what this
//                               server offers (data-upload-token, data-list), so the page knows
//                               without a probe request
//   POST   /api/profiles        upload (Bearer upload token when one is set; rate-limited per
//                               client) → 201 {id, url, deleteToken} / 200 {id, url}
//   GET    /api/profiles        the list, newest first: only with --list (and the upload token;
//                               then rate-limited per client like writes)
//   GET    /api/profiles/<id>   the bytes as uploaded, as an attachment; Range, ETag
//   DELETE /api/profiles/<id>   Bearer <delete token> → 204 (rate-limited per client)
//   GET    /p/<id>              the marked app, which reads the id from the path
//
// Invariants: reading a recording needs only its id (a link is the way to a recording); a delete
// token is given only to the upload that stored the recording; request bodies are streamed.

import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { Importer } from '../core/import/importer';
import { Pruner, newestFirst, type Retention } from './retention';
import { attachmentDisposition, cleanFileName, isValidId } from './security';
import { bodyRange, replyWithFileBytes } from './send-file';
import { sniffHead } from './sniff';
import type { ByteRange, RecordingInfo, RecordingStore, UploadPace } from './store';
import { bearerToken, deleteToken, sameToken } from './tokens';

export interface StoreRouteOptions {
  store: RecordingStore;
  /** Directory of the built app (its index.html is served marked). */
  distDir: string;
  maxUpload: number;
  importers: readonly Importer[];
  /** Uploads (and the list) need `Authorization: Bearer <uploadToken>`. */
  uploadToken?: string;
  /** Serve GET /api/profiles. */
  list?: boolean;
  /** Origins allowed to embed the viewer, named in the page for its message listener. */
  allowEmbed?: readonly string[];
  /** Writes (uploads, deletes) per client address and minute; 0 turns the limit off. */
  writesPerMinute?: number;
  retention?: Retention;
  /** How slowly an upload may arrive before it is answered 408 (a trickled body). */
  uploadPace?: UploadPace;
}

export const DEFAULT_WRITES_PER_MINUTE = 100;
/** The list shows at most this many recordings, the newest. */
export const LIST_LIMIT = 1000;

const ID_ERROR = 'invalid recording id: expected 64 lowercase hex digits (sha256)';

function fail(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send({ error: message });
}

export async function registerStore(app: FastifyInstance, options: StoreRouteOptions): Promise<void> {
  const { store, maxUpload, importers, uploadToken } = options;
  const secret = await store.secret();
  const pruner = new Pruner(store, options.retention ?? {});
  await pruner.run();
  pruner.startHourly();
  app.addHook('onClose', async () => pruner.stop());

  const perMinute = options.writesPerMinute ?? DEFAULT_WRITES_PER_MINUTE;
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `too many uploads or deletes from this address: at most ${context.max} a minute; retry in ${context.after}`,
    }),
  });
  const limited = perMinute > 0 ? { config: { rateLimit: { max: perMinute, timeWindow: 60_000 } } } : {};

  /** Answers 401 and returns false unless the request carries the upload token (when one is set). */
  const authorized = (request: FastifyRequest, reply: FastifyReply): boolean => {
    if (uploadToken === undefined || sameToken(bearerToken(request.headers.authorization), uploadToken)) return true;
    const given = request.headers.authorization !== undefined;
    reply.header('www-authenticate', `Bearer realm="flameview"${given ? ', error="invalid_token"' : ''}`).header('connection', 'close');
    fail(reply, 401, given ? 'the upload token is not right' : 'this server needs its upload token: Authorization: Bearer <token>');
    return false;
  };

  // The app's page, marked so the app knows it may offer Share (and asks for the token, and shows
  // the list) without probing the API.
  const offer = { uploadToken: uploadToken !== undefined, list: options.list === true, embed: options.allowEmbed ?? [] };
  const page = async (reply: FastifyReply) => {
    const html = await readFile(join(options.distDir, 'index.html'), 'utf8');
    return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(withStoreMeta(html, offer));
  };
  app.get('/', async (_request, reply) => page(reply));
  app.get('/index.html', async (_request, reply) => page(reply));

  // With an upload token the list is a place to guess it, so bad guesses count as writes do.
  app.get('/api/profiles', uploadToken === undefined ? {} : limited, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    if (!options.list) return fail(reply, 404, 'this server does not list its recordings (start it with --list)');
    if (!authorized(request, reply)) return reply;
    const newest = (await store.entries()).sort(newestFirst).slice(0, LIST_LIMIT);
    const infos = await mapLimited(newest, 8, (entry) => store.info(entry.id));
    const listed = infos.filter((info): info is RecordingInfo => info !== null);
    return reply.send(listed.sort(newestFirst));
  });

  app.get<{ Params: { id: string } }>('/api/profiles/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isValidId(id)) return fail(reply, 400, ID_ERROR);
    const info = await store.info(id);
    if (!info) return fail(reply, 404, 'no recording with this id');
    const etag = `"${id}"`;
    reply
      .header('etag', etag)
      .header('accept-ranges', 'bytes')
      // Content-addressed: the bytes behind an id never change (a deleted one is gone, not changed).
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('content-disposition', attachmentDisposition(info.name, `${id.slice(0, 12)}.recording`));
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    const ifRange = request.headers['if-range'];
    const range = ifRange === undefined || ifRange === etag ? parseRange(request.headers.range, info.size) : null;
    if (range === 'unsatisfiable') return fail(reply.header('content-range', `bytes */${info.size}`), 416, 'the range is outside the recording');
    // HEAD needs no bytes (and on S3 would otherwise open a GET just to throw it away).
    if (request.method === 'HEAD') return reply.type('application/octet-stream').header('content-length', info.size).send(Readable.from([]));
    // A file on disk goes through reused buffers (./send-file.ts); an object store's stream as it comes.
    const file = await store.openFile?.(id);
    const stream = file === undefined ? await store.open(id, range ?? undefined) : null;
    if (!file && !stream) return fail(reply, 404, 'no recording with this id');
    const { start, end } = bodyRange(reply.type('application/octet-stream'), range, info.size);
    return file ? replyWithFileBytes(reply, file, start, end) : reply.send(stream);
  });

  app.delete<{ Params: { id: string } }>('/api/profiles/:id', limited, async (request, reply) => {
    const { id } = request.params;
    if (!isValidId(id)) return fail(reply, 400, ID_ERROR);
    const token = bearerToken(request.headers.authorization);
    if (token === null) {
      reply.header('www-authenticate', 'Bearer realm="flameview delete"');
      return fail(reply, 401, 'deleting needs the delete token the upload answered: Authorization: Bearer <deleteToken>');
    }
    if (!sameToken(token, deleteToken(secret, id))) return fail(reply, 403, 'this is not the delete token of this recording');
    if (!(await store.delete(id))) return fail(reply, 404, 'no recording with this id');
    return reply.code(204).send();
  });

  app.get<{ Params: { id: string } }>('/p/:id', async (request, reply) => {
    const { id } = request.params;
    if (!isValidId(id)) return fail(reply, 404, ID_ERROR);
    if (!(await store.info(id))) return fail(reply, 404, 'no recording with this id');
    return page(reply);
  });

  // Uploads live in their own scope so that no built-in parser (JSON, text) ever sees the body:
  // whatever the Content-Type says, the raw stream goes to the store and the content decides.
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.post('/api/profiles', { bodyLimit: maxUpload, ...limited }, async (request, reply) => upload(request, reply));
  });

  async function upload(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
    if (!authorized(request, reply)) return reply;
    // The body's pace is the store's to watch (UploadPace); once it is in, committing it (an S3
    // copy of gigabytes takes minutes) is the server's time, not an idle client's, so the
    // connection's idle limit waits until the answer is out.
    const socket = request.raw.socket;
    // (app.inject()'s stand-in socket has no timer to lift.)
    if (typeof socket.setTimeout === 'function') {
      const idle = socket.timeout ?? 0;
      socket.setTimeout(0);
      reply.raw.once('finish', () => {
        if (!socket.destroyed) socket.setTimeout(idle);
      });
    }
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
      pace: options.uploadPace,
      accept: async (head, complete) => {
        const sniffed = await sniffHead(head, complete, importers);
        return sniffed.ok ? null : sniffed.reason;
      },
    });
    if (result.kind === 'too-large') return tooLarge();
    if (result.kind === 'interrupted') return fail(reply.header('connection', 'close'), 400, 'the upload was interrupted');
    if (result.kind === 'no-space') return fail(reply.header('connection', 'close'), 507, 'the server is out of disk space');
    if (result.kind === 'too-slow') {
      return fail(reply.header('connection', 'close'), 408, `the upload arrived too slowly: under ${result.minBytesPerSecond} bytes a second`);
    }
    if (result.kind === 'rejected') return fail(reply.header('connection', 'close'), 415, `not a recording flameview reads: ${result.reason}`);
    const { id } = result.info;
    if (!result.created) return reply.code(200).send({ id, url: `/p/${id}` });
    pruner.soon();
    return reply.code(201).send({ id, url: `/p/${id}`, deleteToken: deleteToken(secret, id) });
  }
}

/**
 * index.html with `<meta name="flameview-store">` (src/controllers/team-server.ts reads it) in its
 * head; `data-upload-token` and `data-list` say what the server asks and offers, `data-embed` which
 * origins may embed the viewer (src/controllers/embed.ts).
 */
export function withStoreMeta(html: string, offer: { uploadToken: boolean; list: boolean; embed?: readonly string[] } = { uploadToken: false, list: false }): string {
  // The origins are checked ones (security.ts embedOrigin): no quote or space can be in them.
  const embed = offer.embed && offer.embed.length > 0 ? ` data-embed="${offer.embed.join(' ')}"` : '';
  const flags = `${offer.uploadToken ? ' data-upload-token' : ''}${offer.list ? ' data-list' : ''}${embed}`;
  const meta = `<meta name="flameview-store" content="/api/profiles"${flags}>`;
  const head = /<head[^>]*>/i.exec(html) ?? /<!doctype[^>]*>/i.exec(html);
  return head ? html.slice(0, head.index + head[0].length) + meta + html.slice(head.index + head[0].length) : meta + html;
}

/**
 * One byte range of `bytes=a-b`, `bytes=a-` or `bytes=-n` within `size` bytes; null for no
 * header, several ranges or a malformed one (the whole recording is sent, as RFC 9110 allows).
 */
export function parseRange(header: unknown, size: number): ByteRange | 'unsatisfiable' | null {
  if (typeof header !== 'string') return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (m[2] !== '' && Number(m[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  return { start, end };
}

async function mapLimited<T, R>(items: readonly T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await task(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

// `GET /api/source/<secret>?path=<recorded path>`: a source file the recording names, for the
// page `flameview FILE` opened (the Source panel's listing). Read-only; every question about the
// path is FileGuard's (./source-guard.ts). Registered only in open mode: the team server never
// serves source files.
//
// Invariants: no CORS header (the page reads it from its own origin; another site cannot); a
// request a browser marks as made by another site is refused before the secret is compared; the
// body is the file's bytes as text/plain with nosniff (SECURITY_HEADERS), never rendered as HTML;
// a refusal is JSON {error} with the reason the page shows.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { readFile } from 'node:fs/promises';
import type { FileGuard } from './source-guard';

export const SOURCE_ROUTE = '/api/source';

export function registerSource(app: FastifyInstance, guard: FileGuard): void {
  app.get(`${SOURCE_ROUTE}/:secret`, async (request: FastifyRequest<{ Params: { secret: string }; Querystring: { path?: unknown } }>, reply: FastifyReply) => {
    if (fromAnotherSite(request)) return refuse(reply, 403, 'source files are served only to the page flameview opened');
    const verdict = await guard.check(request.params.secret, request.query.path);
    if (!verdict.ok) return refuse(reply, verdict.status, verdict.reason);
    let body: Buffer;
    try {
      body = await readFile(verdict.path);
    } catch {
      return refuse(reply, 404, 'the file could not be read');
    }
    return reply.type('text/plain; charset=utf-8').header('cache-control', 'no-store').send(body);
  });
}

/** A request a browser marks as made by another site (checked before any secret is compared). */
export function fromAnotherSite(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === 'cross-site' || site === 'same-site';
}

/** A refusal: JSON {error} with the reason the page shows, never cached. */
export function refuse(reply: FastifyReply, status: number, error: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').header('cache-control', 'no-store').send({ error });
}

/** The URL path the page is given (in `#source=`): the route and this run's secret. */
export function sourceBase(guard: FileGuard): string {
  return `${SOURCE_ROUTE}/${guard.secret}`;
}

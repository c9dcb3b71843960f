// `GET /api/asm/<secret>?function=<name>`: the disassembly of one sampled function of the
// recording `flameview FILE` opened, for the page's Assembly panel: the same listing as `flameview
// annotate` (src/node/disasm.ts does both), as JSON. Registered only in open mode.
//
// Invariants: the binary is found only through a FileGuard (./source-guard.ts) whose names are the
// files the recording's frames name as their DSO (or where perf looks for them under --symfs) and
// whose secret is the run's: no other file is read and no path comes from the request; the
// request names a function, exactly as the function view shows it. No CORS header; a request a
// browser marks as made by another site is refused first. A function without a usable binary
// still answers 200 with its sampled offsets and the `problems` saying why.

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Profile } from '../core/model/profile';
import { functionOffsets } from '../core/query/leaf-addresses';
import { framesMatching } from '../core/query/source-lines';
import { isFileDso } from '../core/query/disassembly';
import { binaryCandidates, disassemble } from '../node/disasm';
import { FileGuard } from './source-guard';
import { fromAnotherSite, refuse } from './source-routes';

export const ASM_ROUTE = '/api/asm';

/** Binaries are read by objdump and nm, never sent: the guard's size cap is only a sanity bound. */
const MAX_BINARY_BYTES = 4 * 1024 * 1024 * 1024;

/** A function name longer than this is no name the recording holds (perf truncates at 1 KiB… and C++ names rarely pass 4). */
const MAX_NAME = 16 * 1024;

export interface AsmSource {
  /** The recording (its frames and leafAddresses). */
  profile: Profile;
  guard: FileGuard;
  symfs?: string;
  /** The recording's build ids by DSO (perf buildid-list), when it came from perf.data. */
  buildIds?: Map<string, string>;
  objdump?: string;
}

/** The files the recording's frames name as their DSO, as perf would look for them (under `symfs`). */
export function recordedBinaries(profile: Profile, symfs: string | undefined): Set<string> {
  const { frames } = profile;
  const out = new Set<string>();
  const seen = new Set<number>();
  for (let f = 0; f < frames.count; f++) {
    const m = frames.module[f];
    if (m < 0 || seen.has(m)) continue;
    seen.add(m);
    const dso = frames.strings[m];
    if (isFileDso(dso)) for (const c of binaryCandidates(dso, symfs)) out.add(c);
  }
  return out;
}

/**
 * The source of disassemblies for `profile`, or null when it has no sampled addresses (nothing to
 * annotate). `secret` is the run's (the source route's), so the page holds one.
 */
export async function asmSource(profile: Profile, options: { secret: string; symfs?: string; buildIds?: Map<string, string>; objdump?: string }): Promise<AsmSource | null> {
  if (!profile.leafAddresses) return null;
  const guard = await FileGuard.create({
    roots: [options.symfs ?? '/'],
    names: recordedBinaries(profile, options.symfs),
    secret: options.secret,
    maxBytes: MAX_BINARY_BYTES,
    words: { roots: 'binary roots', option: '--symfs' },
  });
  return { profile, guard, symfs: options.symfs, buildIds: options.buildIds, objdump: options.objdump };
}

/** Why the page gets no disassemblies when the recording has no sampled instructions. */
export const NO_ADDRESSES = 'this recording has no sampled instructions (perf script with symbol offsets, perf.data, or pprof with location addresses has them)';

/**
 * `pending`: the source, or its promise while `flameview FILE` still parses (the link is out before
 * the parse ends); a string when there is none, saying why (the page shows it).
 */
export function registerAsm(app: FastifyInstance, pending: AsmSource | Promise<AsmSource | string>): void {
  app.get(`${ASM_ROUTE}/:secret`, async (request: FastifyRequest<{ Params: { secret: string }; Querystring: { function?: unknown } }>, reply: FastifyReply) => {
    if (fromAnotherSite(request)) return refuse(reply, 403, 'disassemblies are served only to the page flameview opened');
    const source = await pending;
    if (typeof source === 'string') return refuse(reply, 404, source);
    const { profile, guard } = source;
    const { secret } = request.params;
    if (!guard.secretMatches(secret)) return refuse(reply, 403, "this address lacks the run's secret: open the page from the link flameview printed");
    const name = request.query.function;
    if (typeof name !== 'string' || name === '' || name.length > MAX_NAME) return refuse(reply, 400, 'no function asked for');
    const blocks = functionOffsets(profile, framesMatching(profile, 'functions', (n) => n === name));
    if (!blocks || blocks.length === 0) return refuse(reply, 404, `${JSON.stringify(name.slice(0, 200))} has no sampled instructions in this recording`);
    // Every file is reached through the guard: only the recording's DSOs, under the roots.
    const locate = async (dso: string): Promise<string | null> => {
      for (const candidate of binaryCandidates(dso, source.symfs)) {
        const verdict = await guard.check(secret, candidate);
        if (verdict.ok) return verdict.path;
      }
      return null;
    };
    const listing = await disassemble(blocks[0], { symfs: source.symfs, buildIds: source.buildIds, objdump: source.objdump, locate });
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-store').send(listing);
  });
}

/** The URL path the page is given (in `#asm=`): the route and this run's secret (or the source holding it). */
export function asmBase(source: AsmSource | string): string {
  return `${ASM_ROUTE}/${typeof source === 'string' ? source : source.guard.secret}`;
}

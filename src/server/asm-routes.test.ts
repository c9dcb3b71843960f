// The disassembly route of `flameview FILE` on the recordings of fixtures/asm/ (record.sh): the
// listing served as JSON with perf annotate's shares, the build id check, a recording whose binary
// is gone (offsets only, with the reason), and the refusals: no secret, another site, a function
// the recording did not sample, a binary outside the guard's roots.

import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../core/import/load';
import type { Profile } from '../core/model/profile';
import { parseBuildIds, type Disassembly } from '../node/disasm';
import { buildApp } from './app';
import { NO_ADDRESSES, asmBase, asmSource, recordedBinaries, type AsmSource } from './asm-routes';
import { fixtureDist, tempDir } from './test-support';

const asm = fileURLToPath(new URL('../../fixtures/asm/', import.meta.url));
const secret = 'b'.repeat(32);
let profile: Profile;
let scratch: string;
const apps: FastifyInstance[] = [];
beforeAll(async () => {
  profile = await loadProfileFromText(gunzipSync(readFileSync(join(asm, 'loops.perf-script.txt.gz'))));
  scratch = tempDir();
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function serve(symfs: string, withBuildIds = true) {
  const buildIds = withBuildIds ? parseBuildIds(readFileSync(join(asm, 'loops.buildids.txt'), 'utf8')) : undefined;
  const source = (await asmSource(profile, { secret, symfs, buildIds }))!;
  const app = await buildApp({ distDir: fixtureDist(), localFiles: new Map(), asm: source });
  apps.push(app);
  const get = (fn: string, headers: Record<string, string> = {}, base = asmBase(source)) => app.inject({ method: 'GET', url: `${base}?function=${encodeURIComponent(fn)}`, headers });
  return { get, base: asmBase(source) };
}

describe('GET /api/asm/<secret>?function=', () => {
  it('while flameview FILE parses, the route waits for the source; a recording without sampled instructions is a 404 that says so', async () => {
    let settle!: (source: AsmSource | string) => void;
    const app = await buildApp({ distDir: fixtureDist(), localFiles: new Map(), asm: new Promise((resolve) => (settle = resolve)) });
    apps.push(app);
    const asked = app.inject({ method: 'GET', url: `${asmBase(secret)}?function=chase` });
    settle((await asmSource(profile, { secret, symfs: asm }))!);
    expect((await asked).statusCode).toBe(200);
    const none = await buildApp({ distDir: fixtureDist(), localFiles: new Map(), asm: Promise.resolve(NO_ADDRESSES) });
    apps.push(none);
    const r = await none.inject({ method: 'GET', url: `${asmBase(secret)}?function=chase` });
    expect(r.statusCode).toBe(404);
    expect((r.json() as { error: string }).error).toMatch(/no sampled instructions/);
  });

  it("answers the function's instructions with perf annotate's shares and the build id check", async () => {
    const { get, base } = await serve(asm);
    expect(base).toBe(`/api/asm/${secret}`);
    const r = await get('chase');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^application\/json/);
    expect(r.headers['access-control-allow-origin']).toBeUndefined();
    const d = r.json() as Disassembly;
    expect(d.problems).toEqual([]);
    expect(d.buildId?.matches).toBe(true);
    const perf = new Map([...readFileSync(join(asm, 'loops.annotate.1.txt'), 'utf8').matchAll(/^\s*(\d+\.\d+) :\s+([0-9a-f]+):/gm)].map((m) => [m[2], Number(m[1])]));
    const insns = d.listing.filter((row) => row.kind === 'insn');
    expect(insns.map((row) => row.address)).toEqual([...perf.keys()]);
    for (const row of insns) expect(Math.abs(row.share - perf.get(row.address)!)).toBeLessThanOrEqual(0.5);
  });

  it('a rebuilt binary (another build id) is reported; a binary that is gone gives the offsets and what to pass', async () => {
    const rebuilt = join(scratch, 'rebuilt');
    mkdirSync(rebuilt, { recursive: true });
    // Another program under the recorded name: its build id differs from the recording's.
    copyFileSync(join(asm, 'loops-cpp'), join(rebuilt, 'loops'));
    const d = (await (await serve(rebuilt)).get('chase')).json() as Disassembly;
    expect(d.buildId?.matches).toBe(false);
    expect(d.problems.join('\n')).toMatch(/is not the binary that was recorded: its build id is [0-9a-f]+, the recording's 00939201467613db73e2ec97833b04b07b340883/);
    const empty = join(scratch, 'empty');
    mkdirSync(empty, { recursive: true });
    const gone = (await (await serve(empty)).get('chase')).json() as Disassembly;
    expect(gone.listing).toEqual([]);
    expect(gone.problems[0]).toMatch(/is not under --symfs .*empty .*only the sampled offsets are shown/);
    expect(gone.offsets.length).toBeGreaterThan(0);
    expect(gone.offsets.reduce((s, o) => s + o.share, 0)).toBeCloseTo(100, 6);
  });

  it("a pprof profile's addresses: the binary found by its mapping's file under --symfs, placed through the mapping, its build id checked", async () => {
    const goDir = fileURLToPath(new URL('../../fixtures/asm-pprof/', import.meta.url));
    const symfs = join(scratch, 'go');
    mkdirSync(symfs, { recursive: true });
    writeFileSync(join(symfs, 'loops-go'), gunzipSync(readFileSync(join(goDir, 'loops-go.gz'))));
    const go = await loadProfileFromText(readFileSync(join(goDir, 'loops-go.pb.gz')));
    const source = (await asmSource(go, { secret, symfs }))!;
    const app = await buildApp({ distDir: fixtureDist(), localFiles: new Map(), asm: source });
    apps.push(app);
    const r = await app.inject({ method: 'GET', url: `${asmBase(source)}?function=main.divide` });
    expect(r.statusCode).toBe(200);
    const d = r.json() as Disassembly;
    expect(d.problems).toEqual([]);
    expect(d.buildId?.matches).toBe(true);
    expect(d.absolute).toBe(true);
    // pprof -disasm puts 360 of main.divide's 490 ms on its idiv (fixtures/asm-pprof/loops-go.disasm.divide.txt).
    expect(d.listing.find((row) => row.kind === 'insn' && row.address === '4a8968')).toMatchObject({ text: expect.stringMatching(/^idiv/), share: expect.closeTo((100 * 360) / 490, 6) });
  });

  it('refuses a request without the secret, from another site, or for a function not sampled', async () => {
    const { get } = await serve(asm);
    const wrong = await get('chase', {}, `/api/asm/${'c'.repeat(32)}`);
    expect(wrong.statusCode).toBe(403);
    expect(wrong.json().error).toMatch(/lacks the run's secret/);
    expect((await get('chase', { 'sec-fetch-site': 'cross-site' })).statusCode).toBe(403);
    const none = await get('<img src=x onerror=alert(1)>');
    expect(none.statusCode).toBe(404);
    expect(none.json().error).toMatch(/has no sampled instructions/);
    expect((await get('')).statusCode).toBe(400);
  });

  it("the guard's names are the recording's DSOs as perf looks for them; kernel, vdso and unknown are not files", () => {
    const names = [...recordedBinaries(profile, '/sym')];
    expect(names).toContain('/sym/work/wt/h-asm/fixtures/asm/loops');
    expect(names).toContain('/sym/loops');
    expect(names.some((n) => n.includes('[') || n.includes('kallsyms'))).toBe(false);
  });
});

// The server's refusals agree with what the core makes of the same bytes. For every file under
// fixtures/ (recordings and everything else there: sources, licences, READMEs), gzipped too, and
// for perf.data and bad input, the server's two questions (sniffFile for `flameview FILE`,
// sniffHead on an upload's first HEAD_LIMIT bytes) are checked against what the browser's worker
// does with the file: ProfileSession.openBlob, which loads it whole. Accepted by the server ⇔
// opened by the session, with the same format; refused ⇔ the session's error ends with the
// server's reason (or, for input without a sample line, the session opens an empty recording).

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ProfileSession, type OpenResult } from '../core/session/profile-session';
import { sniffFile, sniffHead, type Sniffed } from './sniff';
import { PERF_DATA_FOUND } from '../core/import/sniff';
import { toProcessed } from '../core/export/processed';
import { FORMAT_VERSION, PROCESSED_MAGIC } from '../core/import/processed';
import { loadProfileFromText } from '../core/import/load';
import { HEAD_LIMIT } from './store';
import { FIXTURES, tempDir } from './test-support';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name))
    .sort();
}

const scratch = tempDir('flameview-sniff-');

/** The server's answer about `bytes`, asked both ways; both must be the same. */
async function serverSniff(bytes: Uint8Array, label: string): Promise<Sniffed> {
  const path = join(scratch, 'input');
  writeFileSync(path, bytes);
  const file = await sniffFile(path);
  const buffer = Buffer.from(bytes);
  const upload = await sniffHead(buffer.subarray(0, HEAD_LIMIT), buffer.length <= HEAD_LIMIT);
  expect(upload, `${label}: upload head vs file`).toEqual(file);
  return file;
}

/** What the worker's session makes of `bytes` (named so no perf.data hint applies). */
function coreOpen(bytes: Uint8Array): Promise<OpenResult> {
  return new ProfileSession().openBlob(new Blob([bytes as BlobPart]), { name: 'input' });
}

function expectAgreement(label: string, server: Sniffed, core: OpenResult, gzip: boolean): void {
  if (server.ok) {
    expect(core.ok, `${label}: the server accepts it, the core ${core.ok ? 'too' : `says ${!core.ok && core.error.message}`}`).toBe(true);
    expect(server.gzip, label).toBe(gzip);
    if (core.ok) expect(server.format, label).toBe(core.snapshot.meta.format);
    return;
  }
  if (core.ok) {
    // Whitespace (or nothing but comments the loader skips): an empty recording in the viewer,
    // refused as an upload.
    expect(server.reason, label).toBe('no samples (the input is empty)');
    expect(core.snapshot.inline.totalWeight[0] ?? 0, label).toBe(0);
    return;
  }
  expect(core.error.kind, label).toBe(server.perfData ? 'perf-data' : 'import');
  if (!server.perfData) expect(core.error.message.endsWith(server.reason), `${label}: ${core.error.message} / ${server.reason}`).toBe(true);
}

describe('the server and the core agree', () => {
  const files = filesUnder(FIXTURES);

  it('finds the fixtures', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(files.map((f) => [relative(FIXTURES, f), f]))('on %s, plain and gzipped', async (name, path) => {
    const plain = readFileSync(path);
    const server = await serverSniff(plain, name);
    expectAgreement(name, server, await coreOpen(plain), /\.gz$/.test(name));
    if (/\.gz$/.test(name)) return;
    const zipped = gzipSync(plain);
    const serverGz = await serverSniff(zipped, `${name}.gz`);
    // Gzip changes nothing but the flag (an empty file's gzip stream is not empty: no samples).
    const empty = { ok: false, reason: 'no samples (the input is empty)' };
    // perf.data under gzip is named as such (a reason of the core's, not the raw perf.data flag).
    if (server.ok || !server.perfData) expect(serverGz, name).toEqual(server.ok ? { ...server, gzip: true } : plain.length === 0 ? empty : server);
    else expect(!serverGz.ok && serverGz.reason.endsWith(`found ${PERF_DATA_FOUND}`), name).toBe(true);
    expectAgreement(`${name}.gz`, serverGz, await coreOpen(zipped), true);
  });

  it('recognises the fixtures by their kind', async () => {
    const formats = new Map<string, string>();
    for (const path of files) {
      const r = await sniffFile(path);
      formats.set(relative(FIXTURES, path), r.ok ? r.format : 'refused');
    }
    expect(formats.get('sqlite.perf-script.txt')).toBe('perf-script');
    expect(formats.get('sqlite.folded')).toBe('folded');
    expect(formats.get('sqlite.svg')).toBe('svg');
    expect(formats.get('interchange/node.cpuprofile')).toBe('cpuprofile');
    expect(formats.get('cpp/maps.cpp')).toBe('refused');
    expect(formats.get('README.md')).toBe('refused');
  });

  const padding = Buffer.alloc(200, 7);
  const cases: [string, Uint8Array][] = [
    ['perf.data (PERFILE2)', Buffer.concat([Buffer.from('PERFILE2'), padding])],
    ['perf.data version 1 (PERFFILE)', Buffer.concat([Buffer.from('PERFFILE'), padding])],
    ['gzipped perf.data', gzipSync(Buffer.concat([Buffer.from('PERFILE2'), padding]))],
    ['an empty file', new Uint8Array(0)],
    ['whitespace', Buffer.from('\n  \n\t\n')],
    ['a gzipped empty file', gzipSync(Buffer.alloc(0))],
    ['binary', Buffer.from([0, 1, 2, 3, 255, 254, 0, 10, 0])],
    ['invalid UTF-8', Buffer.from([0xc3, 0x28, 0xa0, 0xa1, 10])],
    ['JSON that is no profile', Buffer.from('{"hello": 1}\n')],
    ['HTML', Buffer.from('<script>alert(1)</script>\n')],
    ['an SVG picture', Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg"><circle r="4"/></svg>\n')],
    ['a corrupt gzip stream', Buffer.from([0x1f, 0x8b, 1, 2, 3, 4, 5, 6, 7, 8, 9])],
    ['a truncated gzip stream', gzipSync(Buffer.from('main;a 1\n'.repeat(1000))).subarray(0, 40)],
    ['one folded line without a line end', Buffer.from('main;work 3')],
    ['a long first line', Buffer.from(`${'x'.repeat(300_000)};leaf 1\n`)],
  ];
  it.each(cases)('on %s', async (label, bytes) => {
    const server = await serverSniff(bytes, label);
    expectAgreement(label, server, await coreOpen(bytes), bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b);
  });

  it('on a processed recording (.flameview), and on one of a version from the future', async () => {
    const processed = toProcessed(await loadProfileFromText(readFileSync(join(FIXTURES, 'sqlite.perf-script.txt'))));
    const zipped = gzipSync(processed);
    const server = await serverSniff(zipped, 'processed');
    expect(server).toEqual({ ok: true, format: 'flameview', gzip: true });
    // The core opens it as the recording it was made from: its meta keeps the original's format.
    const opened = await coreOpen(zipped);
    expect(opened.ok && opened.snapshot.meta.format).toBe('perf-script');
    const newer = processed.slice();
    new DataView(newer.buffer).setUint32(PROCESSED_MAGIC.length, FORMAT_VERSION + 1, true);
    const refused = await serverSniff(gzipSync(newer), 'newer processed');
    expect(refused.ok).toBe(false);
    expectAgreement('newer processed', refused, await coreOpen(gzipSync(newer)), true);
  });

  it('refuses perf.data of either version with the same reason', async () => {
    for (const magic of ['PERFILE2', 'PERFFILE']) {
      const r = await serverSniff(Buffer.concat([Buffer.from(magic), padding]), magic);
      expect(r).toEqual({ ok: false, perfData: true, reason: 'binary perf.data (run `perf script` on it first, or open it with `flameview FILE`)' });
    }
  });
});

// The whole-input path of loadProfile: every format chosen by content (never by name), any
// chunking, gzip, the size cap, unclaimed JSON, and the text formats left exactly as they were.

import { readFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../export/folded';
import { ImportError, type FormatId, type Profile } from '../model/profile';
import { loadProfile, loadProfileFromText, type LoadOptions } from './load';
import { bytesImporters } from './registry';
import { HEAD_BYTES, jsonStart, pickBytesImporter } from './whole-input';

const ROOT = fileURLToPath(new URL('../../../fixtures/', import.meta.url));
const DIR = ROOT + 'interchange/';
const INFERNO = ROOT + 'third_party/inferno/tests/data/collapse-perf/';

const FILES: Array<[string, FormatId]> = [
  ['go-cpu.pb.gz', 'pprof'],
  ['node.cpuprofile', 'cpuprofile'],
  ['chrome-trace.json', 'chrome-trace'],
  ['node.speedscope.json', 'speedscope'],
  ['speedscope-evented.json', 'speedscope'],
];

async function* chunked(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

function loadChunked(bytes: Uint8Array, size: number, options: LoadOptions = {}): Promise<Profile> {
  return loadProfile(chunked(bytes, size), options);
}

describe('whole-input formats through loadProfile', () => {
  for (const [name, format] of FILES) {
    it(`${name} is read as ${format} whatever its name, chunking or compression`, async () => {
      const file = readFileSync(DIR + name);
      const bytes = name.endsWith('.gz') ? gunzipSync(file) : file;
      const a = await loadProfileFromText(bytes, { source: 'recording.folded' });
      expect(a.meta.format).toBe(format);
      const expected = collapseLines(a, { fullNames: true });
      expect(expected.length).toBeGreaterThan(2);
      const b = await loadChunked(bytes, 777, { source: 'x.txt' });
      expect(collapseLines(b, { fullNames: true })).toEqual(expected);
      const c = await loadChunked(gzipSync(bytes), 100);
      expect(c.meta.format).toBe(format);
      expect(collapseLines(c, { fullNames: true })).toEqual(expected);
    });
  }

  it('one-byte chunks of a pprof profile, raw or gzipped, give the same tree', async () => {
    const bytes = gunzipSync(readFileSync(DIR + 'go-cpu.pb.gz'));
    const a = await loadProfileFromText(bytes);
    const b = await loadChunked(bytes, 1);
    expect(collapseLines(b)).toEqual(collapseLines(a));
    const c = await loadChunked(readFileSync(DIR + 'go-cpu.pb.gz'), 1);
    expect(collapseLines(c)).toEqual(collapseLines(a));
  });

  it('an input over the cap is an ImportError naming the format, read no further', async () => {
    const profile = JSON.parse(readFileSync(DIR + 'node.cpuprofile', 'utf8'));
    const bytes = new TextEncoder().encode(JSON.stringify({ ...profile, padding: 'x'.repeat(300_000) }));
    let pulled = 0;
    async function* source() {
      for (let at = 0; at < bytes.length; at += 1000) {
        pulled++;
        yield bytes.subarray(at, at + 1000);
      }
    }
    const err = await loadProfile(source(), { maxWholeBytes: 100_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toMatch(/expected a Chrome\/Node CPU profile.*more than 100000 bytes \(too large to load\)/);
    expect(pulled).toBe(101);
  });

  it('JSON that no importer claims names every JSON format', async () => {
    const err = await loadProfileFromText('{"profile": {"what": 1}}', { source: 'p.json' }).catch((e) => e);
    expect(err).toBeInstanceOf(ImportError);
    expect(err.message).toBe(
      'p.json: line 1: expected a pprof profile (profile.proto, usually gzipped) or a speedscope JSON file or a Chrome trace (trace-event JSON with a CPU profile) or a Chrome/Node CPU profile (.cpuprofile JSON), found JSON that is none of them: "{\\"profile\\": {\\"what\\": 1}}"',
    );
    await expect(loadProfileFromText('[]')).rejects.toThrow(/JSON that is none of them/);
  });

  it('the head is decided on at most HEAD_BYTES; JSON markers later than that are not seen', async () => {
    const late = new TextEncoder().encode(`{${' '.repeat(HEAD_BYTES)}"nodes": []}`);
    expect(pickBytesImporter(bytesImporters, late.subarray(0, HEAD_BYTES), false)).toBeNull();
    await expect(loadProfileFromText(late)).rejects.toThrow(/expected perf script text/);
  });
});

describe('the text formats are untouched', () => {
  it('perf script and folded text are still detected, in any chunking', async () => {
    const perf = readFileSync(INFERNO + 'go-stacks.txt');
    const a = await loadProfileFromText(perf);
    expect(a.meta.format).toBe('perf-script');
    const b = await loadChunked(perf, 3);
    expect(collapseLines(b)).toEqual(collapseLines(a));
    const folded = readFileSync(ROOT + 'rust-toyc.folded');
    const c = await loadChunked(folded, 4096);
    expect(c.meta.format).toBe('folded');
    expect(c.meta.samples).toBeGreaterThan(1000);
  });

  it('folded text that starts with "{" or "[" is not mistaken for JSON', async () => {
    const p = await loadProfileFromText('{closure};main 3\n[unknown];x 2\n');
    expect(p.meta.format).toBe('folded');
    expect(jsonStart(new TextEncoder().encode('{{closure}};a 1'))).toBeNull();
    expect(jsonStart(new TextEncoder().encode('[unknown];a 1'))).toBeNull();
    expect(jsonStart(new TextEncoder().encode('[]; 1\na 1\n'))).toBeNull();
    expect(jsonStart(new TextEncoder().encode('{};b 2'))).toBeNull();
    expect(jsonStart(new TextEncoder().encode(' [ ] \n'))).not.toBeNull();
    expect(jsonStart(new TextEncoder().encode('[{"a":1}]'))).not.toBeNull();
    const q = await loadProfileFromText('[]; 1\na 1\n');
    expect(q.meta.format).toBe('folded');
  });

  it('binary that is not a profile still gets the text path\'s "binary data" error; empty input stays empty', async () => {
    const garbage = new Uint8Array(3000);
    for (let i = 0; i < garbage.length; i++) garbage[i] = (i * 2654435761) >>> 24;
    await expect(loadProfileFromText(garbage)).rejects.toThrow(/binary data/);
    const empty = await loadProfileFromText('');
    expect(empty.meta.samples).toBe(0);
  });

  it('no whole-input importer claims any text fixture', () => {
    for (const name of ['rust-toyc.perf-script.txt', 'rust-toyc.folded', 'sqlite.folded', 'rust-toyc.svg']) {
      const head = readFileSync(ROOT + name).subarray(0, HEAD_BYTES);
      for (const importer of bytesImporters) expect(importer.detectBytes(head, false), `${importer.format} on ${name}`).toBe('no');
    }
  });
});

describe('mutated inputs: an ImportError or a profile, never another exception or a hang', () => {
  const cases: Array<[string, Uint8Array]> = [
    ['pprof', gunzipSync(readFileSync(DIR + 'go-cpu.pb.gz'))],
    ['cpuprofile', readFileSync(DIR + 'node.cpuprofile')],
    ['speedscope', readFileSync(DIR + 'speedscope-evented.json')],
  ];
  for (const [name, original] of cases) {
    it(name, async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.tuple(fc.nat(original.length - 1), fc.nat(255)), { minLength: 1, maxLength: 8 }),
          fc.nat(original.length),
          async (edits, cut) => {
            const bytes = original.slice(0, Math.max(cut, 16));
            for (const [at, value] of edits) if (at < bytes.length) bytes[at] = value;
            try {
              const p = await loadProfileFromText(bytes);
              expect(p.tree.nodeCount).toBeGreaterThan(0);
            } catch (e) {
              if (!(e instanceof ImportError)) throw e;
            }
          },
        ),
        { numRuns: 150, seed: 42 },
      );
    });
  }
});

// sniffFile (upload check, `flameview FILE`) accepts the whole-input formats as loadProfile does,
// and refuses JSON that is no profile with a one-line reason.

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importers } from '../core/import/registry';
import { sniffFile } from './sniff';

const DIR = fileURLToPath(new URL('../../fixtures/interchange/', import.meta.url));

describe('sniffFile and the whole-input formats', () => {
  it.each([
    ['go-cpu.pb.gz', 'pprof', true],
    ['node.cpuprofile', 'cpuprofile', false],
    ['chrome-trace.json', 'chrome-trace', false],
    ['node.speedscope.json', 'speedscope', false],
  ])('%s is a %s recording', async (name, format, gzip) => {
    expect(await sniffFile(DIR + name, importers)).toEqual({ ok: true, format, gzip });
  });

  it('JSON that is no profile is refused with the formats expected', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'fv-sniff-')), 'x.json');
    writeFileSync(path, '{"hello": 1}');
    const r = await sniffFile(path, importers);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/^expected a pprof profile .* found JSON that is none of them/);
  });
});

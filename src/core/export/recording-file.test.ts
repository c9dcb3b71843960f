// The whole-recording files as the export worker makes them: what crosses (the wire) and the
// gzipped file read back equal the recording, for both kinds.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../import/load';
import { fixtureBytes } from '../testing/fixtures';
import { makeSnapshot } from '../views/snapshot';
import { collapseLines } from './folded';
import { fromRecordingFileWire, recordingFile, toRecordingFileWire } from './recording-file';

describe('recordingFile', () => {
  it('the processed file made from what crosses to the worker reads back as the recording', async () => {
    const profile = await loadProfileFromText(fixtureBytes('rust-toyc.perf-script.txt'));
    const s = makeSnapshot(profile);
    // Structured clone, as postMessage copies it.
    const wire = structuredClone(toRecordingFileWire({ frames: s.frames, tree: s.inline, samples: s.samples, functionFrames: s.functionFrames, meta: s.meta }));
    const file = await recordingFile('flameview', fromRecordingFileWire(wire));
    expect(gunzipSync(file).subarray(0, 20).toString()).toBe('flameview-processed\n');
    // (The snapshot's string table also holds its group frames' names: compared by what it draws.)
    const back = await loadProfileFromText(file);
    expect(back.meta).toEqual(profile.meta);
    for (const view of ['inline', 'functions'] as const) expect(collapseLines(back, { view })).toEqual(collapseLines(profile, { view }));
    expect(back.samples?.count).toBe(profile.samples?.count);
    expect([...back.samples!.time]).toEqual([...profile.samples!.time]);
  });

  it('pprof: gzipped profile.proto with both views', async () => {
    const profile = await loadProfileFromText(fixtureBytes('rust-toyc.perf-script.txt'));
    const s = makeSnapshot(profile);
    const file = await recordingFile('pprof', { frames: s.frames, tree: s.inline, functionFrames: s.functionFrames, meta: s.meta });
    const back = await loadProfileFromText(file);
    expect(back.meta.format).toBe('pprof');
    for (const view of ['inline', 'functions'] as const) expect(collapseLines(back, { view }).sort()).toEqual(collapseLines(profile, { view }).sort());
  });
});

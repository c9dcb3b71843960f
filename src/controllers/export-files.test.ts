import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../core/export/folded';
import { loadProfileFromText } from '../core/import/load';
import { makeSnapshot } from '../core/views/snapshot';
import { dumpTree, profileFrom } from '../core/testing/tree-dsl';
import { viewTree } from '../core/views/function-view';
import { gunzipSync } from 'node:zlib';
import { fromTransfer, toTransfer } from '../core/views/snapshot';
import { recordingFile } from '../core/export/recording-file';
import { decodeProcessed } from '../core/import/processed';
import { functionOffsets } from '../core/query/leaf-addresses';
import { framesMatching, functionLines } from '../core/query/source-lines';
import type { Profile } from '../core/model/profile';
import { ProfileSession } from '../core/session/profile-session';
import { exportFileName, foldedParts, recordingInput, svgParts } from './export-files';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url)));

describe('Export menu files', () => {
  it.each(['functions', 'inline'] as const)('folded text of the %s view is what collapse --view prints', async (view) => {
    const profile = await loadProfileFromText(fixture('rust-toyc.perf-script.txt'));
    const text = foldedParts(makeSnapshot(profile), view).join('');
    expect(text).toBe(collapseLines(profile, { view }).join('\n') + '\n');
  });

  it('without inline info both views give the plain stacks', () => {
    const profile = profileFrom('a;b 2\na 1');
    const snapshot = makeSnapshot(profile);
    expect(foldedParts(snapshot, 'functions').join('')).toBe('a 1\na;b 2\n');
  });

  it('the SVG reopens as the current view', async () => {
    const profile = await loadProfileFromText(fixture('rust-toyc.perf-script.txt'));
    const svg = svgParts(makeSnapshot(profile), 'functions', 'my <title>').join('');
    expect(svg).toContain('my &lt;title&gt;');
    const back = await loadProfileFromText(svg);
    expect(dumpTree(back.tree, back.frames)).toBe(dumpTree(viewTree(profile, 'functions'), profile.frames));
  });

  /** The snapshot as the page has it (crossed from the profile worker), and what that worker keeps beside it. */
  async function asThePageHasIt(bytes: Uint8Array) {
    const session = new ProfileSession();
    const opened = await session.openBlob(new Blob([bytes as BlobPart]), { name: 'input' });
    if (!opened.ok) throw new Error(opened.error.message);
    const { wire } = toTransfer(opened.snapshot);
    return { snapshot: fromTransfer(structuredClone(wire)), kept: structuredClone(session.keptColumns()) };
  }

  it.each([
    ['asm/loops.perf-script.txt.gz', 'chase'],
    ['asm-pprof/loops-go.pb.gz', 'main.divide'],
  ])('the processed file of %s, as Export and Share write it, keeps the sampled instructions', async (file, fn) => {
    const profile = await loadProfileFromText(fixture(file));
    const { snapshot, kept } = await asThePageHasIt(fixture(file));
    const back = decodeProcessed(gunzipSync(await recordingFile('flameview', recordingInput(snapshot, kept))));
    const offsets = (p: Profile) => functionOffsets(p, framesMatching(p, 'functions', (n) => n === fn));
    expect(offsets(profile)![0].rows.length).toBeGreaterThan(1);
    expect(offsets(back)).toEqual(offsets(profile));
  });

  it('the processed file keeps the source lines and the samples\' line nodes; columns of another recording are left out', async () => {
    const gz = fixture('srcline/hashack.srcline.perf-script.txt.gz');
    const profile = await loadProfileFromText(gunzipSync(gz));
    const { snapshot, kept } = await asThePageHasIt(gz);
    const back = decodeProcessed(gunzipSync(await recordingFile('flameview', recordingInput(snapshot, kept))));
    const lines = (p: Profile) => functionLines(p, 'inline', framesMatching(p, 'inline', (n) => n === 'table_work'));
    expect(lines(profile)!.lines.length).toBeGreaterThan(1);
    expect(lines(back)).toEqual(lines(profile));
    expect(Array.from(back.samples!.line!)).toEqual(Array.from(profile.samples!.line!));
    // A reload delivered another recording since the snapshot: its columns do not fit this one.
    const other = await asThePageHasIt(fixture('rust-toyc.perf-script.txt'));
    expect(recordingInput(snapshot, other.kept).lines).toBeNull();
    expect(recordingInput(other.snapshot, kept).lines).toBeNull();
    expect(recordingInput(snapshot).lines).toBeNull();
  });

  it('file names', () => {
    expect(exportFileName('rust-toyc.perf-script.txt', 'functions', 'svg')).toBe('rust-toyc.perf-script-functions.svg');
    expect(exportFileName('x.folded.gz', 'inline', 'folded')).toBe('x-inline.folded.txt');
    expect(exportFileName('/tmp/a<b>:c.txt', 'inline', 'png')).toBe('a_b_c-inline.png');
    expect(exportFileName(null, 'functions', 'svg')).toBe('profile-functions.svg');
    expect(exportFileName('...', 'functions', 'svg')).toBe('profile-functions.svg');
  });
});

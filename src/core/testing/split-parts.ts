// Test helpers for parallel parsing: a recording split at chosen offsets and parsed part by part
// in this thread, and a bit-for-bit comparison of two profiles.

import { expect } from 'vitest';
import { loadPart, probeSplit, type LoadOptions } from '../import/load';
import type { Profile } from '../model/profile';
import { mergeParts } from '../parallel/merge';
import { boundaryIn } from '../parallel/split';

/** Chunks of at most `chunk` bytes, as a file reader hands them out. */
export async function* chunked(bytes: Uint8Array, chunk = 1 << 16): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
}

/**
 * Parses `bytes` in parts cut at the first boundary at or after each offset, as the split does,
 * and merges them; null when the input cannot be split or merged (the one-parser path applies).
 */
export async function loadSplitAt(bytes: Uint8Array, offsets: readonly number[], options: LoadOptions = {}, chunk?: number): Promise<Profile | null> {
  const probe = probeSplit(bytes, true, options);
  if (!probe) return null;
  const kind = probe.importer.format === 'perf-script' ? 'blank-line' : 'line';
  const cuts = [0];
  for (const offset of [...offsets].sort((a, b) => a - b)) {
    const at = boundaryIn(bytes, Math.max(1, offset), kind);
    if (at > cuts[cuts.length - 1] && at < bytes.length) cuts.push(at);
  }
  cuts.push(bytes.length);
  const parts = await Promise.all(
    cuts.slice(1).map((end, i) =>
      loadPart(chunked(bytes.subarray(cuts[i], end), chunk), probe.importer, { ...options, partContext: i === 0 ? undefined : probe.context }),
    ),
  );
  return mergeParts(parts, probe.importer, options);
}

/** As loadSplitAt, but null also when a part cannot be merged (WholeInputNeeded). */
export async function loadSplitOrNull(...args: Parameters<typeof loadSplitAt>): Promise<Profile | null> {
  try {
    return await loadSplitAt(...args);
  } catch (e) {
    if ((e as Error).name === 'WholeInputNeeded') return null;
    throw e;
  }
}

/** Every column, table and meta field equal, floats compared by their bits. */
export function expectSameProfile(actual: Profile, expected: Profile): void {
  expect(actual.meta).toEqual(expected.meta);
  expect(actual.frames.strings).toEqual(expected.frames.strings);
  expect(actual.frames.count).toBe(expected.frames.count);
  for (const key of ['name', 'module', 'flags'] as const) expect(bits(actual.frames[key]), `frames.${key}`).toEqual(bits(expected.frames[key]));
  expect(bits(actual.functionFrames ?? undefined), 'functionFrames').toEqual(bits(expected.functionFrames ?? undefined));
  expect(actual.tree.nodeCount).toBe(expected.tree.nodeCount);
  expect(actual.tree.maxDepth).toBe(expected.tree.maxDepth);
  for (const key of ['parent', 'frame', 'depth', 'end', 'selfWeight', 'totalWeight', 'selfSamples', 'totalSamples'] as const) {
    expect(bits(actual.tree[key]), `tree.${key}`).toEqual(bits(expected.tree[key]));
  }
  expectSameLines(actual, expected);
  const a = actual.samples ?? null;
  const e = expected.samples ?? null;
  expect(a === null, 'time-order column present').toBe(e === null);
  if (a && e) {
    expect(a.count).toBe(e.count);
    for (const key of ['leaf', 'time', 'weight', 'thread', 'line'] as const) expect(bits(a[key]), `samples.${key}`).toEqual(bits(e[key]));
  }
}

/** The source lines (Profile.lines) equal column by column: locations, located ids, line tree, node map. */
export function expectSameLines(actual: Profile, expected: Profile): void {
  const a = actual.lines ?? null;
  const e = expected.lines ?? null;
  expect(a === null, 'source lines present').toBe(e === null);
  if (!a || !e) return;
  expect(a.locations.count, 'locations.count').toBe(e.locations.count);
  expect(bits(a.locations.file), 'locations.file').toEqual(bits(e.locations.file));
  expect(bits(a.locations.line), 'locations.line').toEqual(bits(e.locations.line));
  expect(bits(a.locatedFrame), 'locatedFrame').toEqual(bits(e.locatedFrame));
  expect(bits(a.locatedLocation), 'locatedLocation').toEqual(bits(e.locatedLocation));
  expect(bits(a.node), 'lines.node').toEqual(bits(e.node));
  expect(a.tree.nodeCount, 'lines.tree.nodeCount').toBe(e.tree.nodeCount);
  expect(a.tree.maxDepth, 'lines.tree.maxDepth').toBe(e.tree.maxDepth);
  for (const key of ['parent', 'frame', 'depth', 'end', 'selfWeight', 'totalWeight', 'selfSamples', 'totalSamples'] as const) {
    expect(bits(a.tree[key]), `lines.tree.${key}`).toEqual(bits(e.tree[key]));
  }
}

function bits(a: ArrayLike<number> | undefined): string {
  if (!a) return 'absent';
  const view = a as unknown as ArrayBufferView;
  return new Uint8Array(view.buffer, view.byteOffset, view.byteLength).join(',');
}

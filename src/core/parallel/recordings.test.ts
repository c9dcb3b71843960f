// mergeRecordings (./recordings.ts) against an oracle that does not use it: the sum of each
// recording's folded stacks (export/folded.ts sumFolded, what folding their concatenated folded
// text gives), over every fixture format at once, in both views, by period and by samples.

import { describe, expect, it } from 'vitest';
import { foldedStacks, sumFolded, type FoldedOptions, type FoldedStacks } from '../export/folded';
import { loadProfileFromText } from '../import/load';
import type { Profile } from '../model/profile';
import { fixtureBytes, RECORDING_FIXTURES } from '../testing/fixtures';
import { mergeRecordings } from './recordings';

const load = (name: string) => loadProfileFromText(fixtureBytes(name));
const OPTIONS: FoldedOptions[] = (['inline', 'functions'] as const).flatMap((view) =>
  (['period', 'samples'] as const).map((weight) => ({ view, weight, fullNames: true, annotateKernel: true, annotateJit: true })),
);
const asRecord = (f: FoldedStacks) => Object.fromEntries(f.stacks.map((s, i) => [s, f.weights[i]]));

describe('several recordings as one', () => {
  it('the merge of N recordings (all fixture formats mixed) equals the sum of their folded stacks', async () => {
    const profiles = await Promise.all(RECORDING_FIXTURES.map(load));
    const merged = mergeRecordings(profiles);
    for (const options of OPTIONS) {
      const expected = sumFolded(profiles.map((p) => foldedStacks(p, options)));
      const got = foldedStacks(merged, options);
      expect(got.stacks, `${options.view}/${options.weight}`).toEqual(expected.stacks);
      expect(asRecord(got)).toEqual(asRecord(expected));
    }
    expect(merged.meta.samples).toBe(profiles.reduce((n, p) => n + p.meta.samples, 0));
    expect(merged.tree.totalWeight[0]).toBe(profiles.reduce((n, p) => n + p.tree.totalWeight[0], 0));
    // Each recording's own format, in order (the status bar labels them when they differ).
    expect(merged.meta.recordingFormats).toEqual(profiles.map((p) => p.meta.format));
    expect(new Set(merged.meta.recordingFormats).size).toBeGreaterThan(3);
  });

  it('the same recording twice doubles every stack; the time chart is dropped with a warning', async () => {
    const one = await load('rust-toyc.perf-script.txt');
    const two = mergeRecordings([one, one]);
    const a = foldedStacks(one);
    const b = foldedStacks(two);
    expect(b.stacks).toEqual(a.stacks);
    expect(Array.from(b.weights)).toEqual(Array.from(a.weights, (w) => 2 * w));
    expect(two.samples).toBeNull();
    expect(two.meta.warnings.map((w) => w.message)).toContain('several recordings: no time-order chart (their clocks are not one clock)');
  });

  it('each recording as a root frame: every stack of recording i starts with its label', async () => {
    const names = ['cpp/funcs.perf-script.txt', 'rust-toyc.folded', 'interchange/go-cpu.pb.gz', 'cpp/funcs.perf-script.txt'];
    const profiles: Profile[] = await Promise.all(names.map(load));
    const labels = ['run-1.txt', 'toyc.folded', 'go.pb.gz', 'run-1.txt'];
    const merged = mergeRecordings(profiles, { rootPerRecording: true, labels });
    for (const options of OPTIONS) {
      const prefixed = profiles.map((p, i) => {
        const f = foldedStacks(p, options);
        return { stacks: f.stacks.map((s) => `${labels[i]};${s}`), weights: f.weights };
      });
      // Prefixing keeps each list sorted except where a label is a prefix of another: re-sort.
      const expected = sumFolded(prefixed.map((f) => sortFolded(f)));
      expect(asRecord(foldedStacks(merged, options))).toEqual(asRecord(expected));
    }
    const rootChildren: string[] = [];
    for (let n = 1; n < merged.tree.nodeCount; n = merged.tree.end[n]) rootChildren.push(merged.frames.strings[merged.frames.name[merged.tree.frame[n]]]);
    expect(rootChildren).toEqual(['go.pb.gz', 'run-1.txt', 'toyc.folded']);
  });
});

function sortFolded(f: FoldedStacks): FoldedStacks {
  const order = f.stacks.map((_, i) => i).sort((x, y) => (f.stacks[x] < f.stacks[y] ? -1 : f.stacks[x] > f.stacks[y] ? 1 : 0));
  return { stacks: order.map((i) => f.stacks[i]), weights: Float64Array.from(order, (i) => f.weights[i]) };
}

// Test helper (used by the Chrome and speedscope importer tests): per function name, the samples
// and weight of the stacks that contain it, each stack counted once however often the name recurs
// in it. That is what the Python oracles in fixtures/interchange/make/ print.

import { frameName } from '../../model/frame-table';
import type { Profile } from '../../model/profile';

export function functionTotals(profile: Profile): Map<string, [number, number]> {
  const { tree, frames } = profile;
  const out = new Map<string, [number, number]>();
  for (let n = 1; n < tree.nodeCount; n++) {
    const name = frameName(frames, tree.frame[n]);
    let nested = false;
    for (let a = tree.parent[n]; a > 0 && !nested; a = tree.parent[a]) if (frameName(frames, tree.frame[a]) === name) nested = true;
    if (nested) continue;
    const t = out.get(name) ?? [0, 0];
    t[0] += tree.totalSamples[n];
    t[1] += tree.totalWeight[n];
    out.set(name, t);
  }
  return out;
}

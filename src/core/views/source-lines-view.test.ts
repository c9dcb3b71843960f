// Each base node's heaviest source line (what tooltips and details show), against sums over the
// line tree, and through the snapshot to FrameInfo, in both views.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../testing/fixtures';
import { loadProfileFromText } from '../import/load';
import { makeSnapshot, toTransfer, fromTransfer } from './snapshot';
import { functionView } from './function-view';
import { frameInfo } from '../query/frame-info';

describe('nodeLines and FrameInfo.line', () => {
  it('hashack -F +srcline: the heaviest location of each node, and the count of its locations', async () => {
    const profile = await loadProfileFromText(gunzipSync(fixtureBytes('srcline/hashack.srcline.perf-script.txt.gz')));
    const snapshot = fromTransfer(toTransfer(makeSnapshot(profile)).wire);
    const lines = profile.lines!;
    const fv = functionView(profile);
    for (const view of ['inline', 'functions'] as const) {
      // Oracle: per base node, the weight at each known location (functions: physical frames only).
      const weights = new Map<number, Map<number, number>>();
      for (let ln = 1; ln < lines.tree.nodeCount; ln++) {
        const frame = lines.locatedFrame[lines.tree.frame[ln]];
        const loc = lines.locatedLocation[lines.tree.frame[ln]];
        if (loc < 0) continue;
        const parent = lines.tree.parent[ln];
        if (view === 'functions' && profile.frames.flags[frame] & 9 && parent !== 0) continue;
        const node = view === 'inline' ? lines.node[ln] : fv.toFunction[lines.node[ln]];
        const m = weights.get(node) ?? new Map<number, number>();
        m.set(loc, (m.get(loc) ?? 0) + lines.tree.totalWeight[ln]);
        weights.set(node, m);
      }
      const at = view === 'inline' ? snapshot.lines!.inline : snapshot.lines!.functions!;
      let checked = 0;
      for (const [node, m] of weights) {
        const best = Math.max(...m.values());
        expect(m.get(at.location[node])).toBe(best);
        expect(at.count[node]).toBe(m.size);
        checked++;
      }
      expect(checked).toBeGreaterThan(50);
      const tree = view === 'inline' ? snapshot.inline : snapshot.functions!;
      let known = 0;
      for (let n = 1; n < tree.nodeCount; n++) {
        const info = frameInfo(snapshot, view, n, 0)!;
        const loc = at.location[n];
        if (loc < 0) expect(info.line).toBeUndefined();
        else {
          expect(info.line).toBe(`${profile.frames.strings[lines.locations.file[loc]]}:${lines.locations.line[loc]}`);
          expect(info.lines).toBe(at.count[n]);
          known++;
        }
      }
      expect(known).toBeGreaterThan(50);
    }
  });

  it('a recording without lines has none', async () => {
    const profile = await loadProfileFromText(gunzipSync(fixtureBytes('srcline/hashack.perf-script.txt.gz')));
    const snapshot = makeSnapshot(profile);
    expect(snapshot.lines).toBeNull();
    expect(frameInfo(snapshot, 'inline', 1, 0)!.line).toBeUndefined();
  });
});

// .cpuprofile source lines (callFrame.url, positionTicks) against sums over the JSON itself
// (fixtures/interchange/node.cpuprofile, `node --cpu-prof`): each node's self time split over its
// positionTicks lines, its callers at their url with no line.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../load';
import { lineDifferences, lineSums, type OracleFrame } from '../../testing/line-oracle';

const FILE = fileURLToPath(new URL('../../../../fixtures/interchange/node.cpuprofile', import.meta.url));

interface Node {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
  positionTicks?: { line: number; ticks: number }[];
}

describe('.cpuprofile source lines', () => {
  it('per function and line, self and total as summed over the JSON', async () => {
    const text = readFileSync(FILE, 'utf8');
    const json = JSON.parse(text) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };
    const profile = await loadProfileFromText(text);
    expect(profile.lines).toBeTruthy();
    const byId = new Map(json.nodes.map((n) => [n.id, n]));
    const parent = new Map<number, number>();
    for (const n of json.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
    // Sample s lasts until sample s + 1, the last one until endTime (µs → ns).
    const self = new Map<number, number>();
    let t = json.startTime;
    const times = json.timeDeltas.map((d) => (t += d));
    json.samples.forEach((id, s) => {
      const next = s + 1 < times.length ? times[s + 1] : json.endTime;
      self.set(id, (self.get(id) ?? 0) + (next - times[s]) * 1000);
    });
    const samples: { weight: number; frames: OracleFrame[] }[] = [];
    const label = (n: Node) => n.callFrame.functionName;
    for (const [id, weight] of self) {
      const leaf = byId.get(id)!;
      const callers: OracleFrame[] = [];
      for (let p = parent.get(id); p !== undefined && byId.get(p)!.callFrame.functionName !== '(root)'; p = parent.get(p)) {
        const n = byId.get(p)!;
        callers.unshift({ name: label(n), where: n.callFrame.url ? `${n.callFrame.url}:0` : '?' });
      }
      const ticks = leaf.positionTicks ?? [];
      const all = ticks.reduce((a, x) => a + x.ticks, 0);
      if (!leaf.callFrame.url || all === 0) samples.push({ weight, frames: [...callers, { name: label(leaf), where: leaf.callFrame.url ? `${leaf.callFrame.url}:0` : '?' }] });
      else for (const x of ticks) samples.push({ weight: (weight * x.ticks) / all, frames: [...callers, { name: label(leaf), where: `${leaf.callFrame.url}:${x.line}` }] });
    }
    const sums = lineSums(samples);
    // Anonymous functions are named by flameview ((anonymous file:line)); the named ones are checked.
    sums.delete('');
    expect(sums.size).toBeGreaterThan(10);
    const close = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b));
    expect(lineDifferences(profile, sums, close)).toEqual([]);
    const withTicks = json.nodes.filter((n) => n.callFrame.functionName && (n.positionTicks ?? []).length > 1);
    expect(withTicks.length).toBeGreaterThan(0);
  });
});

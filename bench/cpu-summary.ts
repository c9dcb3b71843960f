// Summarises a V8 .cpuprofile (from `node --cpu-prof`): the functions with the most self time.
//
//   npx tsx bench/cpu-summary.ts FILE.cpuprofile [TOP=25]

import { readFileSync } from 'node:fs';

interface CpuNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount?: number;
}

interface CpuProfile {
  nodes: CpuNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export function summarise(profile: CpuProfile, top = 25): string {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<string, number>();
  // Each sample's time delta belongs to the node that was on top of the stack.
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    if (!node) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url.replace(/^.*\/(src|bench|node_modules)\//, '$1/');
    const key = `${functionName || '(anonymous)'}  ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
    self.set(key, (self.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const rows = [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
  const lines = rows.map(([k, us]) => `${(us / 1000).toFixed(0).padStart(7)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
  return [`total ${(total / 1000).toFixed(0)} ms sampled`, ...lines].join('\n');
}

if (process.argv[2] && /cpu-summary\.ts$/.test(process.argv[1] ?? '')) {
  const profile = JSON.parse(readFileSync(process.argv[2], 'utf8')) as CpuProfile;
  console.log(summarise(profile, Number(process.argv[3] ?? 25)));
}

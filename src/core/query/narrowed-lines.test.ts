// The per-line figures of a function in a transformed view, against a stack-level oracle: every
// sample of a real srcline recording (each line-tree node's located path, weighted by its self
// weight) rewritten on its own by the transform's definition, its frames' lines taken by the
// module's rule, and the lines summed per function. The oracle shares no code with the walk.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../testing/fixtures';
import { loadProfileFromText } from '../import/load';
import type { Profile } from '../model/profile';
import { functionView } from '../views/function-view';
import { applyTransforms, type Transform } from '../views/transforms';
import { framesMatching, functionLines, type FunctionLines } from './source-lines';
import { narrowedFunctionLines } from './narrowed-lines';

interface Frame {
  frame: number;
  name: string;
  loc: number;
}

/** Each sample with lines: its located frames root first (the line tree's leaf paths). */
function samplesOf(profile: Profile): { frames: Frame[]; weight: number }[] {
  const lines = profile.lines!;
  const t = lines.tree;
  const out: { frames: Frame[]; weight: number }[] = [];
  for (let ln = 1; ln < t.nodeCount; ln++) {
    if (t.selfWeight[ln] === 0) continue;
    const frames: Frame[] = [];
    for (let m = ln; m > 0; m = t.parent[m]) {
      const frame = lines.locatedFrame[t.frame[m]];
      frames.unshift({ frame, name: profile.frames.strings[profile.frames.name[frame]], loc: lines.locatedLocation[t.frame[m]] });
    }
    out.push({ frames, weight: t.selfWeight[ln] });
  }
  return out;
}

/** A transformed stack: each shown frame and the input frames merged into it (outermost first). */
type Group = { frame: number; members: Frame[] };

function rewrite(frames: Frame[], t: { kind: 'focus' | 'drop' | 'merge' | 'collapse' | 'rec'; name: string }): Group[] | null {
  const at = frames.findIndex((f) => f.name === t.name);
  const single = (fs: Frame[]) => fs.map((f) => ({ frame: f.frame, members: [f] }));
  switch (t.kind) {
    case 'focus':
      return at < 0 ? null : single(frames.slice(at));
    case 'drop':
      return at < 0 ? single(frames) : null;
    case 'collapse':
      return at < 0 ? single(frames) : [...single(frames.slice(0, at)), { frame: frames[at].frame, members: frames.slice(at) }];
    case 'merge': {
      const out: Group[] = [];
      for (const f of frames) {
        if (f.name !== t.name) out.push({ frame: f.frame, members: [f] });
        else if (out.length > 0) out[out.length - 1].members.push(f);
        else return null; // weight left at the root: no frame of any function
      }
      return out;
    }
    case 'rec': {
      const out: Group[] = [];
      let outer = -1;
      for (const f of frames) {
        if (f.name === t.name && outer >= 0) {
          out.length = outer + 1;
          out[outer].members.push(f);
        } else {
          if (f.name === t.name) outer = out.length;
          out.push({ frame: f.frame, members: [f] });
        }
      }
      return out;
    }
  }
}

/** A shown frame's line: its deepest member of its own frame, else its outermost member. */
function lineOf(g: Group): number {
  const own = g.members.filter((m) => m.frame === g.frame);
  return (own.length > 0 ? own[own.length - 1] : g.members[0]).loc;
}

function oracle(profile: Profile, name: string, t: Parameters<typeof rewrite>[1]): { self: Map<number, number>; total: Map<number, number>; fnSelf: number; fnTotal: number; all: number } {
  const self = new Map<number, number>();
  const total = new Map<number, number>();
  let fnSelf = 0;
  let fnTotal = 0;
  let all = 0;
  for (const s of samplesOf(profile)) {
    const groups = rewrite(s.frames, t);
    if (!groups || groups.length === 0) continue;
    all += s.weight;
    const leaf = groups[groups.length - 1];
    const named = (g: Group) => profile.frames.strings[profile.frames.name[g.frame]] === name;
    if (named(leaf)) {
      self.set(lineOf(leaf), (self.get(lineOf(leaf)) ?? 0) + s.weight);
      fnSelf += s.weight;
    }
    const locs = new Set(groups.filter(named).map(lineOf));
    if (locs.size > 0) fnTotal += s.weight;
    for (const l of locs) total.set(l, (total.get(l) ?? 0) + s.weight);
  }
  return { self, total, fnSelf, fnTotal, all };
}

/** The figures keyed by location index, as the oracle keeps them. */
function byLocation(profile: Profile, fl: FunctionLines): { self: Map<number, number>; total: Map<number, number> } {
  const lines = profile.lines!;
  const key = (file: string | null, line: number) => {
    if (file === null) return -1;
    for (let l = 0; l < lines.locations.count; l++) if (profile.frames.strings[lines.locations.file[l]] === file && lines.locations.line[l] === line) return l;
    throw new Error(`no location ${file}:${line}`);
  };
  const self = new Map<number, number>();
  const total = new Map<number, number>();
  for (const r of fl.lines) {
    if (r.self !== 0) self.set(key(r.file, r.line), r.self);
    total.set(key(r.file, r.line), r.total);
  }
  return { self, total };
}

/** The functions of the line tree by total weight, heaviest first. */
function heaviest(profile: Profile): string[] {
  const w = new Map<string, number>();
  for (const s of samplesOf(profile)) for (const name of new Set(s.frames.map((f) => f.name))) w.set(name, (w.get(name) ?? 0) + s.weight);
  return [...w].sort((a, b) => b[1] - a[1]).map(([n]) => n);
}

describe('narrowedFunctionLines', () => {
  it('with the identity mapping gives functionLines, in both views', async () => {
    const profile = await loadProfileFromText(gunzipSync(fixtureBytes('srcline/hashack.srcline.perf-script.txt.gz')));
    const fv = functionView(profile);
    for (const view of ['inline', 'functions'] as const) {
      const tree = view === 'inline' ? profile.tree : fv.tree;
      const identity = { toNew: Int32Array.from({ length: tree.nodeCount }, (_, i) => i), frame: tree.frame };
      for (const name of heaviest(profile).slice(1, 25)) {
        const match = framesMatching(profile, view, (n) => n === name);
        const whole = functionLines(profile, view, match);
        expect(narrowedFunctionLines(profile, view, fv.toFunction, match, identity)).toEqual(whole);
        expect(narrowedFunctionLines(profile, view, fv.toFunction, match, { toNew: null, frame: null })).toEqual(whole);
      }
    }
  });

  for (const fixture of ['hashack.srcline.perf-script.txt.gz', 'toyc.srcline.perf-script.txt.gz']) {
    it(`${fixture}: focus, drop, merge, collapse and rec narrow the figures as the stacks rewritten one by one`, async () => {
      const profile = await loadProfileFromText(gunzipSync(fixtureBytes(`srcline/${fixture}`)));
      const names = heaviest(profile);
      const fv = functionView(profile);
      let changed = 0;
      for (const kind of ['focus', 'drop', 'merge', 'collapse', 'rec'] as const) {
        for (const on of names.slice(2, 6)) {
          const t = { kind, name: on } as Transform & { kind: typeof kind; name: string };
          const derived = applyTransforms(profile.tree, profile.frames, [t]);
          for (const name of names.slice(1, 12)) {
            const match = framesMatching(profile, 'inline', (n) => n === name);
            const got = narrowedFunctionLines(profile, 'inline', fv.toFunction, match, { toNew: derived.toNew, frame: derived.tree.frame })!;
            const want = oracle(profile, name, t);
            const at = byLocation(profile, got);
            expect(got.all).toBeCloseTo(want.all, 3);
            expect(got.self).toBeCloseTo(want.fnSelf, 3);
            expect(got.total).toBeCloseTo(want.fnTotal, 3);
            expect(at.self).toEqual(want.self);
            expect(at.total).toEqual(new Map([...want.total].filter(([, w]) => w !== 0)));
            if (got.total !== functionLines(profile, 'inline', match)!.total) changed++;
          }
        }
      }
      // The transforms did narrow something (else the test proves nothing).
      expect(changed).toBeGreaterThan(20);
    });
  }
});

// The function view measured sample by sample against ground truth.
//
// `perf script` and `perf script --no-inline` of one perf.data print the same samples in the same
// order, so for rust-toyc and sqlite the --no-inline twin says how many physical frames each
// sample really has. For each sample we find its leaf in the inline tree, map it through the real
// function view (views/function-view.ts, with meta.doubledFrames) and compare the depth there with
// the twin's frame count. run-a, run-b and comm-trailing-digit have no twin: for them the figure
// is against an independent reference (regex) implementation of the address-group rule, which is
// exact for the same binary in rust-toyc; and no frame may be reported doubled there.

import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findChild } from '../../model/call-tree';
import { frameName } from '../../model/frame-table';
import type { Profile } from '../../model/profile';
import { functionView } from '../../views/function-view';
import { PerfScriptParser } from './perf-script';

const FIXTURES = fileURLToPath(new URL('../../../../fixtures/', import.meta.url));

interface Parsed {
  profile: Profile;
  /** Each sample's path, root first (the process frame included). */
  paths: Int32Array[];
}

function parse(path: string): Parsed {
  const paths: Int32Array[] = [];
  const parser = new PerfScriptParser(
    {},
    {
      sample(root, stack, depth) {
        const p = new Int32Array(depth + 1);
        p[0] = root;
        for (let i = 0; i < depth; i++) p[i + 1] = stack[depth - 1 - i];
        paths.push(p);
      },
    },
  );
  const lines = readFileSync(path, 'utf8').split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  lines.forEach((line, i) => parser.line(line, i + 1));
  return { profile: parser.finish(), paths };
}

/** The function-view path of a sample (frame names, process frame excluded). */
function functionPath(parsed: Parsed, path: Int32Array): string[] {
  const { profile } = parsed;
  let node = 0;
  for (const frame of path) {
    node = findChild(profile.tree, node, frame);
    if (node < 0) throw new Error('sample path not in the tree');
  }
  const fv = functionView(profile);
  const names: string[] = [];
  for (let n = fv.toFunction[node]; n > 0; n = fv.tree.parent[n]) names.push(frameName(profile.frames, fv.tree.frame[n]));
  names.pop();
  return names.reverse();
}

function plainPath(parsed: Parsed, path: Int32Array): string[] {
  return Array.from(path.subarray(1), (f) => frameName(parsed.profile.frames, f));
}

/** Reference implementation: physical frames per sample by the address-group rule, by regex. */
function referenceCounts(path: string): number[] {
  const counts: number[] = [];
  let count = -1;
  let open = false;
  let groupAddress = '';
  for (const line of readFileSync(path, 'utf8').split('\n')) {
    if (line.trim() === '') {
      if (count >= 0) counts.push(count + (open ? 1 : 0));
      count = -1;
      open = false;
      continue;
    }
    if (!/^\s/.test(line)) {
      count = 0;
      continue;
    }
    const m = /^\s*(\S+)\s+.*\s+\(([^()]*)\)$/.exec(line)!;
    const [address, inlined] = [m[1], m[2] === 'inlined'];
    if (open && address === groupAddress) {
      if (!inlined) {
        count++;
        open = false;
      }
      continue;
    }
    if (open) count++;
    groupAddress = address;
    open = inlined;
    if (!inlined) count++;
  }
  return counts;
}

const figures: string[] = [];

describe('function view frame counts, sample by sample', () => {
  for (const name of ['rust-toyc', 'sqlite']) {
    it(`${name}: matches the --no-inline twin in ≥ 95 % of samples`, () => {
      const inline = parse(`${FIXTURES}${name}.perf-script.txt`);
      const twin = parse(`${FIXTURES}${name}.no-inline.perf-script.txt`);
      expect(inline.paths.length).toBe(twin.paths.length);
      expect(inline.profile.meta.hasInlineInfo).toBe(true);
      let sameCount = 0;
      let namesOnly = 0;
      for (let i = 0; i < inline.paths.length; i++) {
        const ours = functionPath(inline, inline.paths[i]);
        const truth = plainPath(twin, twin.paths[i]);
        if (ours.length !== truth.length) continue;
        sameCount++;
        if (ours.some((n, k) => n !== truth[k])) namesOnly++;
      }
      const share = sameCount / inline.paths.length;
      const doubled = Array.from(inline.profile.meta.doubledFrames ?? [], (f) => frameName(inline.profile.frames, f));
      figures.push(
        `${name}: ${sameCount}/${inline.paths.length} samples (${(share * 100).toFixed(1)} %) have the twin's frame count; ` +
          `${namesOnly} of them differ only by names; doubled frames: ${doubled.length ? doubled.join(', ') : 'none'}`,
      );
      expect(share).toBeGreaterThanOrEqual(0.95);
    });
  }

  for (const name of ['rust-toyc', 'sqlite', 'rust-toyc.run-a', 'rust-toyc.run-b', 'rust-toyc.comm-trailing-digit']) {
    it(`${name}: physical frames match the reference address-group rule`, () => {
      const parsed = parse(`${FIXTURES}${name}.perf-script.txt`);
      const reference = referenceCounts(`${FIXTURES}${name}.perf-script.txt`);
      expect(parsed.paths.length).toBe(reference.length);
      const physical = parsed.paths.map((p) => p.length - 1 - Array.from(p).filter((f) => parsed.profile.frames.flags[f] & 1).length);
      expect(physical).toEqual(reference);
      if (name.startsWith('rust-toyc')) {
        // Same binary as the rust-toyc twin, where every repeat is real recursion.
        expect(parsed.profile.meta.doubledFrames).toEqual(new Int32Array(0));
        let same = 0;
        parsed.paths.forEach((p, i) => {
          if (functionPath(parsed, p).length === reference[i]) same++;
        });
        figures.push(`${name}: function view = reference physical frames in ${same}/${parsed.paths.length} samples`);
        expect(same / parsed.paths.length).toBeGreaterThanOrEqual(0.95);
      }
    });
  }

  it('prints the figures', () => {
    console.log(figures.join('\n'));
    expect(figures.length).toBe(6);
  });
});

// A tiny text DSL for building profiles in tests without going through an importer:
//   profileFrom(`
//     main;parse;lex_[i] 3
//     main;emit 2
//   `)
// Each line is a root-first stack and a weight; `_[i]`, `_[k]`, `_[j]` set frame flags, and a
// trailing `⟨MODULE⟩` gives the frame's module (`memcpy⟨/usr/lib/libc.so.6⟩`). The
// weight is used for both the period and the sample count. dumpTree() prints a tree back as
// indented text, for readable assertions.

import type { CallTree } from '../model/call-tree';
import { FrameTableBuilder, frameName, type FrameTable } from '../model/frame-table';
import { TreeBuilder, finishProfile } from '../model/tree-builder';
import { FrameFlags } from '../model/types';
import type { Profile } from '../model/profile';

// `_[f]` (FOLDED) exists only here: no text format marks a folded frame (see FrameFlags.FOLDED).
const SUFFIX: Record<string, number> = { '_[i]': FrameFlags.INLINED, '_[k]': FrameFlags.KERNEL, '_[j]': FrameFlags.JIT, '_[f]': FrameFlags.FOLDED };

export function profileFrom(text: string): Profile {
  const frames = new FrameTableBuilder();
  const builder = new TreeBuilder();
  let samples = 0;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const space = line.lastIndexOf(' ');
    const weight = Number(line.slice(space + 1));
    const stack = line.slice(0, space).split(';').map((token) => {
      const at = token.endsWith('⟩') ? token.lastIndexOf('⟨') : -1;
      const name = at < 0 ? token : token.slice(0, at);
      const module = at < 0 ? undefined : token.slice(at + 1, -1);
      const flag = SUFFIX[name.slice(-4)];
      return flag ? frames.intern(name.slice(0, -4), flag, module) : frames.intern(name, 0, module);
    });
    builder.addStack(stack, stack.length, weight, weight);
    samples += weight;
  }
  return finishProfile(frames, builder, (table) => ({
    format: 'folded',
    events: [],
    event: null,
    weightUnit: null,
    samples,
    hasInlineInfo: (table.flags as Uint8Array).some((f) => (f & (FrameFlags.INLINED | FrameFlags.FOLDED)) !== 0),
    skippedLines: 0,
    warnings: [],
  }));
}

/** Indented text of a tree: `name total/self`, inlined frames suffixed `_[i]`. */
export function dumpTree(tree: CallTree, frames: FrameTable): string {
  const lines: string[] = [];
  for (let n = 1; n < tree.nodeCount; n++) {
    const f = tree.frame[n];
    const suffix = frames.flags[f] & FrameFlags.INLINED ? '_[i]' : '';
    lines.push(`${'  '.repeat(tree.depth[n] - 1)}${frameName(frames, f)}${suffix} ${tree.totalWeight[n]}/${tree.selfWeight[n]}`);
  }
  return lines.join('\n');
}

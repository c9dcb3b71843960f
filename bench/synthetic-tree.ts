// A synthetic call tree of a given node count for the view benchmarks (transforms, derive,
// analysis): a frame pool with kernel, `[lib.so]` and inlined frames; each new node hangs off the
// last one (deep chains) or a random earlier node, with 5 % direct recursion and a skewed choice
// of frames so a few functions are hot. Deterministic for a seed.

import type { CallTree } from '../src/core/model/call-tree';
import { FrameTableBuilder, type FrameTable } from '../src/core/model/frame-table';
import { TreeBuilder } from '../src/core/model/tree-builder';
import { FrameFlags } from '../src/core/model/types';
import type { Rng } from './prng';

export function syntheticTree(target: number, rng: Rng): { tree: CallTree; frames: FrameTable } {
  const frames = new FrameTableBuilder();
  const pool = Math.max(100, Math.round(target / 50));
  const ids = new Int32Array(pool);
  for (let i = 0; i < pool; i++) {
    const r = rng.float();
    if (r < 0.1) ids[i] = frames.intern(`kernel_function_${i}`, FrameFlags.KERNEL);
    else if (r < 0.12) ids[i] = frames.intern(`[lib${i}.so]`, 0);
    else ids[i] = frames.intern(`crate::module${i % 97}::function_${i}`, rng.float() < 0.6 ? FrameFlags.INLINED : 0);
  }
  const builder = new TreeBuilder();
  let last = 0;
  while (builder.nodeCount < target) {
    const parent = rng.float() < 0.75 ? last : Math.floor(rng.float() * builder.nodeCount);
    const recurse = parent > 0 && rng.float() < 0.05;
    const frame = recurse ? builder.frameOf(parent) : ids[Math.floor(pool * rng.float() ** 3)];
    last = builder.child(parent, frame);
    builder.addSelf(last, 1 + Math.floor(rng.float() * 1000), 1);
  }
  const table = frames.finish();
  return { tree: builder.finish(table).tree, frames: table };
}

/** The median of a list of figures (the upper one of an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

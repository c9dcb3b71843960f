// The weights a part added, in input order (leaf builder node, weight), for inputs whose weights
// are not all integers: the merge adds them again in one parser's order (./merge.ts). Grows by
// doubling; 12 bytes a stack line (folded stacks: a few hundred thousand lines a gigabyte).

import { markMutable } from '../model/mutable-fields';

export class WeightLog {
  private leaf = new Int32Array(1024);
  private weight = new Float64Array(1024);
  private count = 0;

  constructor() {
    markMutable(this, ['leaf', 'weight']);
  }

  push(leaf: number, weight: number): void {
    const i = this.count++;
    if (i === this.leaf.length) {
      const leafs = new Int32Array(i * 2);
      leafs.set(this.leaf);
      this.leaf = leafs;
      const weights = new Float64Array(i * 2);
      weights.set(this.weight);
      this.weight = weights;
    }
    this.leaf[i] = leaf;
    this.weight[i] = weight;
  }

  /** The log with leaves in frozen-tree ids (`order[builderNode]`, TreeBuilder.finish). */
  finish(order: Int32Array): { leaf: Int32Array; weight: Float64Array } {
    const leaf = new Int32Array(this.count);
    for (let i = 0; i < this.count; i++) leaf[i] = order[this.leaf[i]];
    return { leaf, weight: this.weight.slice(0, this.count) };
  }
}

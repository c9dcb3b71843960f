// The transform stack (focus, merge, collapse recursion, hide kernel/unknown frames) and the
// reversed (bottom-up) switch. Both change which tree the main flame graph shows: see
// currentTree in tree-helpers.ts. The derived tree is computed off the main thread and stored in
// `derived` once it arrives; until then `derived` is null and the base view tree is shown.

import type { StateCreator } from 'zustand';
import type { CallTree } from '../core/model/call-tree';
import type { Transform } from '../core/views/transforms';
import type { StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export interface DerivedView {
  /** What the tree was derived for; a mismatch with the store means it is stale. */
  snapshot: object;
  view: StoreState['view'];
  transforms: readonly Transform[];
  reversed: boolean;
  range: StoreState['timeRange'];
  tree: CallTree;
}

export interface TransformSlice {
  transforms: readonly Transform[];
  reversed: boolean;
  derived: DerivedView | null;
  pushTransform(t: Transform): void;
  /** Drops the transform at `index` and every one after it (undo back to there). */
  popTransforms(index: number): void;
  setReversed(on: boolean): void;
  setDerived(derived: DerivedView | null): void;
}

export const createTransformSlice: Creator<TransformSlice> = (set, get) => ({
  transforms: [],
  reversed: false,
  derived: null,
  pushTransform: (t) => set({ transforms: [...get().transforms, t] }),
  popTransforms: (index) => set({ transforms: get().transforms.slice(0, Math.max(0, index)) }),
  setReversed: (reversed) => set({ reversed }),
  setDerived: (derived) => set({ derived }),
});

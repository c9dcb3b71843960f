// Index types shared across the core. They are plain numbers at run time; the brands only stop
// a frame index from being passed where a node index is expected.

export type NodeIndex = number & { readonly __brand?: 'NodeIndex' };
export type FrameIndex = number & { readonly __brand?: 'FrameIndex' };
export type StringIndex = number & { readonly __brand?: 'StringIndex' };

/** Bits of FrameTable.flags. Annotations such as `_[i]` or perf's ` (inlined)` become these. */
export const FrameFlags = {
  NONE: 0,
  INLINED: 1,
  KERNEL: 2,
  JIT: 4,
  /**
   * A frame perf printed as physical that is really one more line of the frame above it (a
   * function inlined into itself, see import/perf-runs.ts): shown like any frame in the inline
   * view, merged into its parent in the function view. Not in the name, so no text marks it.
   */
  FOLDED: 8,
  /**
   * A frame that stands for a library or a namespace (`libc.so.6`, `std::`): no importer makes
   * one; views/frame-groups.ts appends them to a loaded recording's table for the "collapse
   * library" transform. Outside the 4 bits of FrameTableBuilder's key, as no frame is interned
   * with it.
   */
  GROUP: 16,
} as const;

/** The synthetic root of every call tree ("all"). It has no frame. */
export const ROOT_NODE: NodeIndex = 0;
export const NO_FRAME: FrameIndex = -1;

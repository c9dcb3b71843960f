// The words the UI and the core share about what is shown: which tree of a recording (the
// function view or the inline-frame view), which way up, and which part of the zoomed node.
// Types only; the store holds the values, the renderer and the views read them.

/** Which tree of a recording is shown: inlined frames merged into their function, or every frame. */
export type ViewKind = 'functions' | 'inline';

/** A flame graph grows up from the root at the bottom; an icicle hangs down from the top. */
export type Orientation = 'flame' | 'icicle';

/** Siblings drawn by frame name (flamegraph.pl) or heaviest first (speedscope's "left heavy"). */
export type SiblingOrder = 'name' | 'heavy';

/** The visible part of the zoomed node, as fractions of its total weight (0 ≤ x0 < x1 ≤ 1). */
export interface Viewport {
  x0: number;
  x1: number;
}

/** A time range of a recording, in seconds on its clock (from < to). */
export interface TimeRange {
  from: number;
  to: number;
}

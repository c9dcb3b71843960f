// Vertical scroll of the two side-by-side graphs kept in step: flame graphs by the distance from
// the bottom (the root row), icicles by the distance from the top, so the same depth stays in
// view in both even when one tree is deeper. Returns the detach function.

export function syncVerticalScroll(a: HTMLElement, b: HTMLElement, icicle: () => boolean): () => void {
  const follow = (from: HTMLElement, to: HTMLElement) => () => {
    const want = icicle() ? from.scrollTop : to.scrollHeight - to.clientHeight - (from.scrollHeight - from.clientHeight - from.scrollTop);
    const clamped = Math.max(0, Math.min(want, to.scrollHeight - to.clientHeight));
    // Equal (within a pixel): nothing to do, which also ends the echo of our own write.
    if (Math.abs(to.scrollTop - clamped) >= 1) to.scrollTop = clamped;
  };
  const onA = follow(a, b);
  const onB = follow(b, a);
  a.addEventListener('scroll', onA, { passive: true });
  b.addEventListener('scroll', onB, { passive: true });
  return () => {
    a.removeEventListener('scroll', onA);
    b.removeEventListener('scroll', onB);
  };
}

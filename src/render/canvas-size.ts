// Sizes a canvas's backing store to its CSS box at the device pixel ratio (sharp on HiDPI
// screens) and leaves the context scaled so drawing code works in CSS pixels.

/** Resizes `canvas` to width × height CSS px at `dpr`; returns true when its size changed. */
export function fitCanvas(canvas: HTMLCanvasElement, ctx: CanvasRenderingContext2D, width: number, height: number, dpr: number): boolean {
  const changed = canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr);
  if (changed) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.width = `${width}px`;
    canvas.style.height = `${height}px`;
  }
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  return changed;
}

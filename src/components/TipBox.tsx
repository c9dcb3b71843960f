// Where every hover tooltip sits: beside the pointer, flipped to its left when it would leave the
// graph's box, and above the pointer unless the pointer is near the top. One place, so the four
// tooltips (flame graph, comparison, callers/callees, time order) move alike.

import type { ReactNode } from 'react';

export interface TipBoxProps {
  /** The pointer, in the coordinates of the positioned box the tooltip is drawn in. */
  x: number;
  y: number;
  /** The widest the tooltip may be, in CSS pixels. */
  width: number;
  /** A selector of the box the tooltip must stay within (its width decides the flip). */
  within: string;
  /** Pointer heights below this put the tooltip above the pointer; absent: always below. */
  aboveFrom?: number;
  className?: string;
  testId?: string;
  children: ReactNode;
}

const GAP = 14;

export function TipBox({ x, y, width, within, aboveFrom, className, testId, children }: TipBoxProps) {
  const wrap = document.querySelector(within)?.clientWidth ?? 1000;
  const left = x + GAP + width > wrap ? Math.max(0, x - GAP - width) : x + GAP;
  const above = aboveFrom !== undefined && y > aboveFrom;
  const top = above ? y - 12 : aboveFrom === undefined ? y + 16 : y + 18;
  return (
    <div className={className ? `flame-tooltip ${className}` : 'flame-tooltip'} role="tooltip" data-testid={testId} style={{ left, top, maxWidth: width, transform: above ? 'translateY(-100%)' : undefined }}>
      {children}
    </div>
  );
}

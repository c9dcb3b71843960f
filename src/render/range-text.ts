// Words for a time range of a recording: "2.131 s – 2.547 s (416 ms, 83 samples)", times counted
// from the first sample. Pure, so the header, the status line and tests agree.

import type { SampleColumns } from '../core/model/sample-column';
import { samplesInRange } from './stack-chart-model';
import type { TimeRange } from '../core/model/view-types';
import { formatDuration, formatOffset } from '../format';

export function rangeText(range: TimeRange, samples: SampleColumns, t0: number): string {
  const span = range.to - range.from;
  const { count } = samplesInRange(samples, range.from, range.to);
  return `${formatOffset(range.from - t0, span)} – ${formatOffset(range.to - t0, span)} (${formatDuration(span)}, ${count.toLocaleString('en-US')} sample${count === 1 ? '' : 's'})`;
}

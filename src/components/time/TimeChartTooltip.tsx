// The time-order chart's hover tooltip: the frame's name (untrusted: React text only), how long
// the box lasts, when it starts and how many samples it covers.

import { useMemo } from 'react';
import { boxSamples } from '../../render/stack-chart-model';
import { useStore } from '../../store/store';
import { useChartHover } from '../../controllers/time-chart-controller';
import { BreakableName } from '../BreakableName';
import { MAX_TOOLTIP_NAME } from '../../core/views/shorten';
import { TipBox } from '../TipBox';
import { formatDuration, formatOffset } from '../../format';

const WIDTH = 360;

export function TimeChartTooltip() {
  const hover = useChartHover((s) => s.hover);
  const frames = useStore((s) => s.recordings.a.snapshot?.frames ?? null);
  const info = useMemo(() => {
    const m = hover?.model;
    if (!hover || !m || !frames || hover.box < 0 || hover.box >= m.chart.count) return null;
    const { chart } = m;
    const f = m.tree.frame[chart.node[hover.box]];
    const start = chart.start[hover.box];
    const end = chart.end[hover.box];
    return {
      name: f >= 0 ? frames.strings[frames.name[f]] : 'all',
      duration: formatDuration(end - start),
      at: formatOffset(start - m.t0, end - start),
      samples: boxSamples(m, hover.box),
    };
  }, [hover, frames]);
  if (!hover || !info) return null;
  return (
    <TipBox x={hover.x} y={hover.y} width={WIDTH} within=".time-chart-wrap" className="time-tooltip">
      <div className="frame-name">
        <BreakableName name={info.name} max={MAX_TOOLTIP_NAME} />
      </div>
      <div>
        {info.duration} from {info.at}, {info.samples.toLocaleString('en-US')} sample{info.samples === 1 ? '' : 's'}
      </div>
    </TipBox>
  );
}

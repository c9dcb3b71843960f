// The figures of one frame, shared by the tooltip and the details region.

import { type FrameInfo } from '../core/query/frame-info';
import { formatPercent, formatWeight } from '../format';
import { BreakableName } from './BreakableName';

/** `maxName`: the most characters of the name shown (a tooltip's is shorter than the details'). */
export function FrameFigures({ info, maxName }: { info: FrameInfo; maxName?: number }) {
  const kind = [info.inlined && 'inlined', info.kernel && 'kernel', info.jit && 'JIT'].filter(Boolean).join(', ');
  return (
    <div className="frame-figures">
      <div className="frame-name">
        <span className="frame-name-text">
          <BreakableName name={info.name} max={maxName} />
        </span>
        {kind && <span className={`frame-badge${info.inlined ? ' frame-badge-inlined' : ''}`}>{kind}</span>}
      </div>
      {info.allCallSites && <p className="frame-scope">Function, all call sites</p>}
      <dl>
        {info.module && (
          <>
            <dt>Module</dt>
            <dd className="frame-module">{info.module}</dd>
          </>
        )}
        {info.line && (
          <>
            <dt>Line</dt>
            <dd className="frame-line">
              {info.line}
              {info.lines !== undefined && info.lines > 1 && ` (the heaviest of ${info.lines})`}
            </dd>
          </>
        )}
        <dt>Total</dt>
        <dd>
          {formatWeight(info.totalSamples, info.totalTime)}, {formatPercent(info.ofProfile)} of all
          {info.ofZoom !== null && `, ${formatPercent(info.ofZoom)} of zoom`}
        </dd>
        <dt>Self</dt>
        <dd>{formatWeight(info.selfSamples, info.selfTime)}</dd>
      </dl>
    </div>
  );
}

// The time order's link parameters, registered with the URL state (store/url-state.ts):
//   range=<from>-<to>   the selected time range, absolute seconds as perf script prints them
//                       (history push, like zoom: a range is a place one goes back from)
//   time=1              the time-order chart is open
// `range` is applied before `zoom` (order 15 < 20): the zoom path names a frame of the tree
// restricted to the range.

import { useStore } from '../store';
import { registerUrlParam, type ParseResult } from './url-state';
import type { TimeRange } from '../time-slice';

const NUMBER = /^\d{1,12}(\.\d{1,12})?$/;

export function parseRange(v: string): ParseResult<TimeRange> {
  const dash = v.indexOf('-');
  const a = v.slice(0, dash);
  const b = v.slice(dash + 1);
  if (dash < 0 || !NUMBER.test(a) || !NUMBER.test(b) || !(Number(b) > Number(a))) {
    return { ok: false, notice: `The link's range=${v.slice(0, 40)} is not FROM-TO in seconds (FROM < TO); it was ignored.` };
  }
  return { ok: true, value: { from: Number(a), to: Number(b) } };
}

/** Enough decimals to give the same double back (at most nanoseconds, as perf --ns prints). */
export function writeRange(r: TimeRange): string {
  const fmt = (x: number) => x.toFixed(9).replace(/\.?0+$/, '');
  return `${fmt(r.from)}-${fmt(r.to)}`;
}

registerUrlParam<TimeRange>({
  key: 'range',
  history: 'push',
  order: 15,
  parse: parseRange,
  write: (s) => (s.recordings.a.snapshot?.samples && s.timeRange ? writeRange(s.timeRange) : null),
  apply: (value, ctx) => {
    const store = useStore.getState();
    if (value && !ctx.snapshot.samples) {
      ctx.notify('The link selects a time range, but this recording has no timestamps; showing all of it.');
      value = undefined;
    }
    const cur = store.timeRange;
    if (!value) {
      if (cur) store.setTimeRange(null);
    } else if (!cur || cur.from !== value.from || cur.to !== value.to) store.setTimeRange(value);
  },
});

registerUrlParam<true>({
  key: 'time',
  history: 'replace',
  order: 16,
  parse: (v) => (v === '1' ? { ok: true, value: true } : { ok: false, notice: `The link's time=${v.slice(0, 20)} is not 1; it was ignored.` }),
  write: (s) => (s.recordings.a.snapshot?.samples && s.timeChartOpen ? '1' : null),
  apply: (value, ctx) => {
    const open = value === true && ctx.snapshot.samples !== null;
    if (useStore.getState().timeChartOpen !== open) useStore.getState().setTimeChartOpen(open);
  },
});

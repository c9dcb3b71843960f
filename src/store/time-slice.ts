// Time order (perf script recordings carry timestamps): whether the stack chart is shown and the
// selected time range, which restricts the flame graph and the function table to the samples
// with from ≤ time < to (seconds, as perf script prints them).

import type { StateCreator } from 'zustand';
import type { TimeRange } from '../core/model/view-types';
import type { StoreState } from './types';

export type { TimeRange };

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export interface TimeSlice {
  timeChartOpen: boolean;
  timeRange: TimeRange | null;
  setTimeChartOpen(open: boolean): void;
  setTimeRange(range: TimeRange | null): void;
}

export const createTimeSlice: Creator<TimeSlice> = (set) => ({
  timeChartOpen: false,
  timeRange: null,
  setTimeChartOpen: (timeChartOpen) => set({ timeChartOpen }),
  setTimeRange: (range) => set({ timeRange: range && range.to > range.from ? range : null }),
});

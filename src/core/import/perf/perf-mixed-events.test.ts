// A system-wide recording of CPU samples and scheduler tracepoints (fixtures/offcpu/README.md):
// every header perf prints in it reads, and the events keep their full names.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../../testing/fixtures';
import { loadProfileFromText } from '../load';
import { weightUnitOf } from '../../model/weight-text';

const text = gunzipSync(fixtureBytes('offcpu/locks-a.perf-script.txt.gz')).toString('utf8');
/** Sample headers of each event, counted by a pattern of our own over the text. */
function headersOf(event: string): number {
  const escaped = event.replace(/[/]/g, '\\/');
  return text.split('\n').filter((l) => new RegExp(`^\\S.* ${escaped}: `).test(l) || new RegExp(`^\\S.* ${escaped}:$`).test(l)).length;
}

describe('a system-wide recording with CPU samples and scheduler tracepoints', () => {
  it('skips no line: the :-1 -1 headers of tasks perf could not name read', async () => {
    expect(text).toMatch(/^:-1 {4}-1 \[\d+\]/m);
    const profile = await loadProfileFromText(text, { event: 'sched:sched_switch' });
    expect(profile.meta.skippedLines).toBe(0);
    // The one note is the events left out, as for any recording of several events.
    expect(profile.meta.warnings.map((w) => w.message)).toEqual([expect.stringMatching(/^showing event sched:sched_switch; 564 samples of other events were left out/)]);
    expect(profile.meta.samples).toBe(headersOf('sched:sched_switch'));
  });

  it('counts every event under its full name, and cpu-clock with terms is a time', async () => {
    const profile = await loadProfileFromText(text, { event: 'cpu-clock' });
    const names = profile.meta.events.map((e) => e.name);
    // The recorded events in order of appearance, then the two derived from sched_switch.
    expect(names).toEqual(['sched:sched_wakeup', 'cpu-clock/freq=999/', 'sched:sched_switch', 'Off-CPU', 'Wall clock']);
    for (const e of profile.meta.events.slice(0, 3)) expect(e.samples).toBe(headersOf(e.name));
    expect(profile.meta.samples).toBe(headersOf('cpu-clock/freq=999/'));
    expect(profile.meta.weightUnit).toBe('nanoseconds');
    const wakeups = await loadProfileFromText(text, { event: 'sched:sched_wakeup' });
    expect(weightUnitOf(wakeups.meta, false)).toEqual({ kind: 'count', name: 'sched:sched_wakeup' });
  });

  it('opens on its CPU samples by default, though a wake-up comes first', async () => {
    expect(text.slice(0, text.indexOf('\n'))).toMatch(/ sched:sched_wakeup: /);
    const profile = await loadProfileFromText(text);
    expect(profile.meta.event).toBe('cpu-clock/freq=999/');
    expect(profile.meta.samples).toBe(headersOf('cpu-clock/freq=999/'));
    expect(profile.meta.weightUnit).toBe('nanoseconds');
  });
});

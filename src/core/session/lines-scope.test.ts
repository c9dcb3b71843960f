// The Source panel's figures under a time range, through the profile session as the page asks
// for them, against an independent oracle: the same perf script text cut to the samples whose
// header time is in the range, parsed as a recording of its own, whose whole-recording figures
// the range must give, with and without a transform on top (derive's base map). And a recording
// whose samples are not linked to its lines says so rather than narrowing wrongly.

import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { fixtureBytes } from '../testing/fixtures';
import { ProfileSession, type LinesScope } from './profile-session';
import { derive, type DeriveRequest } from '../views/derive';
import type { ProfileSnapshot } from '../views/snapshot';
import type { FunctionLines } from '../query/source-lines';
import type { Transform } from '../views/transforms';
import { loadProfileFromText } from '../import/load';
import { toProcessed } from '../export/processed';

const text = new TextDecoder().decode(gunzipSync(fixtureBytes('srcline/hashack.srcline.perf-script.txt.gz')));

/** The sample blocks of the text with their header's time (perf prints `  855.285426: `). */
function blocks(): { text: string; time: number }[] {
  return text
    .split(/\n\n+/)
    .filter((b) => b.trim() !== '')
    .map((b) => ({ text: b, time: Number(/ (\d+\.\d+): /.exec(b.split('\n')[0])![1]) }));
}

async function open(input: string): Promise<{ session: ProfileSession; snapshot: ProfileSnapshot }> {
  const session = new ProfileSession();
  const r = await session.openText(input, { name: 'hashack.srcline.perf-script.txt' });
  if (!r.ok) throw new Error(r.error.message);
  return { session, snapshot: r.snapshot };
}

/** The scope the page sends for a derived view (source-controller.ts). */
function scopeOf(snapshot: ProfileSnapshot, request: DeriveRequest): LinesScope {
  const d = derive({ frames: snapshot.frames, inline: snapshot.inline, functions: snapshot.functions, toFunction: snapshot.toFunction, samples: snapshot.samples }, request);
  return { toNew: d.base.toNew, frame: d.base.frame ?? d.tree.frame, range: d.ranged ? request.range : null };
}

/** The figures by `file:line`, rounded (a range's weights are sums of shares). */
function rows(fl: FunctionLines | null): Record<string, number[]> {
  const out: Record<string, number[]> = {};
  // A function with no sample in the scope has no rows (the cut recording has no such function).
  if (!fl || fl.totalSamples === 0) return out;
  out.function = [fl.self, fl.total, fl.all, fl.selfSamples, fl.totalSamples];
  for (const l of fl.lines) if (l.self !== 0 || l.total !== 0) out[`${l.file}:${l.line}`] = [l.self, l.total, l.selfSamples, l.totalSamples];
  return out;
}

describe('Source panel figures under a time range', () => {
  it('equal the figures of the recording cut to the range, with and without a transform, in both views', async () => {
    const all = blocks();
    const times = all.map((b) => b.time).sort((a, b) => a - b);
    const range = { from: times[Math.floor(times.length * 0.3)], to: times[Math.floor(times.length * 0.7)] };
    const cut = all.filter((b) => b.time >= range.from && b.time < range.to);
    expect(cut.length).toBeGreaterThan(100);
    const whole = await open(text);
    const part = await open(cut.map((b) => b.text).join('\n\n') + '\n');
    const names = new Set<string>();
    for (const m of text.matchAll(/^\s+[0-9a-f]+ ([A-Za-z_][\w.]*)\+0x/gm)) names.add(m[1]);
    let compared = 0;
    let narrowed = 0;
    for (const view of ['inline', 'functions'] as const) {
      for (const transforms of [[], [{ kind: 'merge', name: 'table_work' }], [{ kind: 'focus', name: 'main' }]] as Transform[][]) {
        const request = { view, transforms, reversed: false, range };
        const partScope = transforms.length > 0 ? scopeOf(part.snapshot, { ...request, range: null }) : null;
        for (const name of names) {
          const got = whole.session.functionLines(view, name, scopeOf(whole.snapshot, request));
          const want = part.session.functionLines(view, name, partScope);
          expect(rows(got), `${view} ${JSON.stringify(transforms)} ${name}`).toEqual(rows(want));
          if (want) {
            expect(got!.range).toBe('applied');
            compared++;
            if (JSON.stringify(rows(got)) !== JSON.stringify(rows(whole.session.functionLines(view, name)))) narrowed++;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(20);
    expect(narrowed).toBeGreaterThan(20);
  });

  it('a recording whose samples are not linked to lines says the range cannot narrow them, and gives the whole recording\'s', async () => {
    // A processed recording written before version 5: lines and times, no sample.line.
    const profile = await loadProfileFromText(text);
    const bytes = toProcessed({ ...profile, samples: { ...profile.samples!, line: undefined } });
    const session = new ProfileSession();
    const r = await session.openBlob(new Blob([bytes as Uint8Array<ArrayBuffer>]), { name: 'old.flameview' });
    if (!r.ok) throw new Error(r.error.message);
    const t = r.snapshot.samples!.time;
    const request = { view: 'inline' as const, transforms: [], reversed: false, range: { from: t[100], to: t[400] } };
    const got = session.functionLines('inline', 'table_work', scopeOf(r.snapshot, request))!;
    expect(got.range).toBe('not-linked');
    const { range: _range, ...figures } = got;
    expect(figures).toEqual(session.functionLines('inline', 'table_work'));
  });
});

// Chrome trace-event JSON with CPU profiles: what Chrome's Performance panel saves, what
// `chrome://tracing` and Playwright/Puppeteer's tracing write when the
// `disabled-by-default-v8.cpu_profiler` category is on:
//
//   { "traceEvents": [                                  (or a bare array of events)
//       { "name": "Profile", "ph": "P", "pid": 7, "tid": 7, "id": "0x1",
//         "args": { "data": { "startTime": µs } } },
//       { "name": "ProfileChunk", "ph": "P", "pid": 7, "tid": 9, "id": "0x1",
//         "args": { "data": { "cpuProfile": { "nodes": [{ "id", "callFrame", "parent" }],
//                                             "samples": [nodeId…] },
//                             "timeDeltas": [µs…] } } }, … ] }
//
// Decisions and invariants:
// - A profile is the Profile event and the ProfileChunks with the same pid and id, chunks in file
//   order; their nodes, samples and timeDeltas are concatenated and read as one .cpuprofile
//   (./chrome-cpuprofile.ts: same names, weights, warnings). A `CpuProfile` event (a whole
//   profile in one event, older DevTools) is read as one profile too.
// - One profile is imported: options.event names it; by default the one with the most samples
//   (the busy thread, usually the renderer's main thread). meta.events lists them all, named
//   `<thread name> (pid <pid>, profile <id>)`.
// - A trace without any CPU profile is an ImportError saying which category records one.

import { ImportError, type EventSummary, type Profile } from '../../model/profile';
import { buildCpuProfile, checkCpuProfile, type CpuProfileInput, type CpuProfileNode } from './chrome-cpuprofile';
import type { BytesImporter, Detection, ImportOptions } from '../importer';
import { headText, parseJsonBytes } from '../whole-input';

const DESCRIPTION = 'a Chrome trace (trace-event JSON with a CPU profile)';

interface Gathered {
  name: string;
  nodes: CpuProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime?: number;
  endTime?: number;
  whole?: CpuProfileInput;
}

export const chromeTraceImporter: BytesImporter = {
  format: 'chrome-trace',
  description: DESCRIPTION,
  detectBytes(head: Uint8Array): Detection {
    const text = headText(head).trimStart();
    if (/^\{\s*"traceEvents"\s*:/.test(text)) return 'yes';
    if (text.startsWith('{') && /"traceEvents"\s*:\s*\[/.test(text) && !/^\{\s*"nodes"/.test(text)) return 'yes';
    return /^\[\s*\{/.test(text) && /"ph"\s*:\s*"/.test(text) && /"pid"\s*:/.test(text) ? 'yes' : 'no';
  },
  parseBytes(bytes: Uint8Array, options: ImportOptions): Profile {
    const json = parseJsonBytes(bytes, DESCRIPTION, options.source);
    const events = Array.isArray(json) ? json : isObject(json) && Array.isArray(json.traceEvents) ? json.traceEvents : null;
    if (!events) throw new ImportError(DESCRIPTION, 0, 'JSON without a "traceEvents" array', options.source);
    const profiles = gather(events as unknown[]);
    if (profiles.length === 0) {
      throw new ImportError(
        DESCRIPTION,
        0,
        `${events.length} trace events but no CPU profile (no Profile/ProfileChunk events: record with the "disabled-by-default-v8.cpu_profiler" category)`,
        options.source,
      );
    }
    const summaries: EventSummary[] = profiles.map((p) => ({ name: p.name, samples: p.whole?.samples?.length ?? p.samples.length }));
    let chosen = 0;
    if (options.event !== undefined) {
      chosen = summaries.findIndex((s) => s.name === options.event);
      if (chosen < 0) {
        throw new ImportError(`a CPU profile named "${options.event}"`, 0, `only ${summaries.map((s) => `"${s.name}"`).join(', ')}`, options.source);
      }
    } else {
      for (let i = 1; i < summaries.length; i++) if (summaries[i].samples > summaries[chosen].samples) chosen = i;
    }
    const p = profiles[chosen];
    const input: CpuProfileInput = p.whole ?? {
      nodes: p.nodes,
      samples: p.samples,
      timeDeltas: p.timeDeltas,
      startTime: p.startTime,
      endTime: p.endTime,
    };
    const checked = checkCpuProfile(input, DESCRIPTION, options.source);
    return buildCpuProfile(checked, options, 'chrome-trace', summaries, p.name);
  },
};

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function numbers(v: unknown, out: number[]): void {
  if (Array.isArray(v)) for (const x of v) out.push(typeof x === 'number' ? x : NaN);
}

/** Collects the CPU profiles of a trace, in order of first appearance. */
function gather(events: unknown[]): Gathered[] {
  const threadNames = new Map<string, string>();
  for (const e of events) {
    if (isObject(e) && e.ph === 'M' && e.name === 'thread_name' && isObject(e.args) && typeof e.args.name === 'string') {
      threadNames.set(`${e.pid}:${e.tid}`, e.args.name);
    }
  }
  const byKey = new Map<string, Gathered>();
  const out: Gathered[] = [];
  const profileFor = (e: Record<string, unknown>): Gathered => {
    const key = `${e.pid}:${e.id}`;
    let p = byKey.get(key);
    if (!p) {
      p = { name: `profile ${String(e.id)} (pid ${String(e.pid)})`, nodes: [], samples: [], timeDeltas: [] };
      byKey.set(key, p);
      out.push(p);
    }
    return p;
  };
  for (const e of events) {
    if (!isObject(e) || !isObject(e.args)) continue;
    const data = e.args.data;
    if (!isObject(data)) continue;
    if (e.name === 'Profile') {
      const p = profileFor(e);
      if (typeof data.startTime === 'number') p.startTime = data.startTime;
      const thread = threadNames.get(`${e.pid}:${e.tid}`) ?? `thread ${String(e.tid)}`;
      p.name = `${thread} (pid ${String(e.pid)}, profile ${String(e.id)})`;
    } else if (e.name === 'ProfileChunk') {
      const p = profileFor(e);
      const cpu = data.cpuProfile;
      if (isObject(cpu)) {
        if (Array.isArray(cpu.nodes)) for (const n of cpu.nodes) p.nodes.push(n as CpuProfileNode);
        numbers(cpu.samples, p.samples);
        numbers(cpu.timeDeltas, p.timeDeltas);
      }
      numbers(data.timeDeltas, p.timeDeltas);
      if (typeof data.endTime === 'number') p.endTime = data.endTime;
    } else if (e.name === 'CpuProfile' && isObject(data.cpuProfile)) {
      const thread = threadNames.get(`${e.pid}:${e.tid}`) ?? `thread ${String(e.tid)}`;
      const p: Gathered = { name: `${thread} (pid ${String(e.pid)}, CpuProfile ${out.length + 1})`, nodes: [], samples: [], timeDeltas: [] };
      p.whole = data.cpuProfile as unknown as CpuProfileInput;
      out.push(p);
    }
  }
  return out;
}

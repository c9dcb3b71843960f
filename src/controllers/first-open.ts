// The first open of a linked recording, started by the page's first script (src/boot.ts) before
// the app is loaded, and taken over by the main recording's loader when the app starts: the same
// worker, the same answer, one fetch. A link is taken this way only when the app would open it
// the same way and the first picture can show what the app will (firstOpenLink).
//
// Invariants: at most one first open per page; its worker and its answer are each taken once,
// the answer only together with the worker it lives in (the worker keeps the recording for the
// panels' later questions) and only by the loader's first open: after any other open the worker
// holds another recording, and the answer is forgotten.

import * as Comlink from 'comlink';
import type { OpenProgress } from '../core/session/profile-session';
import type { Orientation, SiblingOrder, ViewKind } from '../core/model/view-types';
import { checkProfileUrl, lastSegment } from '../core/session/profile-url';
import type { ProfileWorkerApi, WorkerOpenOptions, WorkerOpenResult } from '../../workers/profile.worker';
import { RECORDING_ELEMENT_PREFIX } from '../core/export/report';
import { isEmbedMode } from './embed-mode';
import { profileFromPath } from '../store/url/profile-hash';
import { DATA_PARAMS, HEAVY_ORDER, ORIENT_VALUES, URL_STATE_VERSION, VIEW_VALUES } from '../store/url/link-values';

/** A recording's profile worker (the one place that names its script, literal for the bundler). */
export function startProfileWorker(name: string): Worker {
  return new Worker(new URL('../../workers/profile.worker.ts', import.meta.url), { type: 'module', name });
}

/** The smallest `?min-part-bytes=` taken: below it a part is not worth a worker on any machine. */
const MIN_PART_BYTES_PARAM = 1024 * 1024;

/**
 * `?min-part-bytes=N` in the page's address (`search`): the smallest part of a parallel load, for
 * every format, so that tests see files of megabytes split (the measured minimums are 128 MiB and
 * more); undefined when absent or not a whole number of at least 1 MiB.
 */
export function minPartBytesParam(search: string = globalThis.location?.search ?? ''): number | undefined {
  const raw = new URLSearchParams(search).get('min-part-bytes');
  const n = raw === null || raw.trim() === '' ? NaN : Number(raw);
  return Number.isSafeInteger(n) && n >= MIN_PART_BYTES_PARAM ? n : undefined;
}

/** The options a recording is opened with (the first open and the loader alike: the first open's answer is taken only for the same). */
export function openOptions(name: string, search?: string): WorkerOpenOptions {
  return { name, minPartBytes: minPartBytesParam(search) };
}

/** A link the first script opens itself, and how its graph is shown (the hash's view state). */
export interface FirstLink {
  url: string;
  name: string;
  view: ViewKind;
  orientation: Orientation;
  order: SiblingOrder;
}

/** The view-state parameters a first picture draws as the app would, each with the values its codec takes. */
const DRAWN_PARAMS: Readonly<Record<string, readonly string[]>> = { v: [String(URL_STATE_VERSION)], view: VIEW_VALUES, orient: ORIENT_VALUES, order: [HEAVY_ORDER] };

/**
 * What the page's address links for a first open, or null when the app must open it itself: one
 * `#profile=` (or a team server's /p/<id> page) with, at most, the view, the orientation and the
 * sibling order the app writes beside it (`#v=1&profile=…&view=functions` is what a reload
 * finds), and where the recording's original, source and disassembly are (`flameview FILE`'s
 * link). A zoom, a search, a transform, a comparison or any other parameter is the app's to
 * apply, as is a value it would ignore with a notice.
 */
export function firstOpenLink(loc: Pick<Location, 'protocol' | 'hash' | 'search' | 'pathname'>, doc: Pick<Document, 'getElementById' | 'baseURI'>): FirstLink | null {
  if (loc.protocol !== 'http:' && loc.protocol !== 'https:') return null;
  // A report carries its recording; an embedded page is sent one.
  if (doc.getElementById(`${RECORDING_ELEMENT_PREFIX}0`) || isEmbedMode(loc.search)) return null;
  const params = new URLSearchParams(loc.hash.startsWith('#') ? loc.hash.slice(1) : loc.hash);
  const profiles = params.getAll('profile');
  // The hash's profile=, else the recording a team server's /p/<id> page names (as the app reads them).
  const linked = profiles.length === 1 ? profiles[0] : profiles.length === 0 ? profileFromPath(loc.pathname) : null;
  if (linked === null) return null;
  for (const [key, value] of params) {
    if (key === 'profile') continue;
    // Where more data is: nothing it changes is drawn, but a value the app refuses shows a notice
    // above the graph (and moves it).
    const ok = key in DATA_PARAMS ? DATA_PARAMS[key](value) : DRAWN_PARAMS[key]?.includes(value);
    if (!ok || params.getAll(key).length > 1) return null;
  }
  // A blank profile= is no link (the app opens its demo).
  const raw = linked.trim();
  if (raw === '') return null;
  const checked = checkProfileUrl(raw, doc.baseURI);
  if (!checked.ok) return null;
  return {
    url: checked.url,
    name: lastSegment(checked.url),
    view: params.get('view') === 'inline' ? 'inline' : 'functions',
    orientation: params.get('orient') === 'icicle' ? 'icicle' : 'flame',
    order: params.get('order') === HEAVY_ORDER ? 'heavy' : 'name',
  };
}

/** One first open: its worker, its answer, and the progress it reports to whoever listens. */
export class FirstOpen {
  /** The open's answer until it is taken or forgotten (then null: the page does not keep it). */
  answer: Promise<WorkerOpenResult> | null;
  private worker: Worker | null;
  private failed = false;
  private lastProgress: OpenProgress | null = null;
  private listener: ((p: OpenProgress) => void) | null = null;
  /**
   * Held for the page's life: comlink releases a worker's endpoint when the last proxy on it is
   * collected, and a worker released before the loader wraps it answers nothing more.
   */
  private readonly remote: Comlink.Remote<ProfileWorkerApi>;

  constructor(
    readonly url: string,
    readonly options: WorkerOpenOptions,
    onProgress: (p: OpenProgress) => void = () => {},
    start: (name: string) => Worker = startProfileWorker,
  ) {
    const worker = start('profile');
    this.worker = worker;
    // A worker that cannot start is the loader's to report: it starts its own.
    worker.addEventListener('error', () => (this.failed = true), { once: true });
    const progress = Comlink.proxy((p: OpenProgress) => {
      this.lastProgress = p;
      onProgress(p);
      this.listener?.(p);
    });
    this.remote = Comlink.wrap<ProfileWorkerApi>(worker);
    this.answer = this.remote.openUrl(url, options, progress);
  }

  /** The worker, once, unless it failed to start. */
  takeWorker(): Worker | null {
    const w = this.failed ? null : this.worker;
    this.worker = null;
    return w;
  }

  /**
   * The answer to the open of `url` with `options`, once, when its worker was taken; its progress
   * goes to `onProgress` from now on (the last report at once).
   */
  takeAnswer(url: string, options: WorkerOpenOptions, onProgress: (p: OpenProgress) => void): Promise<WorkerOpenResult> | null {
    const answer = this.answer;
    if (answer === null || this.worker !== null || this.failed || url !== this.url) return null;
    if (options.name !== this.options.name || options.minPartBytes !== this.options.minPartBytes || Object.keys(options).some((k) => k !== 'name' && k !== 'minPartBytes')) return null;
    this.answer = null;
    this.listener = onProgress;
    if (this.lastProgress) onProgress(this.lastProgress);
    return answer;
  }

  /**
   * The answer will not be taken (the loader's first open was another recording): it goes, so a
   * later open of the same URL reads it again from the worker, which holds that other recording.
   */
  forget(): void {
    this.answer = null;
    this.listener = null;
  }
}

/** The page's first open, if its first script started one. */
export class FirstOpenSlot {
  private open: FirstOpen | null = null;

  set(open: FirstOpen): void {
    if (this.open) throw new Error('flameview: the page has one first open');
    this.open = open;
  }

  get current(): FirstOpen | null {
    return this.open;
  }
}

export const firstOpen = new FirstOpenSlot();

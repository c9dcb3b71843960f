// Keeps the location hash and the store in step (the format and its parameters: url-state.ts).
//  - A recording opens → the hash is applied to it (zoom path, view, search…), bad parts noticed.
//  - The store changes → the hash is rewritten (coalesced, never mid-animation): a change of
//    'push' parameters only (zoom) adds a history entry, anything else replaces the current one.
//  - Back/forward (popstate) or an edited hash (hashchange) → the hash is applied to the open
//    recording without pushing again. A new `profile` is left to the loading shell; the hash is
//    applied when that recording arrives. So is a link made from a local file other than the open
//    one (file=…, local-recording.ts): it waits, with a notice, for that file to be opened.
//  - At start-up, what the address names is opened (startLinkedLoads: #profile=, the /p/<id>
//    path, #file=, #compare=), and #profile= follows what is open. Every read and write of the
//    address is in this file, Share's too (linkShared puts the uploaded recordings' URLs in it).
//
// Invariants: while applying, writes are suppressed; `lastHash` is the hash this module last
// wrote or applied, so its own writes never come back as navigations.

import { create } from 'zustand';
import { profileFromHash, profileFromPath, profilesFromHash, withHashParam, withProfile, withProfiles } from '../store/url/profile-hash';
import { compareParamsFromHash } from '../store/url/compare-hash';
import { isEmbedMode } from './embed-mode';
import { openReportRecordings } from './report';
import { describeLocal, localNeeded, localRecordingFromHash, sameLocal } from '../store/url/local-recording';
import { openCompareUrls, openDemo, openUrl, openUrls } from './recordings';
import { mainSource } from './flame-sources';
import { useStore } from '../store/store';
import type { ProfileSnapshot } from '../core/views/snapshot';
import '../store/url/params';
import { applyUrlState, isPushChange, parseUrlState, writeUrlState, sameUrl, type ApplyReason } from '../store/url/url-state';

export interface LinkNotice {
  id: number;
  text: string;
}

/** The running sync's handles (one per page). */
interface RunningSync {
  flush(): void;
  stop(): void;
}

/**
 * Notices about the link (bad values, a frame not found), shown in a role=status region, and the
 * running sync (null until startUrlSync).
 */
const MAX_NOTICES = 5;

export const useLinkNotices = create<{ notices: LinkNotice[]; nextId: number; sync: RunningSync | null; dismiss(id: number): void; add(text: string): void }>()((set, get) => ({
  notices: [],
  nextId: 1,
  sync: null,
  dismiss: (id) => set({ notices: get().notices.filter((n) => n.id !== id) }),
  /** Adds a notice after the ones shown (the oldest go past MAX_NOTICES). */
  add: (text) => {
    const { notices, nextId } = get();
    set({ notices: [...notices, { id: nextId, text }].slice(-MAX_NOTICES), nextId: nextId + 1 });
  },
}));

function setNotices(texts: string[]): void {
  const first = useLinkNotices.getState().nextId;
  const notices = texts.slice(0, MAX_NOTICES).map((text, i) => ({ id: first + i, text }));
  useLinkNotices.setState({ notices, nextId: first + notices.length });
}

const WRITE_DELAY_MS = 120;

/** Writes any pending store change into the hash now (before copying the link). */
export function flushUrlWrite(): void {
  useLinkNotices.getState().sync?.flush();
}

/** Stops the sync (tests); the page keeps it for its lifetime. */
export function stopUrlSync(): void {
  useLinkNotices.getState().sync?.stop();
}

/**
 * Starts the sync once per page: later calls (React StrictMode's second effect run) and the
 * returned function do nothing, so a link's reload request is never made twice.
 */
export function startUrlSync(win: Window = window): () => void {
  if (useLinkNotices.getState().sync) return () => {};
  let lastHash = win.location.hash;
  let applying = false;
  /** A reload asked for by the link (event/split): apply the rest when it arrives. */
  let pendingReload = false;
  /** The profile in the hash was changed by navigation: apply once that recording arrives. */
  let awaitingProfile = false;
  let lastReloadSeq = useStore.getState().reloadRequest?.seq ?? 0;
  /** Reloads asked for by the link being applied (reset when another link or recording is applied). */
  let linkReloads = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;

  const apply = (snapshot: ProfileSnapshot, reason: ApplyReason) => {
    const parsed = parseUrlState(win.location.hash);
    const notices = [...parsed.notices];
    const wanted = localRecordingFromHash(win.location.hash);
    const opened = useStore.getState().source?.local;
    // A link made from one local file, applied to another: say so (its state still applies).
    if (reason !== 'reload' && wanted && opened && !sameLocal(wanted, opened)) {
      notices.push(`This link was made from ${describeLocal(wanted)}, but ${describeLocal(opened)} was opened: the link's view, zoom, search, transforms and panel were applied where they fit.`);
    }
    applying = true;
    let reloading = false;
    try {
      reloading = applyUrlState(parsed, {
        snapshot,
        reason,
        notify: (m) => notices.push(m),
        reload: (options) => {
          if (options.split) useStore.getState().setSplit(options.split);
          if (options.unit) useStore.getState().setUnit(options.unit);
          useStore.getState().requestReload(options);
        },
      }).reloading;
    } finally {
      applying = false;
    }
    if (reason !== 'reload' || notices.length) setNotices(notices);
    pendingReload = reloading;
    if (reloading) lastReloadSeq = useStore.getState().reloadRequest?.seq ?? lastReloadSeq;
    else write('replace');
  };

  const write = (mode: 'auto' | 'replace') => {
    timer = null;
    const s = useStore.getState();
    if (!s.recordings.a.snapshot || applying || pendingReload || awaitingProfile) return;
    const next = writeUrlState(win.location.hash, s);
    const current = win.location.hash;
    if (next === current) {
      lastHash = current;
      return;
    }
    if (mode === 'auto' && isPushChange(current, next)) win.history.pushState(null, '', next);
    else win.history.replaceState(win.history.state, '', next);
    lastHash = win.location.hash;
  };

  const schedule = () => {
    if (applying || timer !== null) return;
    timer = setTimeout(function tick() {
      // Mid-animation zoom nodes are intermediate ancestors: wait for the landing. While a
      // transform is being derived the zoom still names the previous tree: wait for the new one,
      // so one action makes one history entry.
      if (mainSource.animation.active || useStore.getState().deriving) timer = setTimeout(tick, WRITE_DELAY_MS);
      else write('auto');
    }, WRITE_DELAY_MS);
  };


  const flush = () => {
    if (timer !== null) clearTimeout(timer);
    write('auto');
  };
  const onSnapshot = (snapshot: ProfileSnapshot | null, previous: ProfileSnapshot | null) => {
    if (!snapshot) return;
    const s = useStore.getState();
    const seq = s.reloadRequest?.seq ?? 0;
    const reloaded = seq !== lastReloadSeq;
    lastReloadSeq = seq;
    if (pendingReload) {
      // The link asked for this reading (split, then maybe event): go on applying it, at most
      // twice, so a name the importer matches differently cannot loop.
      pendingReload = false;
      linkReloads++;
      apply(snapshot, linkReloads >= 2 ? 'reload' : 'open');
    } else if (reloaded && previous) {
      apply(snapshot, 'reload');
    } else if (awaitingProfile) {
      awaitingProfile = false;
      linkReloads = 0;
      apply(snapshot, 'open');
    } else if (!previous) {
      linkReloads = 0;
      apply(snapshot, 'open');
    } else {
      // Another recording (a dropped file, a paste): the hash follows the store.
      setNotices([]);
      useStore.getState().setSplit('process');
      useStore.getState().setUnit('samples');
      useStore.getState().setOriginal(null);
      write('replace');
    }
  };

  const initial = useStore.getState().recordings.a.snapshot;
  if (initial) onSnapshot(initial, null);

  const unsubSnapshot = useStore.subscribe((s) => s.recordings.a.snapshot, onSnapshot);
  const unsubAll = useStore.subscribe(schedule);
  // A linked recording that fails to open leaves the current one in charge of the hash again.
  const unsubError = useStore.subscribe(
    (s) => s.recordings.a.error,
    (error) => {
      if (error && awaitingProfile) {
        awaitingProfile = false;
        schedule();
      }
    },
  );

  const onNavigate = () => {
    const hash = win.location.hash;
    if (hash === lastHash) return;
    lastHash = hash;
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    const s = useStore.getState();
    if (!s.recordings.a.snapshot) return;
    const profile = profileFromHash(hash);
    const open = s.source?.kind === 'url' || s.source?.kind === 'demo' ? s.source.url : undefined;
    if (profile !== null && !sameUrl(profile, open, win.document.baseURI)) {
      // The loading shell opens the linked recording; apply the rest to it, not to this one.
      awaitingProfile = true;
      return;
    }
    const local = profile === null ? localRecordingFromHash(hash) : null;
    if (local && !sameLocal(local, s.source?.local)) {
      // A link made from a local file that is not the one open: keep it for that file.
      awaitingProfile = true;
      setNotices([localNeeded(local)]);
      return;
    }
    linkReloads = 0;
    apply(s.recordings.a.snapshot, 'navigate');
  };
  win.addEventListener('popstate', onNavigate);
  win.addEventListener('hashchange', onNavigate);

  const stop = () => {
    unsubSnapshot();
    unsubAll();
    unsubError();
    win.removeEventListener('popstate', onNavigate);
    win.removeEventListener('hashchange', onNavigate);
    if (timer !== null) clearTimeout(timer);
    useLinkNotices.setState({ sync: null });
  };
  useLinkNotices.setState({ sync: { flush, stop } });
  return () => {};
}

// ── What the address opens ────────────────────────────────────────────────────────────────────

/**
 * Opens what the address names at start-up: `#profile=<url>`, else a stored recording's /p/<id>
 * path, else, for a link made from a local file (`#file=…`), nothing (the page asks for that
 * file: store.awaitingLocal), else the demo; and `#compare=` with its mode and norm at once, so B
 * loads in parallel with A instead of after A has opened. Later, an edited hash that names
 * another recording opens it, and `#profile=` follows what is open. Called once per page.
 */
export function startLinkedLoads(win: Window = window): void {
  // Several profile= are one graph of their sum; they are compared as one list, joined.
  const linked = () => profilesFromHash(win.location.hash);
  let lastProfile: string | null = linked().join('\n') || null;
  const fromPath = profileFromPath(win.location.pathname);
  const pathUrl = fromPath === null ? null : new URL(fromPath, win.location.href).href;
  const local = localRecordingFromHash(win.location.hash);
  // A report opens what it carries; its hash keeps only the view's state (zoom, search, …).
  if (openReportRecordings(win.document)) lastProfile = null;
  else if (lastProfile !== null) void openUrls(linked());
  else if (pathUrl !== null) void openUrl(pathUrl);
  // The demo would take the link's state for itself (a zoom "not found", the hash rewritten).
  else if (local !== null) useStore.getState().setAwaitingLocal(local);
  // Embedded, the host page sends the recording (controllers/embed.ts); the demo would flash first.
  else if (!isEmbedMode(win.location.search)) void openDemo();

  win.addEventListener('hashchange', () => {
    const profiles = linked();
    // The store may rewrite other parts of the hash; only a new profile URL means "open".
    if (profiles.length === 0 || profiles.join('\n') === lastProfile) return;
    lastProfile = profiles.join('\n');
    void openUrls(profiles);
  });

  // Keep `#profile=` in step with what is open, so a reload or a shared link reopens it: set for
  // a URL opened some other way (a dropped link), removed once a file, paste or the demo opens.
  useStore.subscribe(
    (s) => s.source,
    (source) => {
      if (!source) return;
      // The recording named by the path needs no hash; anything else opened replaces it there.
      const profiles = source.kind === 'url' && source.url !== pathUrl ? (source.urls ?? (source.url ? [source.url] : [])) : [];
      const current = linked();
      const base = win.document.baseURI;
      if (profiles.length === current.length && profiles.every((p, i) => sameUrl(current[i], p, base))) return;
      lastProfile = profiles.join('\n') || null;
      const hash = withProfiles(win.location.hash, profiles);
      win.history.replaceState(win.history.state, '', hash === '' ? win.location.pathname + win.location.search : hash);
    },
  );

  const compare = compareParamsFromHash(win.location.hash);
  const s = useStore.getState();
  if (compare.mode) s.setCompareMode(compare.mode);
  if (compare.norm) s.setCompareNorm(compare.norm);
  if (compare.compare.length > 0) void openCompareUrls(compare.compare);
}

/**
 * Share uploaded the open recordings: the address names them where they are stored now. `page`
 * is the baseline's page on the server (…/p/<id>; the page moves there and #profile= goes), or
 * null to keep the page; `compare` and `original` (undefined: leave it) are what the store now
 * holds, written at once so the address is the link before Share copies it. Replaces the entry.
 */
export function linkShared(shared: { page: string | null; compare: string | null; original?: string | null }, win: Window = window): void {
  flushUrlWrite();
  let hash = win.location.hash;
  if (shared.compare !== null) hash = withHashParam(hash, 'compare', encodeURIComponent(shared.compare));
  if (shared.original !== undefined) hash = withHashParam(hash, 'original', shared.original === null ? null : encodeURIComponent(shared.original));
  const href = shared.page !== null ? `${shared.page}${withProfile(hash, null)}` : `${win.location.origin}${win.location.pathname}${win.location.search}${hash}`;
  win.history.replaceState(win.history.state, '', href);
  // The URL state writes its parameters in its own order: let it, so the copied link is the address.
  flushUrlWrite();
}

/** Drops the link's state from the address (the page opens the demo instead of the file a link needs). */
export function forgetLink(win: Window = window): void {
  win.history.replaceState(win.history.state, '', win.location.pathname + win.location.search);
}

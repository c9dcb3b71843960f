// Feeds the Source panel while it is open: asks the recording's profile worker (where the line
// tree stays) for the selected function's per-line weights in the current view, then reads the
// text of the file shown (the hottest file unless the user picked another): from the chosen
// folder when there is one (the user's explicit choice, read here, never uploaded), else from the
// route `flameview FILE` serves. The latest request wins for both; a refusal's reason is shown.

import { hottestFile, mapFolder } from '../core/query/source-listing';
import { Latest } from '../core/util/latest';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { useStore } from '../store/store';
import type { LinesScopeText, SourceText } from '../store/source-slice';
import type { DerivedView } from '../store/transform-slice';
import { watch } from '../store/watch';
import { functionLinesOf } from './recordings';

/** Larger files are not read into the page (a listing shows at most 50,000 lines anyway). */
const MAX_TEXT_BYTES = 16 * 1024 * 1024;

export function startSourceController(): () => void {
  const lines = new Latest();
  const text = new Latest();
  let asked: { snapshot: ProfileSnapshot; b: ProfileSnapshot | null; name: string; view: string; derived: DerivedView | null } | null = null;

  const askLines = () => {
    const s = useStore.getState();
    const name = s.analysis.selectedFunction;
    const snapshot = s.recordings.a.snapshot;
    if (s.analysis.panel !== 'source' || !snapshot || name === null) return;
    // The figures follow the shown tree: while a new one is derived, wait for it.
    const b = s.recordings.b.snapshot;
    if (b) return askBoth(snapshot, b, name);
    if (s.deriving) return;
    const d = s.derived && s.derived.snapshot === snapshot ? s.derived : null;
    if (d && d.view !== s.view) return;
    if (asked && asked.snapshot === snapshot && !asked.b && asked.name === name && asked.view === s.view && asked.derived === d) return;
    asked = { snapshot, b: null, name, view: s.view, derived: d };
    const n = lines.next();
    const view = s.view;
    const scope = scopeOf(d);
    if (!snapshot.lines) {
      s.setSourceResults({ result: { name, view, lines: null, scope }, pending: false });
      return;
    }
    s.setSourceResults({ pending: true });
    functionLinesOf('A', view, name, d && (scope.transforms > 0 || scope.range) ? { toNew: d.base?.toNew ?? null, frame: d.base ? (d.base.frame ?? d.tree.frame) : null, range: scope.range } : null).then(
      (fl) => {
        if (lines.isLatest(n)) useStore.getState().setSourceResults({ result: { name, view, lines: fl, scope }, pending: false });
      },
      () => {
        if (lines.isLatest(n)) useStore.getState().setSourceResults({ result: { name, view, lines: null, scope }, pending: false });
      },
    );
  };

  // A comparison: both recordings' lines of the function, whole recordings (as the change table
  // and the differential graph compare them; B is never transformed).
  const askBoth = (a: ProfileSnapshot, b: ProfileSnapshot, name: string) => {
    const view = useStore.getState().view;
    if (asked && asked.snapshot === a && asked.b === b && asked.name === name && asked.view === view) return;
    asked = { snapshot: a, b, name, view, derived: null };
    const n = lines.next();
    const scope = { transforms: 0, range: null };
    const ask = (side: 'A' | 'B', snapshot: ProfileSnapshot) => (snapshot.lines ? functionLinesOf(side, view, name).catch(() => null) : Promise.resolve(null));
    useStore.getState().setSourceResults({ pending: true });
    void Promise.all([ask('A', a), ask('B', b)]).then(([la, lb]) => {
      if (lines.isLatest(n)) useStore.getState().setSourceResults({ result: { name, view, lines: la, scope, b: lb }, pending: false });
    });
  };

  const readText = () => {
    const s = useStore.getState();
    const { result, file: picked, folder, served } = s.sourcePanel;
    if (s.analysis.panel !== 'source' || !result?.lines) return;
    const file = picked ?? hottestFile(result.lines);
    const n = text.next();
    const done = (t: SourceText) => {
      if (text.isLatest(n)) useStore.getState().setSourceResults({ text: t });
    };
    if (file === null) return done({ file: '', state: 'none', why: 'The recording names no source file for this function.' });
    const cur = s.sourcePanel.text;
    if (cur && cur.file === file && cur.state !== 'none' && !changedSource) return;
    changedSource = false;
    done({ file, state: 'loading' });
    void readFile(file, folder, served).then(done);
  };
  let changedSource = false;

  const unsubLines = watch((s) => ({ panel: s.analysis.panel, name: s.analysis.selectedFunction, view: s.view, snapshot: s.recordings.a.snapshot, b: s.recordings.b.snapshot, derived: s.derived, deriving: s.deriving }), askLines);
  const unsubText = watch(
    (s) => ({ panel: s.analysis.panel, result: s.sourcePanel.result, file: s.sourcePanel.file, folder: s.sourcePanel.folder, served: s.sourcePanel.served }),
    (now, before) => {
      changedSource = now.folder !== before.folder || now.served !== before.served;
      readText();
    },
  );
  askLines();
  return () => {
    unsubLines();
    unsubText();
    lines.cancel();
    text.cancel();
  };
}

/** What narrows the figures: the shown tree's transforms and time range (reversal changes no line's weight). */
function scopeOf(d: DerivedView | null): LinesScopeText {
  return { transforms: d && d.base ? d.transforms.length : 0, range: d && d.ranged && d.base ? d.range : null };
}

async function readFile(file: string, folder: readonly File[] | null, served: string | null): Promise<SourceText> {
  if (folder) {
    const paths = folder.map((f) => f.webkitRelativePath || f.name);
    const match = mapFolder([file], paths).get(file);
    const chosen = match ? folder[paths.indexOf(match)] : undefined;
    if (chosen) {
      if (chosen.size > MAX_TEXT_BYTES) return { file, state: 'none', why: `${match} is larger than 16 MB; it was not read.` };
      try {
        return { file, state: 'ok', text: await chosen.text(), from: 'folder' };
      } catch {
        return { file, state: 'none', why: `${match} could not be read.` };
      }
    }
    if (!served) return { file, state: 'none', why: match === null ? `Several files in the chosen folder end like ${file}; none was picked.` : `The chosen folder has no file ${baseName(file)}.` };
  }
  if (!served) return { file, state: 'none', why: 'No source text: open the source folder, or open the recording with flameview FILE on the machine that has the sources.' };
  try {
    const res = await fetch(`${served}?path=${encodeURIComponent(file)}`, { credentials: 'same-origin', cache: 'no-store' });
    if (res.ok) return { file, state: 'ok', text: await res.text(), from: 'served' };
    let reason = `HTTP ${res.status}`;
    try {
      const body = (await res.json()) as { error?: unknown };
      if (typeof body.error === 'string') reason = `${body.error} (HTTP ${res.status})`;
    } catch {
      // Not the route's JSON refusal: the status says enough.
    }
    return { file, state: 'none', why: `The server refused the source file: ${reason}.` };
  } catch {
    return { file, state: 'none', why: 'The server that served this page could not be reached for the source file.' };
  }
}

function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1];
}

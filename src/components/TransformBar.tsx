// Transforms of the main flame graph (see src/core/views/transforms.ts):
//  - TransformBar: the applied transforms (and the reversed switch) as chips; ✕ on a chip undoes
//    it and every one after it; Ctrl+Z (⌘Z) undoes the last one.
//  - TransformToggles: the View menu's switches "Hide kernel", "Hide [unknown]" and "Reversed".
//  - FrameTransforms: "Focus on function", "Merge into callers", "Collapse recursion" (any
//    recursion) for the selected frame (beside its details); every transform is in the frame's
//    context menu (FrameMenu.tsx).
// Render and dispatch only: the derived tree is computed by the analysis worker.

import { useEffect } from 'react';
import { describeTransform, type Transform } from '../core/views/transforms';
import { useStore, type StoreState } from '../store/store';
import { currentTree } from '../store/tree-helpers';
import '../styles/transforms.css';

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return target.isContentEditable || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

export function TransformBar() {
  const transforms = useStore((s) => s.transforms);
  const reversed = useStore((s) => s.reversed);
  const popTransforms = useStore((s) => s.popTransforms);
  const setReversed = useStore((s) => s.setReversed);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.shiftKey || e.altKey || e.key.toLowerCase() !== 'z' || isEditable(e.target)) return;
      const s = useStore.getState();
      if (s.transforms.length === 0) return;
      e.preventDefault();
      s.popTransforms(s.transforms.length - 1);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  if (transforms.length === 0 && !reversed) return null;
  return (
    <div className="transform-bar" role="region" aria-label="Transforms">
      <span className="transform-label">Transforms:</span>
      <ol>
        {reversed && (
          <li className="transform-chip">
            <span>Reversed (bottom-up)</span>
            <button type="button" aria-label="Undo Reversed (bottom-up)" title="Show the top-down graph" onClick={() => setReversed(false)}>
              ✕
            </button>
          </li>
        )}
        {transforms.map((t, i) => {
          const label = describeTransform(t);
          return (
            <li key={i} className="transform-chip">
              <span title={label}>{label}</span>
              <button
                type="button"
                aria-label={`Undo ${label}`}
                title={i < transforms.length - 1 ? 'Undo this and the transforms after it' : 'Undo (Ctrl+Z)'}
                onClick={() => popTransforms(i)}
              >
                ✕
              </button>
            </li>
          );
        })}
      </ol>
      {transforms.length > 0 && (
        <button type="button" className="btn btn-small" onClick={() => popTransforms(0)}>
          Clear transforms
        </button>
      )}
    </div>
  );
}

const sameHide = (t: Transform, what: 'kernel' | 'unknown') => t.kind === 'hide' && t.what === what;

export function TransformToggles() {
  const transforms = useStore((s) => s.transforms);
  const reversed = useStore((s) => s.reversed);
  const hasSnapshot = useStore((s) => s.recordings.a.snapshot !== null);
  const toggleHide = (what: 'kernel' | 'unknown') => {
    const s = useStore.getState();
    if (s.transforms.some((t) => sameHide(t, what))) s.setTransforms(s.transforms.filter((t) => !sameHide(t, what)));
    else s.pushTransform({ kind: 'hide', what });
  };
  return (
    <>
      <button type="button" className="menu-item" disabled={!hasSnapshot} aria-pressed={transforms.some((t) => sameHide(t, 'kernel'))} onClick={() => toggleHide('kernel')}>
        Hide kernel
      </button>
      <button type="button" className="menu-item" disabled={!hasSnapshot} aria-pressed={transforms.some((t) => sameHide(t, 'unknown'))} onClick={() => toggleHide('unknown')}>
        Hide [unknown]
      </button>
      <button
        type="button"
        className="menu-item"
        disabled={!hasSnapshot}
        aria-pressed={reversed}
        title="Bottom-up: the leaves (where time is spent) at the root, their callers above"
        onClick={() => useStore.getState().setReversed(!reversed)}
      >
        Reversed
      </button>
    </>
  );
}

/** The function name of the selected frame, or null (nothing, or the root, selected). */
function selectedName(s: Parameters<typeof currentTree>[0] & Pick<StoreState, 'panes'>): string | null {
  const tree = currentTree(s);
  const node = s.panes.main.selectedNode;
  if (!s.recordings.a.snapshot || !tree || node <= 0 || node >= tree.nodeCount) return null;
  const f = tree.frame[node];
  return f < 0 ? null : s.recordings.a.snapshot.frames.strings[s.recordings.a.snapshot.frames.name[f]];
}

/** The transforms of the selected frame's function, or of `name` (a function picked in the table). */
export function FrameTransforms({ name: picked }: { name?: string } = {}) {
  const selected = useStore(selectedName);
  const name = picked ?? selected;
  const push = useStore((s) => s.pushTransform);
  if (name === null) return null;
  return (
    <span className="frame-transforms" role="group" aria-label="Transform the graph by this function">
      <button type="button" className="btn btn-small" onClick={() => push({ kind: 'focus', name })}>
        Focus on function
      </button>
      <button type="button" className="btn btn-small" onClick={() => push({ kind: 'merge', name })}>
        Merge into callers
      </button>
      <button type="button" className="btn btn-small" onClick={() => push({ kind: 'rec', name })}>
        Collapse recursion
      </button>
    </span>
  );
}

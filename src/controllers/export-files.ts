// What the Export menu writes, as pure functions of the loaded snapshot and the current view
// (no DOM): the parts of each file, ready for `new Blob(parts)`, and its download name.
//
// Invariants: the SVG and folded text are exactly what `flameview svg` and
// `flameview collapse --view <view>` print for the same recording (same generators); the whole
// tree of the current view is exported, not just the zoomed part. Generation runs where it is
// called (the main thread): the SVG leaves out frames under 0.1 px, so its size is bounded by
// the image, and folded text of a very large tree may take a moment. The whole-recording files
// (pprof, processed) are made in the export worker (recording-file.ts), from recordingInput.

import { foldedChunks } from '../core/export/folded';
import type { KeptColumns, ProcessedInput } from '../core/export/processed';
import type { CallTree } from '../core/model/call-tree';
import { svgChunks } from '../core/export/svg';
import type { Profile } from '../core/model/profile';
import type { ProfileSnapshot } from '../core/views/snapshot';
import type { ViewKind } from '../core/views/function-view';

/** The current view as a Profile whose tree *is* that view (so no view is derived again). */
export function profileOfView(snapshot: ProfileSnapshot, view: ViewKind, shown?: CallTree | null): Profile {
  // `shown`: the tree on screen when transforms or the reversed switch derived it from the view's.
  const tree = shown ?? (view === 'functions' && snapshot.functions ? snapshot.functions : snapshot.inline);
  return { frames: snapshot.frames, tree, meta: snapshot.meta };
}

export function foldedParts(snapshot: ProfileSnapshot, view: ViewKind, shown?: CallTree | null): string[] {
  const profile = profileOfView(snapshot, view, shown);
  // The profile's tree is already the chosen view; `_[i]` only where inlined frames are shown.
  return [...foldedChunks(profile, { view: 'inline', annotateInline: view === 'inline' || !snapshot.functions })];
}

export function svgParts(snapshot: ProfileSnapshot, view: ViewKind, title: string, tree?: CallTree | null): string[] {
  const profile = profileOfView(snapshot, view, tree);
  const shown: ViewKind = snapshot.functions ? view : 'inline';
  return [...svgChunks({ frames: profile.frames, tree: profile.tree, meta: profile.meta, view: shown }, { title })];
}

/**
 * The whole recording, whatever the zoom, view or transforms shown, as the processed recording and
 * pprof hold it (both views: pprof keeps inline chains as a location's lines), as `flameview
 * convert` reads it from a file.
 */
export function recordingInput(snapshot: ProfileSnapshot, kept: KeptColumns | null = null): ProcessedInput {
  // Columns of another recording (a reload delivered one since the snapshot) are left out.
  const k = kept && kept.nodes === snapshot.inline.nodeCount && kept.samples === (snapshot.samples?.count ?? 0) ? kept : null;
  const samples = snapshot.samples && k?.lines && k.sampleLine ? { ...snapshot.samples, line: k.sampleLine } : snapshot.samples;
  return { frames: snapshot.frames, tree: snapshot.inline, samples, functionFrames: snapshot.functionFrames, lines: k?.lines ?? null, leafAddresses: k?.leafAddresses ?? null, meta: snapshot.meta };
}

/** "rust-toyc.perf-script.txt" + functions + svg → "rust-toyc.perf-script-functions.svg"; pprof holds both views: "rust-toyc.perf-script.pb.gz". */
export function exportFileName(name: string | null, view: ViewKind, ext: 'svg' | 'png' | 'folded' | 'pprof' | 'flameview' | 'html'): string {
  let base = (name ?? 'profile').replace(/^.*[\\/]/, '');
  base = base.replace(/\.gz$/i, '').replace(/\.(txt|folded|svg|data|json|pb|pprof|cpuprofile)$/i, '');
  base = base.replace(/[\u0000-\u001f\u007f<>:"/\\|?*]+/g, '_').replace(/^[.\s]+/, '').slice(0, 100) || 'profile';
  if (ext === 'pprof') return `${base}.pb.gz`;
  if (ext === 'flameview') return `${base}.flameview`;
  if (ext === 'html') return `${base}.html`;
  return `${base}-${view}.${ext === 'folded' ? 'folded.txt' : ext}`;
}

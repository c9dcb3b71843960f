// What the Export menu writes, as pure functions of the loaded snapshot and the current view
// (no DOM): the parts of each file, ready for `new Blob(parts)`, and its download name.
//
// Invariants: the SVG and folded text are exactly what `flameview svg` and
// `flameview collapse --view <view>` print for the same recording (same generators); the whole
// tree of the current view is exported, not just the zoomed part. Generation runs where it is
// called (the main thread): the SVG leaves out frames under 0.1 px, so its size is bounded by
// the image, and folded text of a very large tree may take a moment.

import { foldedChunks } from '../core/export/folded';
import { toPprof } from '../core/export/pprof';
import { toProcessed } from '../core/export/processed';
import { appFromReport, collectApp, reportHtml } from '../core/export/report';
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
 * The recording as pprof (profile.proto), gzipped as pprof tools expect: the whole recording with
 * both views (inline chains as a location's lines), whatever the zoom, view or transforms shown,
 * as `flameview convert` writes it. Gzip through the browser's CompressionStream.
 */
export function pprofBlob(snapshot: ProfileSnapshot): Promise<Blob> {
  return gzipBlob(toPprof({ frames: snapshot.frames, tree: snapshot.inline, functionFrames: snapshot.functionFrames, meta: snapshot.meta }));
}

/** The whole recording as flameview's processed recording (`.flameview`), as `flameview convert` writes it. */
export function processedBlob(snapshot: ProfileSnapshot): Promise<Blob> {
  return gzipBlob(toProcessed({ frames: snapshot.frames, tree: snapshot.inline, samples: snapshot.samples, functionFrames: snapshot.functionFrames, meta: snapshot.meta }));
}

/**
 * The open recording (and the comparison, when one is open) as a self-contained HTML report, what
 * `flameview html` writes (core/export/report.ts). The app's own files come from the report this
 * page is, or else are fetched from where this page was served (the same files it loaded).
 */
export async function reportBlob(recordings: readonly { snapshot: ProfileSnapshot; name: string }[], doc: Document = document): Promise<Blob> {
  const app =
    appFromReport(doc) ??
    (await collectApp(doc.head.outerHTML, async (file) => {
      const response = await fetch(new URL(file, doc.baseURI));
      if (!response.ok) throw new Error(`the app's file ${file} could not be read (HTTP ${response.status})`);
      return response.text();
    }));
  const parts = await Promise.all(recordings.map(async (r) => ({ name: r.name, bytes: new Uint8Array(await (await processedBlob(r.snapshot)).arrayBuffer()) })));
  return new Blob([reportHtml(app, parts, `${parts.map((r) => r.name).join(' vs ')} · flameview`)], { type: 'text/html;charset=utf-8' });
}

async function gzipBlob(bytes: Uint8Array): Promise<Blob> {
  const gzipped = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream('gzip'));
  return new Blob([await new Response(gzipped).arrayBuffer()], { type: 'application/octet-stream' });
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

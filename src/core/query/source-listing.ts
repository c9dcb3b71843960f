// The Source panel's pure parts: which recorded file a chosen folder's file is (longest common
// path suffix), the rows of an annotated listing (a file's text beside the per-line weights of a
// function), and the "open in editor / repository" link of a line from a template.
//
// Invariants: nothing here reads a file or the network; paths and text are data, never markup;
// a listing has at most MAX_LISTING_LINES rows whatever the text, so a hostile file cannot make
// the page build millions of rows.

import type { FunctionLines, LineWeight } from './source-lines';

export const MAX_LISTING_LINES = 50_000;

/** A path's components, `\` taken as `/` (a recording made on Windows), empty ones and `.` dropped. */
function parts(path: string): string[] {
  return path
    .replace(/\\/g, '/')
    .split('/')
    .filter((p) => p !== '' && p !== '.');
}

function commonSuffix(a: string[], b: string[]): number {
  let n = 0;
  while (n < a.length && n < b.length && a[a.length - 1 - n] === b[b.length - 1 - n]) n++;
  return n;
}

/**
 * For each recorded path, the chosen file (by its path in the folder, `webkitRelativePath`) that
 * shares the longest suffix of whole components with it, at least the file name; a tie between
 * chosen files is no answer (null), since picking one would show the wrong file's text.
 */
export function mapFolder(recorded: readonly string[], chosen: readonly string[]): Map<string, string | null> {
  const byName = new Map<string, { path: string; parts: string[] }[]>();
  for (const path of chosen) {
    const p = parts(path);
    if (p.length === 0) continue;
    const name = p[p.length - 1];
    let list = byName.get(name);
    if (!list) byName.set(name, (list = []));
    list.push({ path, parts: p });
  }
  const out = new Map<string, string | null>();
  for (const rec of recorded) {
    const r = parts(rec);
    const candidates = r.length > 0 ? byName.get(r[r.length - 1]) : undefined;
    if (!candidates) continue;
    let best = 0;
    let pick: string | null = null;
    for (const c of candidates) {
      const n = commonSuffix(r, c.parts);
      if (n > best) {
        best = n;
        pick = c.path;
      } else if (n === best) pick = null;
    }
    out.set(rec, pick);
  }
  return out;
}

export type LineOrder = 'hot' | 'file';

/**
 * The rows of the figures table: the function's lines hottest first or in file order. Hottest is
 * by total, then self: for a function that calls others, the line of the expensive call.
 */
export function orderedLines(lines: readonly LineWeight[], order: LineOrder): LineWeight[] {
  if (order === 'file') return [...lines];
  return [...lines].sort((a, b) => b.total - a.total || b.self - a.self);
}

/** The file holding the function's heaviest line (by total, then self), or null when none is known. */
export function hottestFile(fl: FunctionLines): string | null {
  let best: LineWeight | null = null;
  for (const l of fl.lines) if (l.file !== null && (!best || l.total > best.total || (l.total === best.total && l.self > best.self))) best = l;
  return best?.file ?? null;
}

export interface ListingRow {
  /** 1-based line number. */
  line: number;
  /** The line's text, or null when the text is not at hand (figures only). */
  text: string | null;
  self: number;
  total: number;
}

export interface Listing {
  rows: ListingRow[];
  /** Index of the row with the most total weight (then self), -1 when no row has weight. */
  hottest: number;
  /** The text had more lines than the listing shows. */
  truncated: boolean;
  /** Lines the function was at beyond the text's end (a stale or wrong file). */
  beyondEnd: number;
}

/**
 * The annotated listing of `file`: with its text, every line of it (up to MAX_LISTING_LINES) with
 * the function's weights at that line; without, only the lines that carry weight, in order.
 */
export function listing(fl: FunctionLines, file: string, text: string | null): Listing {
  const at = new Map<number, LineWeight>();
  for (const l of fl.lines) if (l.file === file && l.line > 0) at.set(l.line, l);
  const rows: ListingRow[] = [];
  let truncated = false;
  let beyondEnd = 0;
  if (text !== null) {
    const lines = text.split(/\r?\n/, MAX_LISTING_LINES + 1);
    if (lines.length > MAX_LISTING_LINES) {
      truncated = true;
      lines.length = MAX_LISTING_LINES;
    } else if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
    for (let i = 0; i < lines.length; i++) {
      const w = at.get(i + 1);
      rows.push({ line: i + 1, text: lines[i], self: w?.self ?? 0, total: w?.total ?? 0 });
    }
    for (const line of at.keys()) if (line > lines.length) beyondEnd++;
  } else {
    for (const w of [...at.values()].sort((a, b) => a.line - b.line)) rows.push({ line: w.line, text: null, self: w.self, total: w.total });
  }
  let hottest = -1;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    if (r.total === 0 && r.self === 0) continue;
    if (hottest < 0 || r.total > rows[hottest].total || (r.total === rows[hottest].total && r.self > rows[hottest].self)) hottest = i;
  }
  return { rows, hottest, truncated, beyondEnd };
}

const LINK_SCHEMES = new Set(['http:', 'https:', 'vscode:', 'vscode-insiders:', 'idea:', 'subl:', 'txmt:', 'file:']);

/** Why a `--source-url` template is refused, or null when it is usable. */
export function checkTemplate(template: string): string | null {
  if (template.length > 2000) return 'the source link template is longer than 2000 characters';
  if (!template.includes('{path}')) return 'the source link template has no {path}';
  const probe = expandTemplate(template, 'a/b.c', 1, true);
  if (probe === null) return `the source link template does not make a link of an allowed kind (${[...LINK_SCHEMES].join(' ')})`;
  return null;
}

/**
 * The link of `path` at `line` from a template with {path} and {line} (e.g.
 * `https://github.com/ORG/REPO/blob/REV/{path}#L{line}`, `vscode://file/{path}:{line}`), or null
 * when the result is not a URL of an allowed scheme (no `javascript:` or `data:` link, whatever
 * the template or the recorded path says). The path is percent-encoded except for its slashes.
 */
export function expandTemplate(template: string, path: string, line: number, skipCheck = false): string | null {
  if (!skipCheck && checkTemplate(template) !== null) return null;
  const encoded = path
    .replace(/\\/g, '/')
    .replace(/^\/+/, (lead) => (template.includes('/{path}') ? '' : lead))
    .split('/')
    .map(encodeURIComponent)
    .join('/');
  const href = template.replace(/\{path\}/g, encoded).replace(/\{line\}/g, String(Math.max(1, line)));
  try {
    return LINK_SCHEMES.has(new URL(href).protocol) ? href : null;
  } catch {
    return null;
  }
}

/** A line as the Source panel names it: `file:line`, `file (no line)`, or `(unknown line)`. */
export function linePlace(l: { file: string | null; line: number }): string {
  return l.file === null ? '(unknown line)' : l.line > 0 ? `${l.file}:${l.line}` : `${l.file} (no line)`;
}

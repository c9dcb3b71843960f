// The source lines of `perf script -F +srcline` (and `-F ip,sym,srcline`): perf 6.x prints, after
// each frame line of a call chain, a line of its own with two blanks and the frame's source
// line, and moves the frame's ` (inlined)` marker from the frame line to that line:
//
//   ⇥            114f work+0xff                       ← no DSO, no marker on an inlined frame
//     t.c:3 (inlined)                                 ← FILE:LINE, then the marker
//   ⇥            114f main+0xff (/tmp/sl/tc)
//     t.c:4
//   ⇥ ffffffff82252cd7 exc_page_fault+0xd7 ([kernel.kallsyms])
//     [kernel.kallsyms][ffffffff82252cd7]             ← no line known: DSO[ADDRESS]
//   ⇥            11e0 _start+0x20 (/tmp/sl/tc)
//     ??:0                                            ← no line known
//
// (tools/perf/util/evsel_fprintf.c, srcline.c.) A frame perf has no map for gets no srcline
// line at all. `--full-source-path` prints paths instead of base names.
//
// Invariants: a srcline line is read only right after a frame line of a kept sample (the
// importer decides, ./perf-script.ts); its text is FILE:LINE with an optional ` (inlined)`, and
// `??:LINE`, `:LINE` and any other text (`DSO[ADDRESS]`) are the unknown location, and `FILE:0` a
// line of a known file with no line number (DWARF's line 0, code the compiler made); each distinct
// text is parsed once and then found in a cache, by text or (byte mode) by its bytes.

import type { SourceLinesBuilder } from '../../model/source-lines';
import { NO_LOCATION } from '../../model/source-lines';
import { ByteKeys } from './perf-byte-keys';
import { detach } from './perf-line';
import { grown } from '../../model/grown';
import { markMutable } from '../../model/mutable-fields';

const INLINED = ' (inlined)';

/** FILE, LINE and the marker of a srcline line's text; `line` -1 when no `:LINE` ends it. */
export function parseSrcline(text: string): { file: string; line: number; inlined: boolean } {
  let start = 0;
  while (start < text.length && (text.charCodeAt(start) === 32 || text.charCodeAt(start) === 9)) start++;
  let end = text.length;
  while (end > start && (text.charCodeAt(end - 1) === 13 || text.charCodeAt(end - 1) === 32)) end--;
  const inlined = text.startsWith(INLINED, end - INLINED.length) && end - INLINED.length >= start;
  if (inlined) end -= INLINED.length;
  const colon = text.lastIndexOf(':', end - 1);
  if (colon < start || colon === end - 1) return { file: text.slice(start, end), line: -1, inlined };
  let line = 0;
  for (let i = colon + 1; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9 || line > 1e9) return { file: text.slice(start, end), line: -1, inlined };
    line = line * 10 + c;
  }
  return { file: text.slice(start, colon), line, inlined };
}

/** Distinct srcline texts → (location, inlined), and their bytes for byte mode. */
export class SrclineCache {
  private readonly ids = new Map<string, number>();
  // Per id (≥ 1): location, inlined (1/0), and where its bytes are kept (REF, -1: not kept) and how many.
  private location = new Int32Array(256);
  private inlined = new Uint8Array(256);
  private ref = new Int32Array(256);
  private length = new Int32Array(256);
  private count = 1;
  readonly keys = new ByteKeys();

  constructor(private readonly lines: SourceLinesBuilder) {
    markMutable(this, ['location', 'inlined', 'ref', 'length']);
  }

  /** The id of this srcline text, parsed on first sight. */
  id(text: string): number {
    const known = this.ids.get(text);
    if (known !== undefined) return known;
    const own = detach(text);
    const { file, line, inlined } = parseSrcline(own);
    const id = this.count++;
    if (id === this.location.length) {
      this.location = grown(this.location, id * 2);
      this.inlined = grown(this.inlined, id * 2);
      this.ref = grown(this.ref, id * 2);
      this.length = grown(this.length, id * 2);
    }
    this.location[id] = line >= 0 ? this.lines.location(file, line) : NO_LOCATION;
    this.inlined[id] = inlined ? 1 : 0;
    const ref = this.keys.addText(own, id);
    this.ref[id] = ref;
    this.length[id] = ref < 0 ? -1 : this.keys.lengthOf(id);
    this.ids.set(own, id);
    return id;
  }

  locationOf(id: number): number {
    return this.location[id];
  }

  isInlined(id: number): boolean {
    return this.inlined[id] === 1;
  }

  /** REF of the id's kept bytes (./perf-byte-keys.ts), or -1. */
  refOf(id: number): number {
    return this.ref[id];
  }

  /** Bytes of the id's text, or -1 when they are not kept. */
  lengthOf(id: number): number {
    return this.length[id];
  }
}

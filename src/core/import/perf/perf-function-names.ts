// One name per function in the function view of a perf recording: the name `perf script
// --no-inline` prints for it, which is the ELF symbol's.
//
// What perf prints (tools/perf/util/srcline.c new_inline_sym): at a return address with inline
// frames it prints only the address's inline list, each entry under the name addr2line gives; an
// entry whose name equals the ELF symbol's is printed as that symbol (with its DSO), any other is
// a made-up symbol marked `(inlined)` that starts where the ELF symbol starts. The outermost
// entry is the physical function, and addr2line often gives it by its short DWARF name
// (`__unguarded_linear_insert<…>`, `_M_invoke`), so at such an address every line is `(inlined)`
// and the ELF name (`std::__unguarded_linear_insert<…>`) is not printed there; --no-inline
// prints the ELF name at every address. Every line's `+0x…` offset counts from the ELF symbol's
// start (inline entries included), so ADDRESS - OFFSET names the physical symbol: where perf
// printed the ELF name at another address with the same start, that is the function's name.
//
// The rule: per symbol start, the physical frames printed with a DSO there (ELF names); per
// frame that was the physical frame of an all-`(inlined)` group, the starts it was seen at. Such
// a frame is named in the function view by the one ELF name found at all of its starts whose
// base name (last `::` component, no template or parameter lists, no `.part.0`-like clone
// suffix or `@@VERSION`) equals its own; otherwise (never printed, or two candidates) it keeps
// its name. Addresses are per DSO, and an `(inlined)` line does not say its DSO, so the base
// name check is what keeps two DSOs' symbols at one offset apart. The inline-frame view keeps
// what perf printed.
//
// Invariants: each address is noted once per parser (perf prints the same group for it every
// time); a part hands its notes over as plain data (data()), and the merge resolves them in
// merged frames, so one parser and the parts give the same names.

import type { FrameTable } from '../../model/frame-table';
import { StringTable } from '../../model/string-table';

/** FunctionNames.data(): notes in the parser's own frame numbers. */
export interface FunctionNamesData {
  /** Physical frames of all-`(inlined)` groups, and the symbol start (hex) each was seen at. */
  shortFrames: Int32Array;
  shortStarts: string[];
  /** Physical frames printed with a DSO, and their symbol starts. */
  elfFrames: Int32Array;
  elfStarts: string[];
}

export class FunctionNames {
  private readonly starts = new StringTable();
  private readonly shortFrames: number[] = [];
  private readonly shortStarts: number[] = [];
  private readonly elfFrames: number[] = [];
  private readonly elfStarts: number[] = [];

  /** The id of the symbol start of a line whose address and `+0x…` offset are given (hex), -1 without an offset. */
  startOf(text: string, addrStart: number, addrEnd: number, offsetStart: number, offsetEnd: number): number {
    if (offsetStart < 0 || offsetEnd <= offsetStart) return -1;
    const address = text.slice(addrStart, addrEnd);
    const offset = text.slice(offsetStart, offsetEnd);
    // Below 2^52 a double is exact; kernel addresses (16 digits) go through BigInt.
    const start =
      address.length <= 13 ? (parseInt(address, 16) - parseInt(offset, 16)).toString(16) : (BigInt(`0x${address}`) - BigInt(`0x${offset}`)).toString(16);
    return this.starts.intern(start);
  }

  /** Notes the physical frame of an address's group: `short` when every line of it was `(inlined)`. */
  note(frame: number, start: number, short: boolean): void {
    if (start < 0) return;
    if (short) {
      this.shortFrames.push(frame);
      this.shortStarts.push(start);
    } else {
      this.elfFrames.push(frame);
      this.elfStarts.push(start);
    }
  }

  data(): FunctionNamesData {
    const text = (ids: number[]) => ids.map((id) => this.starts.get(id));
    return { shortFrames: Int32Array.from(this.shortFrames), shortStarts: text(this.shortStarts), elfFrames: Int32Array.from(this.elfFrames), elfStarts: text(this.elfStarts) };
  }
}

/**
 * Per frame of the merged table, the frame the function view names it by (see the module
 * comment); null when no frame is renamed. `frameMaps[part]` maps a part's frames (absent: the
 * part's frames are the table's own).
 */
export function functionFrames(frames: FrameTable, parts: readonly FunctionNamesData[], frameMaps: readonly Int32Array[]): Int32Array | null {
  const elfAt = new Map<string, Set<number>>();
  const shortAt = new Map<number, Set<string>>();
  parts.forEach((p, part) => {
    const map = frameMaps[part];
    const mapped = (f: number) => (map ? map[f] : f);
    p.elfFrames.forEach((f, i) => {
      const set = elfAt.get(p.elfStarts[i]) ?? new Set<number>();
      set.add(mapped(f));
      elfAt.set(p.elfStarts[i], set);
    });
    p.shortFrames.forEach((f, i) => {
      const set = shortAt.get(mapped(f)) ?? new Set<string>();
      set.add(p.shortStarts[i]);
      shortAt.set(mapped(f), set);
    });
  });
  let renamed: Int32Array | null = null;
  const names = frames.strings;
  for (const [frame, starts] of shortAt) {
    const base = baseName(names[frames.name[frame]]);
    if (base === '') continue;
    let chosen = -1;
    for (const start of starts) {
      const candidates = [...(elfAt.get(start) ?? [])].filter((f) => f !== frame && baseName(names[frames.name[f]]) === base);
      if (candidates.length !== 1 || (chosen >= 0 && candidates[0] !== chosen)) {
        chosen = -1;
        break;
      }
      chosen = candidates[0];
    }
    if (chosen < 0) continue;
    if (!renamed) {
      renamed = new Int32Array(frames.count);
      for (let f = 0; f < frames.count; f++) renamed[f] = f;
    }
    renamed[frame] = chosen;
  }
  return renamed;
}

/**
 * A function name's last `::` component without template or parameter lists, GCC clone suffixes
 * (`.part.0`, `.constprop.1`, `.isra.0`, `.cold`) or a symbol version (`@@GLIBC_2.34`):
 * `std::__move_merge<…>` and `__move_merge<…>` are both `__move_merge`, `operator()<…>` is
 * `operator()`.
 */
export function baseName(name: string): string {
  let depth = 0;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const c = name[i];
    if (depth === 0 && name.startsWith('operator', i) && !/[A-Za-z0-9_]/.test(name[i - 1] ?? ' ')) {
      // The operator's own token (`()`, `<`, `<<`, `->`, `new`…) is part of the name, not a list.
      const m = /^operator\s*(\(\)|\[\]|->\*?|<<=?|>>=?|<=>|[-+*/%^&|~!=<>,]=?|&&|\|\||\+\+|--|new(\[\])?|delete(\[\])?|""\s*\w+|\s+[\w:]+)?/.exec(name.slice(i))!;
      out += m[0];
      i += m[0].length - 1;
      continue;
    }
    if (c === '<' || c === '(' || c === '[' || c === '{') depth++;
    else if (c === '>' || c === ')' || c === ']' || c === '}') depth = Math.max(0, depth - 1);
    else if (depth === 0) {
      if (c === ':' && name[i + 1] === ':') {
        out = '';
        i++;
      } else out += c;
    }
  }
  out = out.trim();
  const at = out.indexOf('@');
  if (at > 0) out = out.slice(0, at);
  const dot = out.search(/\.(part|constprop|isra|cold|lto_priv|localalias)\b/);
  return dot > 0 ? out.slice(0, dot) : out;
}

// Scanners for the two kinds of `perf script` lines (see fixtures/README.md, "perf script line
// formats observed"), written as charCodeAt loops over index ranges: no regex, no allocation.
//
//   sample header:  COMM [PID/]TID [[CPU]] TIME: [PERIOD] EVENT:[  ADDR SYM (DSO)]
//   without time:   COMM [PID/]TID [[CPU]] [PERIOD] EVENT:[  ADDR SYM (DSO)]   (perf 3.x's
//                   default, `perf script -F comm,pid,event,…` today)
//   frame line:     ⇥ ADDR SYM[+0xOFF] [(DSO)]
//
// Invariants:
// - a header is recognised from its TIME token (`digits.digits:` after whitespace) and read
//   right to left from there: optional `[CPU]`, then `TID` or `PID/TID`, and everything before is
//   COMM. So `toyc worker 1 13266 …` gives COMM `toyc worker 1` (perl and inferno stop at the first
//   number and give `toyc worker`; that is deliberate).
// - a header without TIME is only tried when no TIME token fits; it is read right to left from
//   its EVENT (the first `name:` token followed by the line end or by a frame `ADDR SYM`), and of
//   two numbers before the event the last is the PERIOD (perf prints it there), as perl reads
//   them. Its time range is -1, so the recording has no time order.
// - every field is returned as a half-open index range into the line; -1 marks an absent field.
// - a frame's DSO is the last balanced `(…)` group that ends the line and follows a space, so
//   symbols with parentheses (`FnOnce<()>`) and DSOs like `(/x.so (deleted))` both work.

const SPACE = 32;
const TAB = 9;
const COLON = 58;
const DOT = 46;
const SLASH = 47;
const LBRACKET = 91;
const RBRACKET = 93;
const LPAREN = 40;
const RPAREN = 41;

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB;
}

function isDigit(c: number): boolean {
  return c >= 48 && c <= 57;
}

function isHex(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70);
}

/** Fields of a sample header line, as index ranges into the line. */
export interface HeaderFields {
  commStart: number;
  commEnd: number;
  /** -1 when the line has no `PID/` part (plain `perf script` prints only the TID). */
  pidStart: number;
  pidEnd: number;
  tidStart: number;
  tidEnd: number;
  /** The TIME token without its colon (`678.130161`); -1 when the header has none. */
  timeStart: number;
  timeEnd: number;
  /** -1 when there is no period column (old perf). The text is not validated here. */
  periodStart: number;
  periodEnd: number;
  /** The event as printed, without the colon that ends it: `cpu-clock:ppp`. */
  eventStart: number;
  eventEnd: number;
  /** Start of a frame on the same line (a sample without call chain), or -1. */
  restStart: number;
}

export function newHeaderFields(): HeaderFields {
  return {
    commStart: -1,
    commEnd: -1,
    pidStart: -1,
    pidEnd: -1,
    tidStart: -1,
    tidEnd: -1,
    timeStart: -1,
    timeEnd: -1,
    periodStart: -1,
    periodEnd: -1,
    eventStart: -1,
    eventEnd: -1,
    restStart: -1,
  };
}

/** Parses a sample header line into `out`. Returns false when the line is not one. */
export function parseHeader(text: string, out: HeaderFields): boolean {
  let from = 0;
  for (;;) {
    const colon = text.indexOf(':', from);
    if (colon < 0) return parseTimelessHeader(text, out);
    from = colon + 1;
    if (matchBeforeTime(text, colon, out) && matchAfterTime(text, colon, out)) return true;
  }
}

/** COMM [PID/]TID [[CPU]] before the TIME token that ends at `colon`. */
function matchBeforeTime(text: string, colon: number, out: HeaderFields): boolean {
  if (colon === 0 || !isDigit(text.charCodeAt(colon - 1))) return false;
  let t = colon;
  for (let c = text.charCodeAt(t - 1); t > 0 && (isDigit(c) || c === DOT); c = text.charCodeAt(t - 1)) t--;
  if (!matchThread(text, t, out)) return false;
  out.timeStart = t;
  out.timeEnd = colon;
  return true;
}

/** COMM [PID/]TID [[CPU]] followed by a blank and the token at `t`. */
function matchThread(text: string, t: number, out: HeaderFields): boolean {
  if (t === 0 || !isBlank(text.charCodeAt(t - 1))) return false;
  let j = t - 1;
  while (j > 0 && isBlank(text.charCodeAt(j - 1))) j--;
  if (j > 0 && text.charCodeAt(j - 1) === RBRACKET) {
    let k = j - 1;
    while (k > 0 && isDigit(text.charCodeAt(k - 1))) k--;
    if (k === j - 1 || k === 0 || text.charCodeAt(k - 1) !== LBRACKET) return false;
    k--;
    if (k === 0 || !isBlank(text.charCodeAt(k - 1))) return false;
    j = k;
    while (j > 0 && isBlank(text.charCodeAt(j - 1))) j--;
  }
  const tidEnd = j;
  let k = signedDigitsBefore(text, j);
  if (k === tidEnd) return false;
  out.tidStart = k;
  out.tidEnd = tidEnd;
  out.pidStart = -1;
  out.pidEnd = -1;
  if (k > 0 && text.charCodeAt(k - 1) === SLASH) {
    const pidEnd = k - 1;
    const m = signedDigitsBefore(text, pidEnd);
    if (m === pidEnd) return false;
    out.pidStart = m;
    out.pidEnd = pidEnd;
    k = m;
  }
  if (k === 0 || !isBlank(text.charCodeAt(k - 1))) return false;
  let commEnd = k - 1;
  while (commEnd > 0 && isBlank(text.charCodeAt(commEnd - 1))) commEnd--;
  let commStart = 0;
  while (commStart < commEnd && isBlank(text.charCodeAt(commStart))) commStart++;
  if (commStart >= commEnd) return false;
  out.commStart = commStart;
  out.commEnd = commEnd;
  return true;
}

/**
 * Where the digits ending at `end` start, a minus sign included when it makes `-1`: perf prints a
 * task it could not name as `:-1    -1` (COMM `:-1`, TID -1), in system-wide recordings.
 */
function signedDigitsBefore(text: string, end: number): number {
  let k = end;
  while (k > 0 && isDigit(text.charCodeAt(k - 1))) k--;
  if (k === end - 1 && text.charCodeAt(k) === 49 /* 1 */ && k > 0 && text.charCodeAt(k - 1) === 45 /* - */) k--;
  return k;
}

const restFrame: FrameFields = { addrStart: -1, addrEnd: -1, symStart: -1, symEnd: -1, dsoStart: -1, dsoEnd: -1 };

/** COMM [PID/]TID [[CPU]] [PERIOD] EVENT: without a TIME token (see the invariants above). */
function parseTimelessHeader(text: string, out: HeaderFields): boolean {
  const n = text.length;
  for (let colon = text.indexOf(':'); colon >= 0; colon = text.indexOf(':', colon + 1)) {
    if (colon + 1 < n && !isBlank(text.charCodeAt(colon + 1))) continue;
    let e = colon;
    while (e > 0 && !isBlank(text.charCodeAt(e - 1))) e--;
    // An event name never starts with a digit; a token like `12.5:` is a broken TIME.
    if (e === colon || e === 0 || isDigit(text.charCodeAt(e))) continue;
    let p = colon + 1;
    while (p < n && isBlank(text.charCodeAt(p))) p++;
    // What follows the event is nothing or a frame with a real address, so prose is no header.
    if (p < n && !(parseFrame(text, p, restFrame) && restFrame.addrEnd - restFrame.addrStart >= 4)) continue;
    let j = e - 1;
    while (j > 0 && isBlank(text.charCodeAt(j - 1))) j--;
    out.periodStart = -1;
    out.periodEnd = -1;
    let threadEnd = e;
    let k = j;
    while (k > 0 && isDigit(text.charCodeAt(k - 1))) k--;
    if (k < j && k > 0 && isBlank(text.charCodeAt(k - 1))) {
      // A number right before the event is the PERIOD when a [PID/]TID or [CPU] token precedes it.
      let m = k - 1;
      while (m > 0 && isBlank(text.charCodeAt(m - 1))) m--;
      let q = m;
      while (q > 0 && (isDigit(text.charCodeAt(q - 1)) || text.charCodeAt(q - 1) === SLASH)) q--;
      const tidBefore = q < m && q > 0 && isBlank(text.charCodeAt(q - 1));
      if (tidBefore || (m > 0 && text.charCodeAt(m - 1) === RBRACKET)) {
        out.periodStart = k;
        out.periodEnd = j;
        threadEnd = k;
      }
    }
    if (!matchThread(text, threadEnd, out)) continue;
    out.timeStart = -1;
    out.timeEnd = -1;
    out.eventStart = e;
    out.eventEnd = colon;
    out.restStart = p < n ? p : -1;
    return true;
  }
  return false;
}

/** [PERIOD] EVENT: and an optional same-line frame after the TIME token's colon. */
function matchAfterTime(text: string, colon: number, out: HeaderFields): boolean {
  const n = text.length;
  let p = colon + 1;
  while (p < n && isBlank(text.charCodeAt(p))) p++;
  const a1 = p;
  while (p < n && !isBlank(text.charCodeAt(p))) p++;
  const b1 = p;
  if (a1 === b1) return false;
  if (text.charCodeAt(b1 - 1) === COLON) {
    if (b1 - 1 === a1) return false;
    out.periodStart = -1;
    out.periodEnd = -1;
    out.eventStart = a1;
    out.eventEnd = b1 - 1;
  } else {
    while (p < n && isBlank(text.charCodeAt(p))) p++;
    const a2 = p;
    while (p < n && !isBlank(text.charCodeAt(p))) p++;
    const b2 = p;
    if (a2 === b2 || text.charCodeAt(b2 - 1) !== COLON || b2 - 1 === a2) return false;
    out.periodStart = a1;
    out.periodEnd = b1;
    out.eventStart = a2;
    out.eventEnd = b2 - 1;
  }
  while (p < n && isBlank(text.charCodeAt(p))) p++;
  out.restStart = p < n ? p : -1;
  return true;
}

/** The period as a number, or -1 when the text is not a non-negative integer. */
export function parsePeriod(text: string, start: number, end: number): number {
  if (start >= end || end - start > 20) return -1;
  let v = 0;
  for (let i = start; i < end; i++) {
    const c = text.charCodeAt(i);
    if (!isDigit(c)) return -1;
    v = v * 10 + (c - 48);
  }
  return v;
}

/**
 * The TIME token (`secs.usecs`, or `secs.nsecs` with --ns) in seconds, or -1 when it is not
 * `digits[.digits]`. Parsed as one integer divided by a power of ten, which rounds like
 * parseFloat (both are exact doubles up to 15 digits) without slicing the line.
 */
export function parseTime(text: string, start: number, end: number): number {
  parseTimeInto(text, start, end, timeScratch);
  return timeScratch[0];
}

const timeScratch = new Float64Array(1);
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

/**
 * parseTime writing its result into out[0]: a double returned from a call that is not inlined is
 * boxed on the heap, a double stored into a Float64Array is not (one box per sample adds up).
 * The digit loops stay in small-integer arithmetic (up to 9 digits each side).
 */
export function parseTimeInto(text: string, start: number, end: number, out: Float64Array): void {
  out[0] = -1;
  if (start >= end || end - start > 22) return;
  let whole = 0;
  let i = start;
  for (; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) break;
    whole = whole * 10 + c;
  }
  if (i === start) return;
  if (i === end) {
    out[0] = whole;
    return;
  }
  if (text.charCodeAt(i) !== DOT || i === end - 1) return;
  const fracStart = ++i;
  let frac = 0;
  for (; i < end; i++) {
    const c = text.charCodeAt(i) - 48;
    if (c < 0 || c > 9) return;
    frac = frac * 10 + c;
  }
  const scale = POW10[end - fracStart];
  out[0] = (whole * scale + frac) / scale;
}


/** Fields of a frame line. */
export interface FrameFields {
  addrStart: number;
  addrEnd: number;
  /** The symbol, with any `+0x…` offset already excluded. May be empty (`addr (dso)`). */
  symStart: number;
  symEnd: number;
  /** The text inside the DSO's parentheses, or -1 when the line has no `(dso)`. */
  dsoStart: number;
  dsoEnd: number;
}

export function newFrameFields(): FrameFields {
  return { addrStart: -1, addrEnd: -1, symStart: -1, symEnd: -1, dsoStart: -1, dsoEnd: -1 };
}

/**
 * Parses a frame line from `start` (leading blanks are skipped). Returns false when the text is
 * not `ADDR SYMBOL…`: the address must be hexadecimal and followed by something.
 */
export function parseFrame(text: string, start: number, out: FrameFields): boolean {
  const n = text.length;
  let i = start;
  while (i < n && isBlank(text.charCodeAt(i))) i++;
  const addrStart = i;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) break;
    if (!isHex(c)) return false;
  }
  if (i === addrStart || i === n) return false;
  out.addrStart = addrStart;
  out.addrEnd = i;
  while (i < n && isBlank(text.charCodeAt(i))) i++;
  const symStart = i;
  let end = n;
  while (end > symStart && (isBlank(text.charCodeAt(end - 1)) || text.charCodeAt(end - 1) === 13)) end--;
  if (end === symStart) return false;
  let symEnd = end;
  out.dsoStart = -1;
  out.dsoEnd = -1;
  if (text.charCodeAt(end - 1) === RPAREN) {
    let depth = 0;
    let k = end - 1;
    for (; k >= symStart; k--) {
      const c = text.charCodeAt(k);
      if (c === RPAREN) depth++;
      else if (c === LPAREN && --depth === 0) break;
    }
    if (k >= symStart && (k === symStart || isBlank(text.charCodeAt(k - 1)))) {
      out.dsoStart = k + 1;
      out.dsoEnd = end - 1;
      symEnd = k;
      while (symEnd > symStart && isBlank(text.charCodeAt(symEnd - 1))) symEnd--;
    }
  }
  out.symStart = symStart;
  out.symEnd = stripOffset(text, symStart, symEnd);
  return true;
}

/** End of the symbol without a trailing `+0x<hex>` offset. */
function stripOffset(text: string, start: number, end: number): number {
  if (end - start < 4) return end;
  const plus = text.lastIndexOf('+0x', end - 4);
  if (plus < start) return end;
  for (let i = plus + 3; i < end; i++) if (!isHex(text.charCodeAt(i))) return end;
  return plus;
}

/**
 * Kernel DSOs as inferno decides (collapse/matcher.rs): `[kernel.kallsyms]`, any other `[…]`
 * pseudo-DSO except `[unknown]` (so `[vdso]` too), `*.ko` modules, and `vmlinux` images.
 */
export function isKernelDso(dso: string): boolean {
  if (dso === '[unknown]') return false;
  if (dso.charCodeAt(0) === LBRACKET || dso.endsWith('.ko')) return true;
  const vm = dso.lastIndexOf('vmlinux');
  return vm >= 0 && /^[A-Za-z0-9._-]*$/.test(dso.slice(vm));
}

/** JIT code as inferno decides: perf map files (`/tmp/perf-PID.map`) and jitdump `jitted-*.so`. */
export function isJitDso(dso: string): boolean {
  return (dso.startsWith('/tmp/perf-') && dso.endsWith('.map')) || (dso.includes('/jitted-') && dso.endsWith('.so'));
}

/** `[basename]` of a DSO path: the name stackcollapse-perf.pl gives an `[unknown]` symbol. */
export function dsoFallbackName(dso: string): string {
  return '[' + dso.slice(dso.lastIndexOf('/') + 1) + ']';
}

/**
 * A copy of `s` that does not keep the string it was sliced from alive. V8 represents a substring
 * as a view into its parent, so a frame name sliced from a line sliced from a decoded chunk would
 * pin the whole chunk (megabytes) for the life of the profile. Used on first sight of a string.
 */
export function detach(s: string): string {
  return (' ' + s).slice(1);
}

/** A line that starts with a blank: 0 blank, 1 frame candidate (a hex token, then a blank), 2 other. */
export function classifyIndented(text: string): 0 | 1 | 2 {
  const n = text.length;
  // perf prints frames as TAB + the address right-aligned in 16 columns + a space: check the
  // column where that layout puts the space (parseFrame validates the rest later).
  if (n > 18 && text.charCodeAt(0) === TAB && text.charCodeAt(17) === SPACE && isHex(text.charCodeAt(16))) return 1;
  let i = 0;
  while (i < n && (isBlank(text.charCodeAt(i)) || text.charCodeAt(i) === 13)) i++;
  if (i === n) return 0;
  const start = i;
  for (; i < n; i++) {
    const c = text.charCodeAt(i);
    if (isBlank(c)) return i > start ? 1 : 2;
    if (!isHex(c)) return 2;
  }
  return 2;
}

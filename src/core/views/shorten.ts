// Short labels for long C++ and Rust function names (the full name stays in the tooltip).
//
//   std::vector<int, std::allocator<int> >::push_back(int const&)   → std::vector<…>::push_back()
//   std::function<int (int, int)>::operator()(int, int) const        → std::function<…>::operator()()
//   <alloc::vec::Vec<T> as core::iter::FromIterator<T>>::from_iter   → <Vec<T> as FromIterator<T>>::from_iter
//   (a group no longer than its replacement, `<T>` or `()`, is kept)
//   core::iter::Iterator::collect::<Vec<_>>                          → core::iter::Iterator::collect::<…>
//   core::iter::range::<impl core::iter::Iterator for core::ops::Range<A>>::next
//                                                  → core::iter::range::<impl Iterator for Range<A>>::next
//   toyc::parse::h0123456789abcdef                                   → toyc::parse   (stripRustHash)
//
// Rules: every outermost bracket group `<…>` becomes `<…>` and every outermost `(…)` becomes
// `()`, except `(anonymous namespace)` (kept) and a '(' right after '.' (a Go method such as
// `net/http.(*Client).Do`: kept). A Rust qualified path `<A as B>::f` at the start keeps the last
// path segment of A and of B, with their own generics elided. `operator<`, `operator<<`,
// `operator->`, … and `->` are not brackets. Unbalanced brackets are kept as they are.
// Invariants: linear time (brackets are paired by one stack pass, no recursion); the result is
// never longer than the input plus a few characters; a name with nothing to elide is returned
// unchanged (the same string).

const RUST_HASH = /::h[0-9a-f]{16}$/;

/** Removes the `::h<16 hex>` suffix rustc's legacy mangling leaves when perf half-demangles. */
export function stripRustHash(name: string): string {
  return RUST_HASH.test(name) ? name.slice(0, -19) : name;
}

const ANON = '(anonymous namespace)';
const OPERATOR = 'operator';

/** Length of an operator token made of bracket characters at i (after `operator`), else 0. */
function operatorToken(name: string, i: number): number {
  const a = name.charCodeAt(i);
  const b = name.charCodeAt(i + 1);
  const c = name.charCodeAt(i + 2);
  if (a === 60 /* < */) return (b === 61 && c === 62) || (b === 60 && c === 61) ? 3 : b === 60 || b === 61 ? 2 : 1;
  if (a === 62 /* > */) return b === 62 && c === 61 ? 3 : b === 62 || b === 61 ? 2 : 1;
  if (a === 45 /* - */ && b === 62) return c === 42 ? 3 : 2;
  if (a === 40 /* ( */ && b === 41 /* ) */) return 2; // operator()
  return 0;
}

function isBoundary(c: number): boolean {
  return Number.isNaN(c) || c === 58 || c === 32 || c === 60 || c === 44 || c === 40 || c === 38 || c === 42;
}

/**
 * For each '<' or '(' that opens a group, the index of its closer; -1 elsewhere. Operator tokens
 * and `->` are skipped. One pass with an explicit stack.
 */
function pairBrackets(name: string): Int32Array {
  const n = name.length;
  const match = new Int32Array(n).fill(-1);
  const stack = new Int32Array(n);
  let top = 0;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c === 111 /* o */ && name.startsWith(OPERATOR, i) && isBoundary(i === 0 ? NaN : name.charCodeAt(i - 1))) {
      const t = operatorToken(name, i + OPERATOR.length);
      if (t > 0) i += OPERATOR.length + t - 1;
    } else if (c === 60 || c === 40) {
      stack[top++] = i;
    } else if (c === 62 /* > */) {
      if (i > 0 && name.charCodeAt(i - 1) === 45 /* - */) continue;
      if (top > 0 && name.charCodeAt(stack[top - 1]) === 60) match[stack[--top]] = i;
    } else if (c === 41 /* ) */) {
      if (top > 0 && name.charCodeAt(stack[top - 1]) === 40) match[stack[--top]] = i;
    }
  }
  return match;
}

/** Every outermost group elided (see the module comment), without the qualified-path rule. */
function elideGroups(name: string, match: Int32Array = pairBrackets(name)): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < name.length; i++) {
    const close = match[i];
    if (close < 0) continue;
    const isParen = name.charCodeAt(i) === 40;
    if (isParen && name.startsWith(ANON, i)) {
      i = close;
      continue;
    }
    if (isParen && i > 0 && name.charCodeAt(i - 1) === 46 /* . */) {
      i = close;
      continue;
    }
    const replacement = isParen ? '()' : name.startsWith('impl ', i + 1) ? implLabel(name.slice(i + 6, close)) : '<…>';
    if (close - i + 1 <= replacement.length) {
      i = close;
      continue; // `()` and `<T>`-sized groups gain nothing
    }
    out += name.slice(from, i) + replacement;
    from = close + 1;
    i = close;
  }
  return from === 0 ? name : out + name.slice(from);
}

const POINTER_PREFIX = /^(?:&(?:mut )?|\*(?:const|mut) |dyn )*/;

/** The last `::` segment of a path, generics elided, keeping a leading `&`, `&mut `, `dyn `… */
function lastSegment(path: string): string {
  const prefix = POINTER_PREFIX.exec(path)![0];
  const elided = elideGroups(path.slice(prefix.length));
  const cut = lastTopLevelColons(elided);
  return prefix + (cut < 0 ? elided : elided.slice(cut + 2));
}

/** Index of the last `::` outside brackets (after elision only `<…>`/`()` remain), or -1. */
export function lastTopLevelColons(s: string): number {
  let depth = 0;
  for (let i = s.length - 1; i > 0; i--) {
    const c = s.charCodeAt(i);
    if (c === 62 || c === 41) depth++;
    else if ((c === 60 || c === 40) && depth > 0) depth--;
    else if (depth === 0 && c === 58 && s.charCodeAt(i - 1) === 58) return i - 1;
  }
  return -1;
}

/** `<impl Trait for Type>` (Rust's inherent/trait impl blocks) with both paths shortened. */
function implLabel(body: string): string {
  const match = pairBrackets(body);
  for (let i = 0; i < body.length; i++) {
    if (match[i] >= 0) i = match[i];
    else if (body.startsWith(' for ', i)) return `<impl ${lastSegment(body.slice(0, i))} for ${lastSegment(body.slice(i + 5))}>`;
  }
  return `<impl ${lastSegment(body)}>`;
}

/** Index of " as " at bracket depth 0 within s, or -1. */
function topLevelAs(s: string): number {
  const match = pairBrackets(s);
  for (let i = 0; i < s.length; i++) {
    if (match[i] >= 0) i = match[i];
    else if (s.startsWith(' as ', i)) return i;
  }
  return -1;
}

/** A short label for a C++ or Rust function name (see the module comment). */
export function shortenName(name: string): string {
  const base = stripRustHash(name);
  const match = pairBrackets(base);
  if (base.charCodeAt(0) === 60 /* < */ && match[0] > 0) {
    const close = match[0];
    const inner = base.slice(1, close);
    const as = topLevelAs(inner);
    const head = as < 0 ? lastSegment(inner) : `${lastSegment(inner.slice(0, as))} as ${lastSegment(inner.slice(as + 4))}`;
    return `<${head}>` + elideGroups(base.slice(close + 1));
  }
  return elideGroups(base, match);
}

/** The most characters of a name the details, titles and tables show; longer names are cut (shownName). */
export const MAX_SHOWN_NAME = 2000;
/** The most a tooltip shows: it must fit beside the pointer (about a dozen lines). */
export const MAX_TOOLTIP_NAME = 500;

/**
 * A name as the page shows it: whole up to `max` characters, else its start and end around an
 * ellipsis, with its length (a 1 MB generated name would otherwise be a megabyte of text in the
 * page, and says nothing more than its ends do).
 */
export function shownName(name: string, max = MAX_SHOWN_NAME): { text: string; cut: number } {
  if (name.length <= max) return { text: name, cut: 0 };
  const tail = Math.floor(max / 10);
  const head = max - tail;
  return { text: `${name.slice(0, head)}…${name.slice(-tail)}`, cut: name.length };
}

/** shownName's text alone, for a title or a one-line label. */
export function cutName(name: string): string {
  return shownName(name).text;
}

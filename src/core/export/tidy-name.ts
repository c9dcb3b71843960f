// Function-name tidying for folded output, following inferno-collapse-perf (0.12) so
// `flameview collapse` is a drop-in replacement for it:
//
//   std::ostream::operator<<(int)                  → std::ostream::operator<<
//   std::function<int (int, int)>::operator()      → std::function<int (int, int)>::operator
//   <HashMap<K, V> as FromIterator<(K, V)>>::from_iter   (unchanged: the '(' is inside <…>)
//   net/http.(*Client).Do                          (unchanged: Go method, '(' right after '.')
//   (anonymous namespace)::parse(char const*)      → (anonymous namespace)::parse
//   a;b                                            → a:b  (';' separates frames in folded text)
//
// Rules: the name is cut at the first '(' outside template brackets <…>, unless that '(' opens
// "(anonymous namespace)" (skipped over; the search goes on) or follows a '.' (a Go method:
// the name is kept whole). "->" and the operators `operator<`, `<<`, `<=`, `>`, `>>`, `>=`, `->`,
// `<=>` do not count as brackets. Quotes are kept (inferno keeps them; flamegraph.pl deletes
// them). Invariant: the result never contains ';'.

const ANON = '(anonymous namespace)';
const OPERATOR = 'operator';

function isScopeBoundary(c: number): boolean {
  return c === 58 /* : */ || c === 32 || c === 60 /* < */ || c === 44 /* , */;
}

/** Length of the operator token after `operator` at i (for `<`, `<<`, `->`, …), else 0. */
function operatorTokenLength(name: string, i: number): number {
  const a = name.charCodeAt(i);
  const b = name.charCodeAt(i + 1);
  const c = name.charCodeAt(i + 2);
  if (a === 60 /* < */) {
    if (b === 61 /* = */ && c === 62 /* > */) return 3;
    if (b === 60 && c === 61) return 3; // <<=
    if (b === 60 || b === 61) return 2;
    return 1;
  }
  if (a === 62 /* > */) {
    if (b === 62 && c === 61) return 3; // >>=
    if (b === 62 || b === 61) return 2;
    return 1;
  }
  if (a === 45 /* - */ && b === 62) return c === 42 /* * */ ? 3 : 2; // -> and ->*
  return 0;
}

/** The inferno-style tidy name (see the module comment). */
export function tidyName(name: string): string {
  const cut = argumentListStart(name);
  const kept = cut < 0 ? name : name.slice(0, cut);
  return kept.indexOf(';') >= 0 ? kept.replaceAll(';', ':') : kept;
}

/**
 * tidyName for tables read by people (`flameview top`): the call operator keeps its `()`, as the
 * viewer shows it (`…::operator()`, not inferno's `…::operator`).
 */
export function readableTidyName(name: string): string {
  const cut = argumentListStart(name);
  if (cut >= OPERATOR.length && name.startsWith('()', cut) && name.startsWith(OPERATOR, cut - OPERATOR.length)) {
    return rawName(name.slice(0, cut + 2)) + tidyName(name.slice(cut + 2));
  }
  return tidyName(name);
}

/** Names as recorded: only ';' is replaced, as the folded format requires. */
export function rawName(name: string): string {
  return name.indexOf(';') >= 0 ? name.replaceAll(';', ':') : name;
}

/** Index of the '(' that starts the argument list, or -1 when nothing is cut. */
export function argumentListStart(name: string): number {
  let depth = 0;
  const n = name.length;
  for (let i = 0; i < n; i++) {
    const c = name.charCodeAt(i);
    if (c === 40 /* ( */) {
      if (depth > 0) continue;
      if (name.startsWith(ANON, i)) {
        i += ANON.length - 1;
        continue;
      }
      if (i > 0 && name.charCodeAt(i - 1) === 46 /* . */) return -1;
      return i;
    } else if (c === 60 /* < */) {
      depth++;
    } else if (c === 62 /* > */) {
      if (i > 0 && name.charCodeAt(i - 1) === 45 /* - */) continue; // "->" in `() -> T`
      if (depth > 0) depth--;
    } else if (c === 111 /* o */ && name.startsWith(OPERATOR, i) && (i === 0 || isScopeBoundary(name.charCodeAt(i - 1)))) {
      const t = operatorTokenLength(name, i + OPERATOR.length);
      if (t > 0) i += OPERATOR.length + t - 1;
    }
  }
  return -1;
}

// Finishes the demangling of legacy Rust symbols that old perf versions printed half-demangled:
//   gc::gc::GcBox$LT$T$GT$::new::_$u7b$$u7b$closure$u7d$$u7d$::ha2ed0674a1c3dc9f
//   → gc::gc::GcBox<T>::new::_{{closure}}
// as inferno's collapse-perf does (fix_partially_demangled_rust_symbol, after rustc-demangle's
// legacy.rs). Only names ending in a Rust hash (`h` + 16 hex digits) are touched; the hash is
// dropped, as rustc-demangle's default display does. Runs once per distinct symbol, not per line.

const HASH_LENGTH = 17;

const ESCAPES: readonly (readonly [string, string])[] = [
  ['$SP$', '@'],
  ['$BP$', '*'],
  ['$RF$', '&'],
  ['$LT$', '<'],
  ['$GT$', '>'],
  ['$LP$', '('],
  ['$RP$', ')'],
  ['$C$', ','],
  ['$u7e$', '~'],
  ['$u20$', ' '],
  ['$u27$', "'"],
  ['$u3d$', '='],
  ['$u5b$', '['],
  ['$u5d$', ']'],
  ['$u7b$', '{'],
  ['$u7d$', '}'],
  ['$u3b$', ';'],
  ['$u2b$', '+'],
  ['$u21$', '!'],
  ['$u22$', '"'],
];

function isRustHash(name: string, start: number): boolean {
  if (name.charCodeAt(start) !== 104 /* h */) return false;
  for (let i = start + 1; i < name.length; i++) {
    const c = name.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 97 && c <= 102) || (c >= 65 && c <= 70))) return false;
  }
  return true;
}

/** The symbol with legacy Rust mangling escapes resolved, or the symbol itself. */
export function fixRustLegacyName(symbol: string): string {
  if (symbol.length < HASH_LENGTH || !isRustHash(symbol, symbol.length - HASH_LENGTH)) return symbol;
  let rest = symbol.slice(0, symbol.length - HASH_LENGTH);
  if (rest.endsWith('::')) rest = rest.slice(0, -2);
  if (rest.startsWith('_$')) rest = rest.slice(1);
  let out = '';
  let i = 0;
  while (i < rest.length) {
    const c = rest.charCodeAt(i);
    if (c === 46 /* . */) {
      if (rest.charCodeAt(i + 1) === 46) {
        out += '::';
        i += 2;
      } else {
        out += '.';
        i += 1;
      }
    } else if (c === 36 /* $ */) {
      const escape = ESCAPES.find(([pattern]) => rest.startsWith(pattern, i));
      if (!escape) {
        out += rest.slice(i);
        break;
      }
      out += escape[1];
      i += escape[0].length;
    } else {
      let j = i + 1;
      while (j < rest.length && rest.charCodeAt(j) !== 36 && rest.charCodeAt(j) !== 46) j++;
      out += rest.slice(i, j);
      i = j;
    }
  }
  return out;
}

import { describe, expect, it } from 'vitest';
import { rawName, readableTidyName, tidyName } from './tidy-name';

// Each row: recorded name → folded name. Rows marked "inferno" are taken from inferno 0.12's
// expected collapse-perf results in fixtures/third_party/inferno.
const TABLE: [string, string][] = [
  ['main', 'main'],
  ['foo(int, char const*)', 'foo'],
  ['std::function<int (int, int)>::operator()', 'std::function<int (int, int)>::operator'], // inferno
  ['std::_Function_handler<int (int, int), main::{lambda(int, int)#1}>::_M_invoke', 'std::_Function_handler<int (int, int), main::{lambda(int, int)#1}>::_M_invoke'], // inferno
  ['<std::collections::hash::map::HashMap<K, V, S> as core::iter::traits::FromIterator<(K, V)>>::from_iter', '<std::collections::hash::map::HashMap<K, V, S> as core::iter::traits::FromIterator<(K, V)>>::from_iter'], // inferno
  ['<core::str::Chars<\'a> as core::iter::iterator::Iterator>::next', '<core::str::Chars<\'a> as core::iter::iterator::Iterator>::next'], // inferno keeps quotes
  ['cmd/go/internal/load.(*Package).load', 'cmd/go/internal/load.(*Package).load'], // inferno (Go method)
  ['(anonymous namespace)::parse(char const*)', '(anonymous namespace)::parse'],
  ['ns::(anonymous namespace)::Foo::bar() const', 'ns::(anonymous namespace)::Foo::bar'],
  ['std::ostream::operator<<(int)', 'std::ostream::operator<<'],
  ['Foo::operator<(Foo const&) const', 'Foo::operator<'],
  ['Foo::operator>>=(int)', 'Foo::operator>>='],
  ['Foo::operator->() const', 'Foo::operator->'],
  ['Foo::operator<=>(Foo const&) const', 'Foo::operator<=>'],
  ['std::panic::catch_unwind::<&dyn core::ops::function::Fn<(), Output = i32> + Sync>', 'std::panic::catch_unwind::<&dyn core::ops::function::Fn<(), Output = i32> + Sync>'],
  ['call::<fn() -> i32>(x)', 'call::<fn() -> i32>'],
  ['Lorg/mozilla/ContextFactory;.call(Lorg/mozilla/ContextAction;)Ljava/lang/Object;', 'Lorg/mozilla/ContextFactory:.call'],
  ['a;b;c', 'a:b:c'],
  ['(', ''],
  ['.(x', '.(x'],
  ['[unknown]', '[unknown]'],
  ['unbalanced>>(x)', 'unbalanced>>'],
  ['my_operator<int>::run(int)', 'my_operator<int>::run'],
];

describe('tidyName', () => {
  it.each(TABLE)('%s', (input, expected) => {
    expect(tidyName(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const [input] of TABLE) expect(tidyName(tidyName(input))).toBe(tidyName(input));
  });
});

describe('rawName', () => {
  it('only replaces ;', () => {
    expect(rawName('foo(int; x) "q"')).toBe('foo(int: x) "q"');
    expect(rawName('plain')).toBe('plain');
  });
});

describe('readableTidyName (flameview top)', () => {
  it('keeps the call operator\'s () as the viewer shows it, cuts the argument list as tidyName', () => {
    expect(readableTidyName('std::function<int (int, int)>::operator()(int, int) const')).toBe('std::function<int (int, int)>::operator()');
    expect(readableTidyName('Widget::operator()')).toBe('Widget::operator()');
    // Where the first '(' is not the call operator's, nothing changes.
    expect(readableTidyName('main::{lambda(int)#1}::operator()(int) const')).toBe(tidyName('main::{lambda(int)#1}::operator()(int) const'));
    expect(readableTidyName('std::ostream::operator<<(int)')).toBe('std::ostream::operator<<');
    expect(readableTidyName('foo(int)')).toBe('foo');
  });
});

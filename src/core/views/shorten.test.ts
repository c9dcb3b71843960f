import { describe, expect, it } from 'vitest';
import { cutName, MAX_SHOWN_NAME, shortenName, shownName, stripRustHash } from './shorten';

describe('shortenName', () => {
  const cases: [string, string][] = [
    // C++ (fixtures/third_party inferno inputs, sqlite)
    ['std::vector<int, std::allocator<int> >::push_back(int const&)', 'std::vector<…>::push_back()'],
    ['std::function<int (int, int)>::operator()(int, int) const', 'std::function<…>::operator()() const'],
    ['std::function<int (int, int)>::operator()', 'std::function<…>::operator()'],
    ['std::ostream::operator<<(int)', 'std::ostream::operator<<()'],
    ['bool operator< <Foo>(Foo const&, Foo const&)', 'bool operator< <…>()'],
    ['std::unique_ptr<Node>::operator->() const', 'std::unique_ptr<…>::operator->() const'],
    ['(anonymous namespace)::parse(char const*)', '(anonymous namespace)::parse()'],
    ['net/http.(*Client).Do', 'net/http.(*Client).Do'],
    ['sqlite3VdbeExec', 'sqlite3VdbeExec'],
    ['[unknown]', '[unknown]'],
    ['f()', 'f()'],
    ['g<T>', 'g<T>'],
    // Rust (fixtures/rust-toyc.folded)
    [
      '<alloc::vec::Vec<T> as alloc::vec::spec_from_iter::SpecFromIter<T,I>>::from_iter',
      '<Vec<T> as SpecFromIter<…>>::from_iter',
    ],
    [
      '<core::result::Result<core::ptr::non_null::NonNull<[u8]>, alloc::collections::TryReserveError> as core::ops::try_trait::Try>::branch',
      '<Result<…> as Try>::branch',
    ],
    [
      'core::ptr::drop_in_place<hashbrown::map::HashMap<alloc::string::String,toyc::Symbol,std::hash::random::RandomState>>',
      'core::ptr::drop_in_place<…>',
    ],
    [
      'core::iter::range::<impl core::iter::traits::iterator::Iterator for core::ops::range::Range<A>>::next',
      'core::iter::range::<impl Iterator for Range<A>>::next',
    ],
    ['<&mut std::io::Stdout as std::io::Write>::write_all', '<&mut Stdout as Write>::write_all'],
    ['<T as core::convert::Into<U>>::into', '<T as Into<U>>::into'],
    ['std::panicking::catch_unwind::do_call::<std::rt::lang_start_internal::{closure#0}, isize>', 'std::panicking::catch_unwind::do_call::<…>'],
    ['<[T]>::sort_by', '<[T]>::sort_by'],
    ['emulator::main::hc2aaa9b4591a10c7', 'emulator::main'],
    // malformed input stays as it is
    ['a<b', 'a<b'],
    ['a>b)c(', 'a>b)c('],
    ['<<<<<', '<<<<<'],
  ];
  it.each(cases)('%s', (input, expected) => {
    expect(shortenName(input)).toBe(expected);
  });

  it('returns the same string when nothing is elided', () => {
    const s = 'toyc::parse_expr';
    expect(shortenName(s)).toBe(s);
  });

  it('is linear on hostile input (deep nesting, many brackets)', () => {
    const deep = 'f' + '<'.repeat(50000) + 'x' + '>'.repeat(50000) + '::g';
    // Quadratic work on these would pass the test's timeout; no clock is read.
    expect(shortenName(deep)).toBe('f<…>::g');
    expect(shortenName('<'.repeat(100000)).length).toBe(100000);
    expect(shortenName('('.repeat(50000) + ')'.repeat(50000))).toBe('()');
  });

  it('never produces markup from text: untrusted names stay text (no stripping of <…>)', () => {
    expect(shortenName('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert()>');
  });
});

describe('stripRustHash', () => {
  it('removes exactly a trailing ::h + 16 lowercase hex digits', () => {
    expect(stripRustHash('log::set_logger::hfce3bfc5d262a203')).toBe('log::set_logger');
    expect(stripRustHash('emulator::main_ret::hc4b7fa9090639ebe')).toBe('emulator::main_ret');
    expect(stripRustHash('a::hfce3bfc5d262a20')).toBe('a::hfce3bfc5d262a20'); // 15 digits
    expect(stripRustHash('a::hFCE3BFC5D262A203')).toBe('a::hFCE3BFC5D262A203');
    expect(stripRustHash('a::hfce3bfc5d262a203::b')).toBe('a::hfce3bfc5d262a203::b');
    expect(stripRustHash('toyc::hash')).toBe('toyc::hash');
  });
});

describe('shownName', () => {
  it('keeps a name of up to MAX_SHOWN_NAME characters whole, and cuts a longer one to its ends', () => {
    expect(shownName('a'.repeat(MAX_SHOWN_NAME))).toEqual({ text: 'a'.repeat(MAX_SHOWN_NAME), cut: 0 });
    const long = `start${'x'.repeat(1_000_000)}end`;
    const { text, cut } = shownName(long);
    expect(cut).toBe(long.length);
    expect(text.length).toBe(MAX_SHOWN_NAME + 1);
    expect(shownName(long, 500).text.length).toBe(501);
    expect(text.startsWith('startxx')).toBe(true);
    expect(text.endsWith('xxend')).toBe(true);
    expect(text).toContain('…');
    expect(cutName(long)).toBe(text);
  });
});

import { describe, expect, it } from 'vitest';
import { LineCache, sampledLineHash } from './perf-line-cache';

const line = (addr: string, sym: string, dso: string) => `\t${addr.padStart(16)} ${sym} (${dso})`;

describe('LineCache', () => {
  it('finds what was stored and nothing else, across growth', () => {
    const cache = new LineCache();
    const keys: string[] = [];
    for (let i = 0; i < 20_000; i++) keys.push(line((0x1000 + (i % 97)).toString(16), `fn_${i}+0x${(i % 13).toString(16)}`, '/usr/lib/x.so'));
    keys.forEach((k, i) => cache.set(k, i * 3));
    expect(cache.size).toBe(keys.length);
    keys.forEach((k, i) => expect(cache.get(k)).toBe(i * 3));
    expect(cache.get(line('1000', 'fn_20000+0x0', '/usr/lib/x.so'))).toBe(-1);
    expect(cache.get('')).toBe(-1);
  });

  it('tells apart lines whose sampled characters all agree (a collision is confirmed by equality)', () => {
    // Same length, address, start, end: they differ only at a character the hash does not sample.
    const a = line('27859', 'core::ptr::drop_in_place<alloc::boxed::Box<toyc::AAAAAAAAAAAAAAAA>>+0x79', 'inlined');
    const b = a.replace('AAAAAAAAAAAAAAAA', 'AAAAAAAABAAAAAAA');
    const c = a.replace('AAAAAAAAAAAAAAAA', 'AAAAAAAAAAAAAAAC');
    const cache = new LineCache();
    cache.set(a, 1);
    cache.set(b, 2);
    expect(cache.get(a)).toBe(1);
    expect(cache.get(b)).toBe(2);
    expect(cache.get(c)).toBe(-1);
  });

  it('hashes equal text equally whatever string representation holds it', () => {
    const text = line('7f12ab', 'sqlite3_step+0x23f', '/usr/lib/libsqlite3.so.0.8.6');
    const sliced = ('xx' + text + 'yy').slice(2, 2 + text.length);
    expect(sampledLineHash(sliced)).toBe(sampledLineHash(text));
    for (const short of ['', 'a', '\t1 f', '\t   abc sym (dso)']) expect(sampledLineHash(short)).toBe(sampledLineHash(short.slice(0)));
  });
});

import { describe, expect, it } from 'vitest';
import { Memo } from './memo';

describe('Memo', () => {
  it('makes a value once per key tuple, objects and primitives alike', () => {
    const memo = new Memo<number>();
    const a = {};
    const b = {};
    let made = 0;
    const get = (x: object, y: object, k: string) => memo.get([x, y, k], () => ++made);
    expect(get(a, b, 'light')).toBe(1);
    expect(get(a, b, 'light')).toBe(1);
    expect(get(a, b, 'dark')).toBe(2);
    expect(get(b, a, 'light')).toBe(3);
    expect(get(a, a, 'light')).toBe(4);
    expect(made).toBe(4);
  });

  it('tells a prefix from a longer tuple, and keeps undefined results', () => {
    const memo = new Memo<undefined | string>();
    const a = {};
    let made = 0;
    expect(memo.get([a], () => (made++, undefined))).toBeUndefined();
    expect(memo.get([a], () => (made++, 'again'))).toBeUndefined();
    expect(memo.get([a, 'x'], () => 'long')).toBe('long');
    expect(made).toBe(1);
  });

  it('peeks without making', () => {
    const memo = new Memo<number>();
    const a = {};
    expect(memo.peek([a, 1])).toBeUndefined();
    memo.get([a, 1], () => 7);
    expect(memo.peek([a, 1])).toBe(7);
    expect(memo.peek([a, 2])).toBeUndefined();
  });

  it('drops the oldest primitive key past maxPrimitives', () => {
    const memo = new Memo<number>({ maxPrimitives: 2 });
    const a = {};
    let made = 0;
    for (const k of [1, 2, 3]) memo.get([a, k], () => ++made);
    expect(memo.peek([a, 1])).toBeUndefined();
    expect(memo.peek([a, 2])).toBe(2);
    expect(memo.peek([a, 3])).toBe(3);
  });
});

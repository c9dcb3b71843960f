import { describe, expect, it } from 'vitest';
import { Latest, ObjectIds } from './latest';

describe('Latest', () => {
  it('keeps only the newest request current', () => {
    const latest = new Latest();
    const a = latest.next();
    expect(latest.isLatest(a)).toBe(true);
    const b = latest.next();
    expect(b).toBeGreaterThan(a);
    expect(latest.isLatest(a)).toBe(false);
    expect(latest.isLatest(b)).toBe(true);
  });

  it('cancel makes the request in flight stale, and the next one is current again', () => {
    const latest = new Latest();
    const a = latest.next();
    latest.cancel();
    expect(latest.isLatest(a)).toBe(false);
    const b = latest.next();
    expect(latest.isLatest(b)).toBe(true);
  });

  it('a receiver observes numbers out of order and answers only the newest', () => {
    const seen = new Latest();
    expect(seen.observe(3)).toBe(true);
    expect(seen.observe(2)).toBe(false);
    expect(seen.observe(5)).toBe(true);
    expect(seen.isLatest(3)).toBe(false);
    expect(seen.isLatest(5)).toBe(true);
  });
});

describe('ObjectIds', () => {
  it('gives each object one id, in order of first sight', () => {
    const ids = new ObjectIds<object>();
    const a = {};
    const b = {};
    expect(ids.of(a)).toBe(1);
    expect(ids.of(b)).toBe(2);
    expect(ids.of(a)).toBe(1);
  });
});

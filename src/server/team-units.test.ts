// The team server's small pure parts: bearer parsing, delete tokens, eviction choice, S3 URLs.

import { describe, expect, it } from 'vitest';
import { chooseEvictions } from './retention';
import { parseS3Url } from './s3-store';
import { parseRange } from './store-routes';
import { bearerToken, checkUploadToken, deleteToken, sameToken } from './tokens';

describe('tokens', () => {
  it('reads Bearer tokens and nothing else', () => {
    expect(bearerToken('Bearer abc.DEF_-~+/=')).toBe('abc.DEF_-~+/=');
    expect(bearerToken('bearer  abc ')).toBe('abc');
    for (const bad of [undefined, '', 'Bearer', 'Bearer ', 'Basic abc', 'Bearer a b', 'Bearerabc']) expect(bearerToken(bad), String(bad)).toBeNull();
  });

  it('compares tokens exactly', () => {
    expect(sameToken('a-token', 'a-token')).toBe(true);
    expect(sameToken('a-token', 'a-tokeN')).toBe(false);
    expect(sameToken('a-token-longer', 'a-token')).toBe(false);
    expect(sameToken(null, 'a-token')).toBe(false);
  });

  it('signs a delete token per id and per secret', () => {
    const id = 'a'.repeat(64);
    const t = deleteToken(Buffer.from('secret one'), id);
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(deleteToken(Buffer.from('secret one'), id)).toBe(t);
    expect(deleteToken(Buffer.from('secret two'), id)).not.toBe(t);
    expect(deleteToken(Buffer.from('secret one'), 'b'.repeat(64))).not.toBe(t);
  });

  it('checks an upload token as kept in a file', () => {
    expect(checkUploadToken('  0123456789abcdefXYZ\n', 'f')).toBe('0123456789abcdefXYZ');
    expect(() => checkUploadToken('short\n', 'f')).toThrow('f: the upload token must be at least 16 characters');
    expect(() => checkUploadToken('0123456789 abcdefXYZ', 'f')).toThrow(/printable ASCII without spaces/);
  });
});

describe('eviction', () => {
  const day = 86_400_000;
  const now = Date.parse('2026-12-01T12:00:00Z');
  const at = (msAgo: number) => new Date(now - msAgo).toISOString();
  const entries = [
    { id: 'new', size: 40, date: at(1000) },
    { id: 'mid', size: 40, date: at(2 * day) },
    { id: 'old', size: 40, date: at(5 * day) },
    { id: 'older', size: 10, date: at(9 * day) },
  ];

  it('keeps the newest that fit under --max-store, deleting the oldest', () => {
    expect(chooseEvictions(entries, { maxStoreBytes: 100 }, now)).toEqual(['old', 'older']);
    expect(chooseEvictions(entries, { maxStoreBytes: 1000 }, now)).toEqual([]);
    // The newest stays even when it alone is over the limit.
    expect(chooseEvictions(entries, { maxStoreBytes: 10 }, now)).toEqual(['mid', 'old', 'older']);
  });

  it('deletes what is older than --expire-days', () => {
    expect(chooseEvictions(entries, { expireDays: 3 }, now)).toEqual(['old', 'older']);
    expect(chooseEvictions(entries, { expireDays: 3, maxStoreBytes: 50 }, now)).toEqual(['mid', 'old', 'older']);
    expect(chooseEvictions(entries, {}, now)).toEqual([]);
  });
});

describe('ranges', () => {
  it('parses one range of bytes', () => {
    expect(parseRange('bytes=0-0', 10)).toEqual({ start: 0, end: 0 });
    expect(parseRange('bytes=-3', 10)).toEqual({ start: 7, end: 9 });
    expect(parseRange('bytes=-30', 10)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=4-', 10)).toEqual({ start: 4, end: 9 });
    expect(parseRange('bytes=10-', 10)).toBe('unsatisfiable');
    expect(parseRange('bytes=-0', 10)).toBe('unsatisfiable');
    for (const ignored of [undefined, 'bytes=5-2', 'bytes=-', 'items=0-1', 'bytes=0-1,3-4']) expect(parseRange(ignored, 10), String(ignored)).toBeNull();
  });
});

describe('s3:// store locations', () => {
  it('splits bucket and prefix', () => {
    expect(parseS3Url('s3://team-profiles')).toEqual({ bucket: 'team-profiles', prefix: '' });
    expect(parseS3Url('s3://team-profiles/')).toEqual({ bucket: 'team-profiles', prefix: '' });
    expect(parseS3Url('s3://team-profiles/flameview/prod/')).toEqual({ bucket: 'team-profiles', prefix: 'flameview/prod/' });
    expect(() => parseS3Url('s3://A_B/x')).toThrow('s3://A_B/x: expected s3://BUCKET/PREFIX with a valid bucket name');
    expect(() => parseS3Url('s3://bucket/a/../b')).toThrow(/may not contain/);
  });
});

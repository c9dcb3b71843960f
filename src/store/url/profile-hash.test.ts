import { describe, expect, it } from 'vitest';
import { profileFromHash, profileFromPath, profilesFromHash, withProfile, withProfiles } from './profile-hash';

describe('profileFromHash', () => {
  it('reads the profile parameter', () => {
    expect(profileFromHash('#profile=demo/a.txt')).toBe('demo/a.txt');
    expect(profileFromHash('#view=functions&profile=https%3A%2F%2Fh%2Fp.txt%3Fx%3D1')).toBe('https://h/p.txt?x=1');
  });
  it('is null without one', () => {
    expect(profileFromHash('')).toBeNull();
    expect(profileFromHash('#')).toBeNull();
    expect(profileFromHash('#view=inline')).toBeNull();
    expect(profileFromHash('#profile=')).toBeNull();
  });
});

describe('withProfile', () => {
  it('sets, replaces and removes the profile parameter, keeping the others', () => {
    expect(withProfile('', 'http://h/p.txt')).toBe('#profile=http%3A%2F%2Fh%2Fp.txt');
    expect(withProfile('#view=functions&profile=a', 'b')).toBe('#view=functions&profile=b');
    expect(withProfile('#view=functions&profile=a', null)).toBe('#view=functions');
    expect(withProfile('#profile=a', null)).toBe('');
    expect(profileFromHash(withProfile('#x=1', 'https://h/a b&c.txt'))).toBe('https://h/a b&c.txt');
  });
});

describe('profileFromPath', () => {
  const id = 'ab'.repeat(32);
  it('maps /p/<id> to the stored bytes', () => {
    expect(profileFromPath(`/p/${id}`)).toBe(`/api/profiles/${id}`);
    expect(profileFromPath(`/base/p/${id}/`)).toBe(`/base/api/profiles/${id}`);
  });
  it('ignores anything else', () => {
    expect(profileFromPath('/')).toBeNull();
    expect(profileFromPath('/p/xyz')).toBeNull();
    expect(profileFromPath(`/p/${id}/assets/x.js`)).toBeNull();
  });
});

describe('withProfile and the zoom path', () => {
  it('keeps the other parameters byte for byte (the literal ; of a zoom path)', () => {
    expect(withProfile('#v=1&zoom=a;b%3Bc&search=x', null)).toBe('#v=1&zoom=a;b%3Bc&search=x');
    expect(withProfile('#v=1&profile=x&zoom=a;b', 'y z')).toBe('#v=1&profile=y%20z&zoom=a;b');
  });
});

describe('several profile= (one graph of their sum)', () => {
  it('reads every profile parameter in order, blanks dropped', () => {
    expect(profilesFromHash('#v=1&profile=a.txt&zoom=x&profile=https%3A%2F%2Fh%2Fb.txt&profile=')).toEqual(['a.txt', 'https://h/b.txt']);
    expect(profilesFromHash('#view=inline')).toEqual([]);
    expect(profilesFromHash('')).toEqual([]);
  });
  it('writes them where the first was, keeping the other parameters byte for byte', () => {
    const hash = withProfiles('#v=1&profile=old&zoom=main%3Ba;b', ['x/1.folded', 'x/2.folded', 'x/3.folded']);
    expect(hash).toBe('#v=1&profile=x%2F1.folded&profile=x%2F2.folded&profile=x%2F3.folded&zoom=main%3Ba;b');
    expect(profilesFromHash(hash)).toEqual(['x/1.folded', 'x/2.folded', 'x/3.folded']);
    expect(withProfiles('#profile=a&profile=b&view=inline', [])).toBe('#view=inline');
    expect(withProfiles('#profile=a&profile=b', ['c'])).toBe('#profile=c');
  });
});

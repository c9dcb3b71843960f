import { describe, expect, it } from 'vitest';
import { profileFromHash } from './hash';

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

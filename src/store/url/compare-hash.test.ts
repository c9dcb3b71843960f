import { describe, expect, it } from 'vitest';
import { compareParamsFromHash } from './compare-hash';

describe('compare hash parameters', () => {
  it('reads compare, mode and norm and ignores unknown values', () => {
    expect(compareParamsFromHash('#profile=a.txt&compare=b%20c.txt&mode=diff&norm=abs')).toEqual({ compare: 'b c.txt', mode: 'diff', norm: 'abs' });
    expect(compareParamsFromHash('#profile=a.txt&mode=weird&norm=')).toEqual({ compare: null, mode: null, norm: null });
  });
});

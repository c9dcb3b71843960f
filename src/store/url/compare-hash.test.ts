import { describe, expect, it } from 'vitest';
import { compareParamsFromHash } from './compare-hash';

describe('compare hash parameters', () => {
  it('reads compare, mode and norm and ignores unknown values', () => {
    expect(compareParamsFromHash('#profile=a.txt&compare=b%20c.txt&mode=diff&norm=abs')).toEqual({ compare: ['b c.txt'], mode: 'diff', norm: 'abs' });
    expect(compareParamsFromHash('#profile=a.txt&mode=weird&norm=')).toEqual({ compare: [], mode: null, norm: null });
  });

  it('reads every compare= in order (B as the sum of those runs), blanks dropped', () => {
    expect(compareParamsFromHash('#compare=b1.txt&mode=diff&compare=&compare=b%202.txt')).toEqual({ compare: ['b1.txt', 'b 2.txt'], mode: 'diff', norm: null });
  });
});

// `?min-part-bytes=N` (the smallest part of a parallel load, for tests on small files): only a
// whole number of at least 1 MiB is taken, anything else leaves the measured minimums.

import { describe, expect, it } from 'vitest';
import { minPartBytesParam } from './first-open';

describe('?min-part-bytes=', () => {
  it('takes a whole number of bytes of at least 1 MiB', () => {
    expect(minPartBytesParam('?min-part-bytes=16777216')).toBe(16777216);
    expect(minPartBytesParam('?x=1&min-part-bytes=1048576')).toBe(1048576);
    expect(minPartBytesParam('?min-part-bytes=1099511627776')).toBe(1099511627776);
  });

  it('ignores what is absent, empty, small, negative, fractional, not a number or too large', () => {
    for (const search of ['', '?', '?min-part-bytes=', '?min-part-bytes=%20', '?min-part-bytes=0', '?min-part-bytes=1', '?min-part-bytes=1048575', '?min-part-bytes=-16777216', '?min-part-bytes=16777216.5', '?min-part-bytes=16MB', '?min-part-bytes=1e400', '?min-part-bytes=1e300', '?min-part-bytes=Infinity', '?min-part-bytes=NaN']) {
      expect(minPartBytesParam(search), search).toBeUndefined();
    }
  });
});

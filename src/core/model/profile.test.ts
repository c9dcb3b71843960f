// warningCounts: what the status bar's warnings button counts, as the popover lists the warnings.

import { describe, expect, it } from 'vitest';
import { loadProfileFromText } from '../import/load';
import { notQuotedWarning, warningCounts } from './profile';

describe('warningCounts', () => {
  it('counts each skipped line once, and warnings about no single line beside them', () => {
    const quoted = Array.from({ length: 5 }, (_, i) => ({ line: i + 1, message: 'bad' }));
    expect(warningCounts({ skippedLines: 35, warnings: [...quoted, notQuotedWarning(30), { line: 0, message: 'the file ends mid-sample' }] })).toEqual({ skipped: 35, others: 1 });
    expect(warningCounts({ skippedLines: 0, warnings: [{ line: 0, message: 'x' }, { line: 3, message: 'y' }] })).toEqual({ skipped: 0, others: 2 });
  });

  it("the perf importer's note that more lines were not quoted is recognised as such", async () => {
    const bad = Array.from({ length: 40 }, (_, i) => `not a sample line ${i}`).join('\n');
    const p = await loadProfileFromText(`prog 1 1.0: 1 cpu-clock:\n\tffff main (/bin/prog)\n\n${bad}\n`);
    expect(p.meta.skippedLines).toBeGreaterThan(5);
    expect(p.meta.warnings.some((w) => w.line === 0)).toBe(true);
    expect(warningCounts(p.meta)).toEqual({ skipped: p.meta.skippedLines, others: 0 });
  });
});

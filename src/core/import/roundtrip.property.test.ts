// Property tests for the folded importer and exporter, and for the function view.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { collapseLines } from '../export/folded';
import type { Profile } from '../model/profile';
import { dumpTree } from '../testing/tree-dsl';
import { functionView } from '../views/function-view';
import { foldedImporter } from './folded';
import { loadProfile } from './load';

function parseLines(lines: string[]): Profile {
  const parser = foldedImporter.create({});
  lines.forEach((line, i) => parser.line(line, i + 1));
  return parser.finish();
}

// Frame names built from characters that stress the parser and the sort: spaces, brackets,
// digits, annotation look-alikes, non-ASCII, astral and private-use characters.
const CHARS = ['a', 'b', 'z', 'A', ' ', '(', ')', '<', '>', '_', '[', ']', 'i', 'k', 'j', '.', ':', '#', '0', '7', 'é', '中', '😀', '\ue000', '\uffff', '\t', '"', "'"];
const plainName = fc.array(fc.constantFrom(...CHARS), { minLength: 0, maxLength: 6 }).map((cs) => cs.join(''));
const suffix = fc.constantFrom('', '', '', '_[i]', '_[k]', '_[j]');
// A name may not end in a blank (blanks before the count are not part of the name) nor look
// like a second count (" 12" at the end of a first line would read as differential input).
const frameName = fc
  .tuple(plainName, suffix)
  .map(([n, s]) => n + s)
  .filter((n) => !/[ \t]$/.test(n) && !/[ \t][\d.]+$/.test(n));
// Few distinct names so that stacks share prefixes and merge.
const stack = fc
  .array(fc.constantFrom('main', 'a', 'ab', 'a b', 'b_[i]', 'k_[k]'), { minLength: 0, maxLength: 3 })
  .chain((head) => fc.array(frameName, { minLength: 1, maxLength: 5 }).map((tail) => [...head, ...tail]))
  // Nor may it start with '#' (a comment) or a blank: a first line "\ta\t_[k] 0.25" reads as
  // perf script's indented frame line, which is how perf script text is told from folded.
  .filter((frames) => frames.join(';').length > 0 && !/^[#\s]/.test(frames[0]));
const weight = fc.oneof(fc.integer({ min: 1, max: 1_000_000 }), fc.integer({ min: 1, max: 400 }).map((q) => q / 4));
const entries = fc.array(fc.tuple(stack, weight), { minLength: 1, maxLength: 40 });

function multiset(pairs: [string, number][]): Map<string, number> {
  const m = new Map<string, number>();
  for (const [s, w] of pairs) m.set(s, (m.get(s) ?? 0) + w);
  return m;
}

function linesToPairs(lines: string[]): [string, number][] {
  return lines.map((l) => {
    const space = l.lastIndexOf(' ');
    return [l.slice(0, space), Number(l.slice(space + 1))];
  });
}

const ALL_ANNOTATIONS = { fullNames: true, annotateInline: true, annotateKernel: true, annotateJit: true } as const;

describe('folded round trip (property)', () => {
  it('folded → tree → folded is the identity on the multiset of stacks', () => {
    fc.assert(
      fc.property(entries, (es) => {
        const input = es.map(([frames, w]) => `${frames.join(';')} ${w}`);
        const p = parseLines(input);
        expect(p.meta.skippedLines).toBe(0);
        const out = collapseLines(p, ALL_ANNOTATIONS);
        const expected = multiset(es.map(([frames, w]) => [frames.join(';'), w]));
        expect(multiset(linesToPairs(out))).toEqual(expected);
        // One line per distinct stack, sorted in UTF-8 byte order.
        expect(out.length).toBe(expected.size);
        const stacks = linesToPairs(out).map(([s]) => s);
        expect(stacks).toEqual([...stacks].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b))));
        // Exporting again from its own output changes nothing.
        expect(collapseLines(parseLines(out), ALL_ANNOTATIONS)).toEqual(out);
      }),
      { numRuns: 300 },
    );
  });

  it('the tree does not depend on the order of the lines', () => {
    fc.assert(
      fc.property(
        entries.chain((es) => fc.tuple(fc.constant(es), fc.shuffledSubarray(es, { minLength: es.length, maxLength: es.length }))),
        ([es, shuffled]) => {
          const a = parseLines(es.map(([f, w]) => `${f.join(';')} ${w}`));
          const b = parseLines(shuffled.map(([f, w]) => `${f.join(';')} ${w}`));
          expect(dumpTree(b.tree, b.frames)).toBe(dumpTree(a.tree, a.frames));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('folded through the whole engine (property)', () => {
  it('any chunking of the bytes, LF or CRLF, gives the same profile as the bare parser', async () => {
    await fc.assert(
      fc.asyncProperty(entries, fc.boolean(), fc.array(fc.integer({ min: 1, max: 64 }), { minLength: 1, maxLength: 8 }), async (es, crlf, sizes) => {
        const lines = es.map(([f, w]) => `${f.join(';')} ${w}`);
        const bytes = new TextEncoder().encode(lines.join(crlf ? '\r\n' : '\n') + (crlf ? '\r\n' : '\n'));
        async function* chunks() {
          for (let i = 0, k = 0; i < bytes.length; k++) {
            const size = sizes[k % sizes.length];
            yield bytes.slice(i, i + size);
            i += size;
          }
        }
        const loaded = await loadProfile(chunks());
        expect(loaded.meta.format).toBe('folded');
        expect(loaded.meta.skippedLines).toBe(0);
        expect(collapseLines(loaded, ALL_ANNOTATIONS)).toEqual(collapseLines(parseLines(lines), ALL_ANNOTATIONS));
      }),
      { numRuns: 150 },
    );
  });
});

describe('function view (property)', () => {
  const noInline = entries.map((es) => es.map(([frames, w]) => [frames.map((f) => f.replace(/_\[i\]$/, '_[x]')), w] as [string[], number]));

  it('of a tree without inlined frames is that tree', () => {
    fc.assert(
      fc.property(noInline, (es) => {
        const p = parseLines(es.map(([f, w]) => `${f.join(';')} ${w}`));
        const fv = functionView(p).tree;
        const t = p.tree;
        expect(fv.nodeCount).toBe(t.nodeCount);
        for (const col of ['parent', 'frame', 'depth', 'end', 'selfWeight', 'totalWeight', 'selfSamples', 'totalSamples'] as const) {
          expect(Array.from(fv[col])).toEqual(Array.from(t[col]));
        }
      }),
      { numRuns: 200 },
    );
  });

  it('preserves the total, and the folded export of both views sums to it', () => {
    fc.assert(
      fc.property(entries, (es) => {
        const p = parseLines(es.map(([f, w]) => `${f.join(';')} ${w}`));
        const fv = functionView(p).tree;
        expect(fv.totalWeight[0]).toBe(p.tree.totalWeight[0]);
        expect(fv.totalSamples[0]).toBe(p.tree.totalSamples[0]);
        const sum = (lines: string[]) => linesToPairs(lines).reduce((s, [, w]) => s + w, 0);
        expect(sum(collapseLines(p, { view: 'functions' }))).toBe(p.tree.totalWeight[0]);
        expect(sum(collapseLines(p))).toBe(p.tree.totalWeight[0]);
        // No inlined frame survives in the function view.
        expect(collapseLines(p, { view: 'functions', fullNames: true }).some((l) => linesToPairs([l])[0][0].split(';').some((f) => f.endsWith('_[i]')))).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

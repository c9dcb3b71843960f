// The Assembly panel's model: rows from a served disassembly of fixtures/asm (as the route
// answers it), the hottest row, jump targets that name their row, the table without binaries, the
// one-line reasons for code that is no file, and answers of the wrong shape refused.

import { describe, expect, it } from 'vitest';
import { asmListing, checkDisassembly, dsoProblem, hottestTable, type Disassembly } from './disassembly';

// `chase` of fixtures/asm/loops as objdump and the route give it (abridged).
const CHASE: Disassembly = {
  function: 'chase',
  dso: '/work/fixtures/asm/loops',
  binary: '/work/fixtures/asm/loops',
  self: 400,
  samples: 4,
  buildId: null,
  problems: [],
  listing: [
    { kind: 'source', file: '/work/fixtures/asm/loops.c', line: 15 },
    { kind: 'insn', offset: 0, address: '13e0', text: 'xor    %eax,%eax', weight: 0, samples: 0, share: 0 },
    { kind: 'insn', offset: 0x10, address: '13f0', text: 'mov    (%rdi,%rax,8),%rax', weight: 100, samples: 1, share: 25 },
    { kind: 'source', file: '/work/fixtures/asm/loops.c', line: 17 },
    { kind: 'insn', offset: 0x16, address: '13f6', text: 'sub    $0x1,%edx', weight: 300, samples: 3, share: 75 },
    { kind: 'insn', offset: 0x18, address: '13f8', text: 'jne    13f0 <chase+0x10>', weight: 0, samples: 0, share: 0, target: 0x10 },
  ],
  offsets: [
    { offset: 0x10, weight: 100, samples: 1, share: 25 },
    { offset: 0x16, weight: 300, samples: 3, share: 75 },
  ],
};

describe('asmListing', () => {
  it('keeps source labels between instructions, marks the hottest, and points each jump at its row', () => {
    const l = asmListing(CHASE);
    expect(l.rows.map((r) => r.gutter)).toEqual(['', '+0x0', '+0x10', '', '+0x16', '+0x18']);
    expect(l.rows[0]).toMatchObject({ kind: 'source', text: '/work/fixtures/asm/loops.c:15', weight: 0 });
    expect(l.hottest).toBe(4);
    expect(l.all).toBe(400);
    expect(l.rows[5]).toMatchObject({ jumpTo: 2, jumpLabel: '→ +0x10' });
    expect(l.rows.filter((r) => r.jumpTo >= 0)).toHaveLength(1);
  });

  it('without binaries: the hottest offsets, heaviest first, as +0xOFFSET and share', () => {
    expect(hottestTable({ rows: CHASE.offsets })).toEqual([
      { gutter: '+0x16', weight: 300, share: 75 },
      { gutter: '+0x10', weight: 100, share: 25 },
    ]);
  });

  it('kernel code, JIT code and an unknown DSO each get one line saying why and what to pass; a file gets none', () => {
    expect(dsoProblem('[kernel.kallsyms]')).toMatch(/not a file: kernel code needs a readable vmlinux/);
    expect(dsoProblem('/tmp/perf-4242.map')).toMatch(/is JIT code: .*perf inject --jit/);
    expect(dsoProblem(null)).toMatch(/does not say which binary/);
    expect(dsoProblem('/usr/bin/loops')).toBeNull();
  });

  it('an answer of the wrong shape is an error sentence, never a throw', () => {
    expect(checkDisassembly(CHASE)).toBe(CHASE);
    expect(checkDisassembly(null)).toMatch(/no object/);
    expect(checkDisassembly({ ...CHASE, listing: [{ kind: 'insn', offset: '0', text: 1 }] })).toMatch(/listing row of the wrong shape/);
    expect(checkDisassembly({ ...CHASE, problems: [1] })).toMatch(/no problems list/);
  });
});

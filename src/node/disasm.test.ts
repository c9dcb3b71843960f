// Placing pprof's addresses in the process in an ELF file (./disasm.ts): through the mapping to a
// file offset, then through the LOAD program header holding it, as pprof's elfexec does. The
// Go fixture (fixtures/asm-pprof) maps its text at its link address; a PIE or a shared library is
// mapped elsewhere, from a file offset of its own, which these cases cover.

import { describe, expect, it } from 'vitest';
import type { AddressMapping } from '../core/model/leaf-addresses';
import { elfAddress, parseLoadSegments } from './disasm';

// readelf -lW of a PIE built by gcc (text in the second LOAD, at file offset 0x1000).
const PIE_HEADERS = `
Program Headers:
  Type           Offset   VirtAddr           PhysAddr           FileSiz  MemSiz   Flg Align
  PHDR           0x000040 0x0000000000000040 0x0000000000000040 0x0002d8 0x0002d8 R   0x8
  LOAD           0x000000 0x0000000000000000 0x0000000000000000 0x000628 0x000628 R   0x1000
  LOAD           0x001000 0x0000000000001000 0x0000000000001000 0x0001d5 0x0001d5 R E 0x1000
  LOAD           0x002000 0x0000000000002000 0x0000000000002000 0x000104 0x000104 R   0x1000
  LOAD           0x002db8 0x0000000000003db8 0x0000000000003db8 0x000258 0x000260 RW  0x1000
  DYNAMIC        0x002dc8 0x0000000000003dc8 0x0000000000003dc8 0x0001f0 0x0001f0 RW  0x8
`;

const map = (start: number, limit: number, offset: number): AddressMapping => ({ file: '/bin/prog', start, limit, offset, buildId: '' });

describe('pprof addresses in the ELF', () => {
  it('reads the LOAD program headers of readelf -lW', () => {
    expect(parseLoadSegments(PIE_HEADERS)).toEqual([
      { offset: 0, vaddr: 0, fileSize: 0x628 },
      { offset: 0x1000, vaddr: 0x1000, fileSize: 0x1d5 },
      { offset: 0x2000, vaddr: 0x2000, fileSize: 0x104 },
      { offset: 0x2db8, vaddr: 0x3db8, fileSize: 0x258 },
    ]);
  });

  it("places a PIE's address through its executable mapping (mapped from file offset 0x1000)", () => {
    const segments = parseLoadSegments(PIE_HEADERS);
    const text = map(0x5555_5555_5000, 0x5555_5555_6000, 0x1000);
    expect(elfAddress(0x5555_5555_5139, [map(0x5555_5555_4000, 0x5555_5555_5000, 0), text], segments)).toBe(0x1139);
    // A segment whose file offset is not its address: the data segment (0x2db8 in the file, 0x3db8 in memory).
    expect(elfAddress(0x7000_0000_0dc0, [map(0x7000_0000_0000, 0x7000_0000_1000, 0x2000)], segments)).toBe(0x3dc0);
  });

  it('places nothing outside every mapping or every LOAD segment', () => {
    const segments = parseLoadSegments(PIE_HEADERS);
    expect(elfAddress(0x1000, [map(0x5555_5555_5000, 0x5555_5555_6000, 0x1000)], segments)).toBeNull();
    // In the mapping, but past the file's bytes (the mapping is not of this file).
    expect(elfAddress(0x5555_5555_5ff0, [map(0x5555_5555_5000, 0x5555_5555_6000, 0x9000)], segments)).toBeNull();
  });
});

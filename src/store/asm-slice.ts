// The Assembly panel's state: where this page may ask for disassemblies (the link's asm=, which
// `flameview FILE` writes; null for a page opened alone) and the answer for the selected function:
// its sampled offsets (from the profile worker, always) and the served disassembly or the reason
// there is none. Filled by controllers/asm-controller.ts; the rows are derived
// (core/query/disassembly.ts).

import type { StateCreator } from 'zustand';
import type { Disassembly } from '../core/query/disassembly';
import type { SymbolOffsets } from '../core/query/leaf-addresses';
import type { StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

export type AsmAnswer =
  | { status: 'idle' }
  | { status: 'loading'; fn: string }
  | {
      status: 'ready';
      fn: string;
      /** The heaviest symbol the function is, its sampled offsets; null: the recording kept no addresses, or none of this function. */
      offsets: SymbolOffsets | null;
      disassembly: Disassembly | null;
      /** Why there is no disassembly (the route's refusal, a failed request), when there is a route. */
      error: string | null;
    };

export interface AsmSlice {
  asm: { base: string | null; answer: AsmAnswer };
  setAsmBase(base: string | null): void;
  setAsmAnswer(answer: AsmAnswer): void;
}

export const createAsmSlice: Creator<AsmSlice> = (set, get) => ({
  asm: { base: null, answer: { status: 'idle' } },
  setAsmBase: (base) => {
    if (get().asm.base !== base) set({ asm: { base, answer: { status: 'idle' } } });
  },
  setAsmAnswer: (answer) => set({ asm: { ...get().asm, answer } }),
});

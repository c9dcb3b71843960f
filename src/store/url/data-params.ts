// What the link's data parameters may hold (original=, asm=, source=, srcurl=: where more of the
// recording is, as `flameview FILE` links it): their codecs (url-state.ts, source-params.ts) take
// values with these, and so does the page's first script (controllers/first-open.ts), which
// imports nothing of the store.

import { checkTemplate } from '../../core/query/source-listing';

/** original=<url>: not blank, at most 4,000 characters. */
export function originalOk(value: string): boolean {
  return value.trim() !== '' && value.length <= 4000;
}

/** asm=: `flameview FILE`'s disassembly route; only that same-origin path. */
export const ASM_ROUTE = /^\/api\/asm\/[0-9a-f]{32}$/;

/** source=: `flameview FILE`'s source route; only that same-origin path. */
export const SOURCE_ROUTE = /^\/api\/source\/[A-Za-z0-9_-]{8,128}$/;

/** Each data parameter, and whether a value is one its codec takes without a notice. */
export const DATA_PARAMS: Readonly<Record<string, (value: string) => boolean>> = {
  original: originalOk,
  asm: (v) => ASM_ROUTE.test(v),
  source: (v) => SOURCE_ROUTE.test(v),
  srcurl: (v) => checkTemplate(v) === null,
};

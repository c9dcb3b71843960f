// What the link's parameters may hold, for those the page's first script reads as well as the app
// (controllers/first-open.ts, which imports nothing of the store): the format's version, the view
// state a first picture draws (view=, orient=, order=) and the data parameters that say where
// more of the recording is (original=, asm=, source=, srcurl=, as `flameview FILE` links it).
// Their codecs (url-state.ts, source-params.ts) take values with these.

import { checkTemplate } from '../../core/query/source-listing';

/** v=: the link format this page reads. */
export const URL_STATE_VERSION = 1;

/** view=, orient=: each value the codec takes. */
export const VIEW_VALUES = ['functions', 'inline'] as const;
export const ORIENT_VALUES = ['flame', 'icicle'] as const;

/** order=: the one value written (by name, the default, is left out). */
export const HEAVY_ORDER = 'heavy';

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

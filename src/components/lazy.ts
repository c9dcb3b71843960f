// Components the first picture never needs (the analysis panels, the comparison) are split into
// chunks of their own and fetched when first shown, so the code before the first graph stays
// small; e2e/first-paint.spec.ts checks that loading a recording requests none of them.

import { lazy, type ComponentType } from 'react';

/** React.lazy for a module's named export (the components here export by name, not default). */
export function lazyNamed<M, K extends keyof M & string>(load: () => Promise<M>, name: K): M[K] {
  return lazy(async () => ({ default: (await load())[name] as ComponentType<object> })) as unknown as M[K];
}

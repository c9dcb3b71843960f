// Components the first picture does not need, loaded as chunks of their own when first shown
// (the analysis panels, the comparison, the time-order chart): the script the page runs before
// the first graph is smaller. e2e/lazy-chunks.spec.ts keeps them out of the first paint; the
// HTML report's loader (core/export/report.ts) resolves these imports inside the one file.

import { lazy, type ComponentType } from 'react';

/** A React.lazy of the component exported as `name` by the module `load` imports. */
export function lazyNamed<M, K extends keyof M>(load: () => Promise<M>, name: K): ComponentType {
  return lazy(async () => ({ default: (await load())[name] as ComponentType }));
}

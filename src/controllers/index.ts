// Every controller, started once from main.tsx: what drives the store from the workers, the URL
// and the window. Components only render and dispatch; none starts a controller.

import { startAsmController } from './asm-controller';
import { startCallTreeSync } from './call-tree-sync';
import { startEmbedController } from './embed';
import { startCompareResults } from './compare-results';
import { startDeriveController } from './derive-controller';
import { startCompareSync } from './flame-sources';
import { startLoadingController } from './load-controller';
import { startCompareController } from './recordings';
import { startSearchController } from './search-controller';
import { startSelectionSync } from './selection-sync';
import { startSourceController } from './source-controller';
import { startLinkedLoads, startUrlSync } from './url-sync';

export function startControllers(win: Window = window): void {
  startSearchController();
  // Before the URL sync: a link's transforms start their derivation while its zoom is applied.
  startDeriveController();
  startUrlSync(win);
  startSelectionSync();
  startCallTreeSync();
  startAsmController();
  startSourceController();
  startCompareSync();
  startCompareResults();
  // The hash (or the demo) starts loading in the worker; `#compare=` loads the second recording
  // in a worker of its own, in parallel.
  startLinkedLoads(win);
  startLoadingController(win);
  startCompareController();
  // Last: its "ready" tells a host page that recordings it sends are taken from now on.
  startEmbedController(win);
}

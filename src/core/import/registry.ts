// The formats flameview reads, in the order detection asks them. Chosen by content, never by
// file name.

import type { BytesImporter, Importer } from './importer';
import { perfScriptImporter } from './perf/perf-script';
import { foldedImporter } from './folded';
import { pprofImporter } from './pprof/pprof';
import { cpuprofileImporter } from './chrome/chrome-cpuprofile';
import { chromeTraceImporter } from './chrome/chrome-trace';
import { speedscopeImporter } from './speedscope';
import { svgImporter } from './svg/svg';
import { processedImporter } from './processed';

export const importers: readonly Importer[] = [perfScriptImporter, svgImporter, foldedImporter];

/** Whole-input formats (binary or one JSON document), asked before the line-based ones. */
export const bytesImporters: readonly BytesImporter[] = [
  processedImporter,
  pprofImporter,
  speedscopeImporter,
  chromeTraceImporter,
  cpuprofileImporter,
];

// Test helper: the importers with perf script's byte mode switched off, so that a test can read
// an input through the text path alone (the reference byte mode must agree with).

import type { Importer } from '../import/importer';
import { perfScriptImporter } from '../import/perf/perf-script';
import { importers } from '../import/registry';

/** The perf importer with its byte mode switched off: the reference. */
export const textOnly: Importer = {
  ...perfScriptImporter,
  create(options) {
    const parser = perfScriptImporter.create(options);
    (parser as { byteReader?: unknown }).byteReader = undefined;
    return parser;
  },
};

/** The registry's importers with `textOnly` in place of the perf importer. */
export const textImporters = importers.map((i) => (i === perfScriptImporter ? textOnly : i));

// The formats flameview reads, in the order detection asks them. Chosen by content, never by
// file name.

import type { Importer } from './importer';
import { perfScriptImporter } from './perf-script';
import { foldedImporter } from './folded';

export const importers: readonly Importer[] = [perfScriptImporter, foldedImporter];

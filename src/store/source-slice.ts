// The Source panel's state: the selected function's per-line weights (from the profile worker,
// controllers/source-controller.ts), the order of its lines, the file shown and its text, and
// where text can come from: the route `flameview FILE` serves (the link's source=), a folder the
// user chose (File handles, read in the page, never uploaded), and a link template (srcurl=).

import type { StateCreator } from 'zustand';
import type { FunctionLines } from '../core/query/source-lines';
import type { LineOrder } from '../core/query/source-listing';
import type { ViewKind } from '../core/model/view-types';
import type { StoreState } from './types';

type Creator<T> = StateCreator<StoreState, [['zustand/subscribeWithSelector', never]], [], T>;

/** The text of a file, or why it is not shown. */
export type SourceText =
  | { file: string; state: 'loading' }
  | { file: string; state: 'ok'; text: string; from: 'served' | 'folder' }
  | { file: string; state: 'none'; why: string };

/** What narrowed a result: the shown tree's transforms and time range (none: the whole recording). */
export interface LinesScopeText {
  transforms: number;
  range: { from: number; to: number } | null;
}

export interface SourceLinesResult {
  name: string;
  view: ViewKind;
  /** Null: the recording has no lines for this function. */
  lines: FunctionLines | null;
  scope: LinesScopeText;
  /**
   * With a comparison open: the comparison's (B's) lines of the function (null: none), and
   * `lines` are the baseline's; both over the whole recordings, as the change table compares them.
   */
  b?: FunctionLines | null;
}

export interface SourceSlice {
  sourcePanel: {
    order: LineOrder;
    /** The served route (`/api/source/<secret>`) from the link, or null. */
    served: string | null;
    /** The "open in editor / repository" template from the link, or null. */
    template: string | null;
    /** The chosen folder's files, or null. */
    folder: readonly File[] | null;
    result: SourceLinesResult | null;
    pending: boolean;
    /** The file shown in the listing (null: the hottest file of the result). */
    file: string | null;
    text: SourceText | null;
  };
  setSourceOrder(order: LineOrder): void;
  setSourceServed(served: string | null): void;
  setSourceTemplate(template: string | null): void;
  setSourceFolder(files: readonly File[] | null): void;
  showSourceFile(file: string | null): void;
  /** Worker results and fetched text (source-controller.ts only). */
  setSourceResults(patch: Partial<Pick<SourceSlice['sourcePanel'], 'result' | 'pending' | 'text'>>): void;
}

export const createSourceSlice: Creator<SourceSlice> = (set, get) => {
  const patch = (p: Partial<SourceSlice['sourcePanel']>) => set({ sourcePanel: { ...get().sourcePanel, ...p } });
  return {
    sourcePanel: { order: 'hot', served: null, template: null, folder: null, result: null, pending: false, file: null, text: null },
    setSourceOrder: (order) => patch({ order }),
    setSourceServed: (served) => {
      if (get().sourcePanel.served !== served) patch({ served });
    },
    setSourceTemplate: (template) => {
      if (get().sourcePanel.template !== template) patch({ template });
    },
    setSourceFolder: (folder) => patch({ folder }),
    showSourceFile: (file) => {
      if (get().sourcePanel.file !== file) patch({ file });
    },
    setSourceResults: (p) => patch(p),
  };
};

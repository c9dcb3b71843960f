// The analysis panels, one entry each: what the store, the link (panel=), a link's "this would
// restore …" words and the toolbar say about a panel. The component and icon that draw it are
// its entry in components/analysis/panel-views.tsx, which the type checker makes exhaustive
// (the store may not import components), so a new panel is one entry here and one there.
//
// Order is the toolbar's order. `word` is the link's panel= value: the callers & callees panel
// keeps `sandwich` (speedscope's word, the panel's first name) because links already carry it.

export interface PanelEntry {
  /** The store's name for the panel (`analysis.panel`). */
  readonly id: string;
  /** Its word in links (`panel=`). */
  readonly word: string;
  /** What a link restores, in a sentence: "the function table". */
  readonly phrase: string;
  /** The panel's landmark name (`<aside aria-label>`). */
  readonly label: string;
  /** The toolbar toggle's name and tooltip. */
  readonly button: string;
  readonly title: string;
}

export const PANELS = [
  { id: 'table', word: 'table', phrase: 'the function table', label: 'Function table panel', button: 'Function table', title: 'Function table: self and total time per function' },
  {
    id: 'callersCallees',
    word: 'sandwich',
    phrase: 'the callers & callees panel',
    label: 'Callers and callees panel',
    button: 'Callers & callees',
    title: 'Callers & callees of the selected function',
  },
  { id: 'tree', word: 'tree', phrase: 'the call tree', label: 'Call tree panel', button: 'Call tree', title: 'Call tree: running and self time along each call path' },
  { id: 'asm', word: 'asm', phrase: 'the assembly panel', label: 'Assembly panel', button: 'Assembly', title: 'Assembly: the self time of each instruction of the selected function' },
  { id: 'source', word: 'source', phrase: 'the source panel', label: 'Source panel', button: 'Source', title: 'Source: self and total time per line of the selected function' },
] as const satisfies readonly PanelEntry[];

export type PanelId = (typeof PANELS)[number]['id'];
export type PanelWord = (typeof PANELS)[number]['word'];
export type AnalysisPanel = 'none' | PanelId;

export const PANEL_WORDS: readonly PanelWord[] = PANELS.map((p) => p.word);

export function panelById(id: PanelId): (typeof PANELS)[number] {
  return PANELS.find((p) => p.id === id)!;
}

export function panelByWord(word: string): (typeof PANELS)[number] | undefined {
  return PANELS.find((p) => p.word === word);
}

// What draws each analysis panel and its toolbar icon, keyed by the panel ids of
// store/panels.ts. The Record type makes this exhaustive: a panel added there without an entry
// here does not compile. Components are imported directly: the HTML report inlines one module.

import type { ComponentType } from 'react';
import type { PanelId } from '../../store/panels';
import { AsmIcon, CallersIcon, SourceIcon, TableIcon, TreeIcon } from '../toolbar/Icons';
import { AsmPanel } from './AsmPanel';
import { CallTreePanel } from './CallTreePanel';
import { CallersCalleesView } from './CallersCalleesView';
import { FunctionTable } from './FunctionTable';
import { SourcePanel } from './SourcePanel';

export interface PanelView {
  Icon: ComponentType;
  View: ComponentType;
}

export const PANEL_VIEWS: Record<PanelId, PanelView> = {
  table: { Icon: TableIcon, View: FunctionTable },
  callersCallees: { Icon: CallersIcon, View: CallersCalleesView },
  tree: { Icon: TreeIcon, View: CallTreePanel },
  asm: { Icon: AsmIcon, View: AsmPanel },
  source: { Icon: SourceIcon, View: SourcePanel },
};

// What draws each analysis panel and its toolbar icon, keyed by the panel ids of
// store/panels.ts. The Record type makes this exhaustive: a panel added there without an entry
// here does not compile. The panels' code is one lazy chunk, loaded when a panel first opens.

import type { ComponentType } from 'react';
import type { PanelId } from '../../store/panels';
import { AsmIcon, CallersIcon, SourceIcon, TableIcon, TreeIcon } from '../toolbar/Icons';
import { lazyNamed } from '../lazy';

const panels = () => import('./panel-components');
const AsmPanel = lazyNamed(panels, 'AsmPanel');
const CallTreePanel = lazyNamed(panels, 'CallTreePanel');
const CallersCalleesView = lazyNamed(panels, 'CallersCalleesView');
const FunctionTable = lazyNamed(panels, 'FunctionTable');
const SourcePanel = lazyNamed(panels, 'SourcePanel');

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

// The analysis panels' components, one lazy chunk (panel-views.tsx imports it when a panel opens).
export { AsmPanel } from './AsmPanel';
export { CallTreePanel } from './CallTreePanel';
export { CallersCalleesView } from './CallersCalleesView';
export { FunctionTable } from './FunctionTable';
export { SourcePanel } from './SourcePanel';

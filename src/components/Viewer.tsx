// The viewer for an open recording: toolbar, search, zoom path, the flame graph, the selected
// frame's details and the status bar. Starts the search controller and the page-wide keys
// ("/" focuses the search, "?" toggles the shortcuts).

import { useEffect } from 'react';
import { startDeriveController } from '../controllers/derive-controller';
import { startSearchController } from '../controllers/search-controller';
import { useStore } from '../store/store';
import { startUrlSync } from '../controllers/url-sync';
import '../styles/viewer.css';
import { AnalysisLayout } from './analysis/AnalysisLayout';
import { Breadcrumbs } from './Breadcrumbs';
import { CompareBar } from './compare/CompareBar';
import { CompareView } from './compare/CompareView';
import { Details } from './Details';
import { FlameGraph } from './FlameGraph';
import { LinkNotices } from './LinkNotices';
import { SEARCH_INPUT_ID, SearchBox } from './SearchBox';
import { ShortcutsHelp } from './ShortcutsHelp';
import { StatusBar } from './StatusBar';
import { TimeOrderChart } from './time/TimeOrderChart';
import { Toolbar } from './Toolbar';
import { TransformBar } from './TransformBar';

export function Viewer() {
  const comparing = useStore((s) => s.compare.snapshot !== null);
  useEffect(() => startSearchController(), []);
  // Before the URL sync: a link's transforms start their derivation while its zoom is applied.
  useEffect(() => startDeriveController(), []);
  useEffect(() => startUrlSync(), []);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isEditable(e.target)) return;
      if (e.key === '/') {
        e.preventDefault();
        document.getElementById(SEARCH_INPUT_ID)?.focus();
      } else if (e.key === '?') {
        e.preventDefault();
        useStore.getState().toggleShortcuts();
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
  return (
    <div className="viewer">
      <Toolbar />
      <LinkNotices />
      <CompareBar />
      <SearchBox />
      {comparing ? (
        <CompareView />
      ) : (
        <>
          <TimeOrderChart />
          <TransformBar />
          <Breadcrumbs />
          <AnalysisLayout>
            <FlameGraph />
          </AnalysisLayout>
        </>
      )}
      <Details />
      <StatusBar />
      <ShortcutsHelp />
    </div>
  );
}

function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  const tag = target.tagName;
  return target.isContentEditable || tag === 'INPUT' || tag === 'TEXTAREA' || tag === 'SELECT';
}

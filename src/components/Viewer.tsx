// The viewer for an open recording, the graph first: one toolbar row (with the search), the zoom
// path as a thin strip on the graph's top edge, the flame graph filling the rest, the selected
// frame's details floating over the graph (nothing while nothing is selected) and the status bar;
// and the page-wide keys ("/" focuses the search, "?" toggles the shortcuts).

import { Suspense, useEffect } from 'react';
import { registerRenderer } from '../render/debug-hook';
import type { FlameRenderer } from '../render/flame-renderer';
import { useStore } from '../store/store';
import '../styles/viewer.css';
import { AnalysisLayout } from './analysis/AnalysisLayout';
import { Breadcrumbs } from './Breadcrumbs';
import { CompareBar } from './compare/CompareBar';
import { Details } from './Details';
import { FlameGraph } from './FlameGraph';
import { LinkNotices } from './LinkNotices';
import { SEARCH_INPUT_ID } from './SearchBox';
import { ShortcutsHelp } from './ShortcutsHelp';
import { StatusBar } from './StatusBar';
import { Toolbar } from './Toolbar';
import { TransformBar } from './TransformBar';
import { lazyNamed } from './lazy';

const CompareView = lazyNamed(() => import('./compare/CompareView'), 'CompareView');
const TimeOrderChart = lazyNamed(() => import('./time/TimeOrderChart'), 'TimeOrderChart');

const registerMain = (r: FlameRenderer | null) => registerRenderer('Flame graph', r, () => document.querySelector<HTMLCanvasElement>('[aria-label="Flame graph"] canvas'));

export function Viewer() {
  const comparing = useStore((s) => s.recordings.b.snapshot !== null);
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const compared = useStore((s) => s.recordings.b.snapshot);
  const sourceOpen = useStore((s) => s.analysis.panel === 'source');
  // The time-order chart's chunk loads only once there is something of it to show: the chart
  // open, or a range selected (its one-line bar).
  const timeShown = useStore((s) => s.recordings.a.snapshot?.samples != null && (s.timeChartOpen || s.timeRange !== null));
  // A recording (or a comparison) just opened, by any route (file picker, drop, paste, link):
  // the keys (/, ?, arrows) should work at once, so the graph takes the focus, unless the user
  // is typing in the search.
  useEffect(() => {
    if (!snapshot || document.activeElement?.id === SEARCH_INPUT_ID) return;
    const frame = requestAnimationFrame(() => document.querySelector<HTMLElement>('.viewer-main [role="application"]')?.focus({ preventScroll: true }));
    return () => cancelAnimationFrame(frame);
  }, [snapshot, compared]);
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
      <div className="viewer-main">
        {comparing ? (
          // Of the analysis panels only Source compares (each line in A and B); the others give way to the comparison.
          sourceOpen ? (
            <AnalysisLayout>
              <Suspense fallback={null}>
                <CompareView />
              </Suspense>
            </AnalysisLayout>
          ) : (
            <Suspense fallback={null}>
              <CompareView />
            </Suspense>
          )
        ) : (
          <>
            {timeShown && (
              <Suspense fallback={null}>
                <TimeOrderChart />
              </Suspense>
            )}
            <TransformBar />
            <Breadcrumbs />
            <AnalysisLayout>
              <FlameGraph onRenderer={registerMain} />
            </AnalysisLayout>
          </>
        )}
        <Details />
      </div>
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

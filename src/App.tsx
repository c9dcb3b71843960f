import { Viewer } from './components/Viewer';
import { DemoBanner } from './components/shell/DemoBanner';
import { DropZone } from './components/shell/DropZone';
import { EmptyState } from './components/shell/EmptyState';
import { ErrorAlert } from './components/shell/ErrorAlert';
import { Header } from './components/shell/Header';
import { LoadAnnouncer } from './components/shell/LoadAnnouncer';
import { LoadingBar } from './components/shell/LoadingBar';
import { useStore } from './store/store';

export function App() {
  const hasRecording = useStore((s) => s.snapshot !== null);
  return (
    <div className="shell">
      <Header />
      <div className="shell-notices">
        <ErrorAlert />
        <LoadingBar />
        <DemoBanner />
      </div>
      <main className="shell-main">{hasRecording ? <Viewer /> : <EmptyState />}</main>
      <DropZone />
      <LoadAnnouncer />
    </div>
  );
}

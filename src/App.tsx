import { Viewer } from './components/Viewer';
import { DemoBanner } from './components/shell/DemoBanner';
import { DropZone } from './components/shell/DropZone';
import { EmptyState } from './components/shell/EmptyState';
import { ErrorAlert } from './components/shell/ErrorAlert';
import { Header } from './components/shell/Header';
import { LoadAnnouncer } from './components/shell/LoadAnnouncer';
import { LoadingBar } from './components/shell/LoadingBar';
import { useStore } from './store/store';
import { isEmbedMode } from './controllers/embed-mode';

export function App() {
  const hasRecording = useStore((s) => s.recordings.a.snapshot !== null);
  // In a frame (`?embed=1`) the viewer's own toolbar is the only chrome: no header, no demo banner.
  const embed = isEmbedMode();
  return (
    <div className={embed ? 'shell shell-embed' : 'shell'}>
      {!embed && <Header />}
      <div className="shell-notices">
        <ErrorAlert />
        <LoadingBar />
        {!embed && <DemoBanner />}
      </div>
      <main className="shell-main">{hasRecording ? <Viewer /> : <EmptyState />}</main>
      <DropZone />
      <LoadAnnouncer />
    </div>
  );
}

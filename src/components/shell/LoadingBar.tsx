import { useEffect, useState } from 'react';
import { cancel } from '../../controllers/recordings';
import { useStore } from '../../store/store';
import { progressText } from '../../format';

/** Appears when a load takes longer than this, so quick loads do not flash a bar. */
const SHOW_AFTER_MS = 300;

export function LoadingBar() {
  const loading = useStore((s) => s.recordings.a.loading);
  const active = loading !== null;
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    if (!active) {
      setVisible(false);
      return;
    }
    const timer = setTimeout(() => setVisible(true), SHOW_AFTER_MS);
    return () => clearTimeout(timer);
  }, [active]);
  if (!loading || !visible) return null;
  const { name, bytesRead, totalBytes, samples } = loading;
  return (
    <div className="shell-loading" role="group" aria-label="Loading">
      <div className="shell-loading-row">
        <span className="shell-loading-name">
          Loading <strong>{name}</strong>
        </span>
        <span className="shell-loading-figures">
          {progressText(bytesRead, totalBytes, samples)}
        </span>
        <button type="button" className="btn" onClick={cancel}>
          Cancel
        </button>
      </div>
      <progress
        className="shell-progress"
        aria-label={`Loading ${name}`}
        max={totalBytes ?? undefined}
        value={totalBytes !== null ? Math.min(bytesRead, totalBytes) : undefined}
      />
    </div>
  );
}

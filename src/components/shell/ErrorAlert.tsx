import { useStore } from '../../store/store';

/** The last loading error, one line; the recording that was open stays open underneath. */
export function ErrorAlert() {
  const error = useStore((s) => s.recordings.a.error);
  const dismiss = useStore((s) => s.dismissError);
  if (!error) return null;
  return (
    <div className="shell-alert" role="alert">
      <span className="shell-alert-icon" aria-hidden="true">!</span>
      <p className="shell-alert-text">{error}</p>
      <button type="button" className="btn btn-quiet" onClick={() => dismiss()} aria-label="Dismiss error">
        ✕
      </button>
    </div>
  );
}

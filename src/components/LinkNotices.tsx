// Notices about the link the page was opened with: a bad value ignored, a frame that is no
// longer in the recording (and which ancestor is shown instead). Names render as text.

import { useLinkNotices } from '../controllers/url-sync';

export function LinkNotices() {
  const notices = useLinkNotices((s) => s.notices);
  const dismiss = useLinkNotices((s) => s.dismiss);
  return (
    <div className="link-notices" role="status" aria-label="Link notices">
      {notices.map((n) => (
        <p key={n.id} className="link-notice">
          <span>{n.text}</span>
          <button type="button" className="btn btn-small btn-quiet" aria-label="Dismiss this notice" onClick={() => dismiss(n.id)}>
            ✕
          </button>
        </p>
      ))}
    </div>
  );
}

// "Copy link" and "Share". Copy link copies the address (view, zoom, search in the hash); for a
// dropped or pasted recording it says that the recording itself is not in the link, and offers
// Share when a flameview server answers on this origin: Share uploads the recording's own bytes
// and moves the page to /p/<id>#<state>, then copies that link. The work is in src/share.

import { useEffect, useRef, useState } from 'react';
import type { ProfileSnapshot } from '../core/snapshot';
import { copyText, serverAvailable, shareOpenRecording } from '../share/share';
import { useStore } from '../store/store';
import { flushUrlWrite } from '../store/url-sync';
import '../styles/share.css';

type Panel =
  | { kind: 'copied' | 'manual' | 'shared'; url: string }
  | { kind: 'uploading' }
  | { kind: 'error'; message: string; url: string };

export function ShareButtons() {
  const snapshot = useStore((s) => s.snapshot);
  const sourceKind = useStore((s) => s.source?.kind ?? null);
  const [server, setServer] = useState(false);
  const [shared, setShared] = useState<ProfileSnapshot | null>(null);
  const [panel, setPanel] = useState<Panel | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const fromBytes = (sourceKind === 'file' || sourceKind === 'paste') && shared !== snapshot;

  useEffect(() => {
    if (!fromBytes) return;
    let live = true;
    void serverAvailable().then((ok) => live && setServer(ok));
    return () => {
      live = false;
    };
  }, [fromBytes]);

  useEffect(() => {
    if (!panel) return;
    const close = (e: Event) => {
      if (e instanceof KeyboardEvent ? e.key === 'Escape' : !box.current?.contains(e.target as Node)) setPanel(null);
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [panel]);

  useEffect(() => {
    if (panel?.kind === 'manual') input.current?.select();
  }, [panel]);

  const copyLink = async () => {
    flushUrlWrite();
    const url = window.location.href;
    setPanel({ kind: (await copyText(url)) ? 'copied' : 'manual', url });
  };

  const share = async () => {
    const uploaded = snapshot;
    setPanel({ kind: 'uploading' });
    flushUrlWrite();
    const result = await shareOpenRecording();
    if (!result.ok) {
      setPanel({ kind: 'error', message: `Could not share the recording: ${result.message}.`, url: window.location.href });
      return;
    }
    setShared(uploaded);
    setPanel({ kind: (await copyText(result.url)) ? 'shared' : 'manual', url: result.url });
  };

  const what = sourceKind === 'paste' ? 'pasted text' : 'a file on your computer';
  return (
    <div className="share" ref={box}>
      <button type="button" className="btn" aria-expanded={panel !== null} onClick={() => void copyLink()}>
        Copy link
      </button>
      {fromBytes && server && !panel && (
        <button type="button" className="btn" onClick={() => void share()}>
          Share
        </button>
      )}
      {panel && (
        <div className="share-panel" role="group" aria-label="Link">
          <p role="status">
            {panel.kind === 'copied' && 'Link copied.'}
            {panel.kind === 'manual' && 'The clipboard is not available here: copy the selected link below.'}
            {panel.kind === 'shared' && 'Uploaded to this server: the link now opens the recording. Link copied.'}
            {panel.kind === 'uploading' && 'Uploading the recording…'}
            {panel.kind === 'error' && <span className="share-error">{panel.message}</span>}
          </p>
          {fromBytes && panel.kind !== 'uploading' && (
            <p>
              The recording itself is not in the link: it was opened from {what}. The link carries the view, zoom and search, which
              apply when the recipient opens the same recording.{' '}
              {server
                ? 'Share uploads it to this server so that the link opens it.'
                : 'To share it too, open it with bin/flameview serve (Share), or put the file at a URL and link it with #profile=.'}
            </p>
          )}
          {panel.kind !== 'uploading' && <input ref={input} readOnly aria-label="Link" value={panel.url} onFocus={(e) => e.currentTarget.select()} />}
          <div className="share-panel-actions">
            {fromBytes && server && panel.kind !== 'uploading' && (
              <button type="button" className="btn btn-primary" onClick={() => void share()}>
                Share
              </button>
            )}
            <button type="button" className="btn" onClick={() => setPanel(null)}>
              Close
            </button>
          </div>
        </div>
      )}
    </div>
  );
}

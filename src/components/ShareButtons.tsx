// "Copy link" and "Share". Copy link copies the address (view, zoom, search in the hash); for a
// dropped or pasted recording (or a comparison opened from a file) it says that the recording
// itself is not in the link, and offers Share when a flameview server answers on this origin:
// Share uploads those recordings' own bytes (both of a comparison, in parallel) and moves the
// page to /p/<id>#<state>&compare=…, then copies that link. The work is in src/share.

import { useEffect, useRef, useState } from 'react';
import type { ProfileSnapshot } from '../core/session/snapshot';
import { copyText, serverAvailable, shareRecordings } from '../controllers/share';
import { useStore } from '../store/store';
import { flushUrlWrite } from '../controllers/url-sync';
import '../styles/share.css';

type Panel =
  | { kind: 'copied' | 'manual' | 'shared'; url: string }
  | { kind: 'uploading'; both: boolean }
  | { kind: 'error'; message: string; url: string };

export function ShareButtons() {
  const snapshot = useStore((s) => s.snapshot);
  const sourceKind = useStore((s) => s.source?.kind ?? null);
  const compareSnapshot = useStore((s) => s.compare.snapshot);
  const compareFromFile = useStore((s) => s.compare.snapshot !== null && s.compare.url === null);
  const [server, setServer] = useState(false);
  const [shared, setShared] = useState<ProfileSnapshot | null>(null);
  const [sharedCompare, setSharedCompare] = useState<ProfileSnapshot | null>(null);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [sharedWhat, setSharedWhat] = useState('the recording');
  const box = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const baseFromBytes = (sourceKind === 'file' || sourceKind === 'paste') && shared !== snapshot;
  const compareFromBytes = compareFromFile && sharedCompare !== compareSnapshot;
  const fromBytes = baseFromBytes || compareFromBytes;

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
    const uploadedCompare = compareSnapshot;
    const parts = { baseline: baseFromBytes, comparison: compareFromBytes };
    setPanel({ kind: 'uploading', both: parts.baseline && parts.comparison });
    flushUrlWrite();
    const result = await shareRecordings(parts);
    if (!result.ok) {
      const what = parts.baseline && parts.comparison ? 'the recordings' : parts.comparison ? 'the comparison' : 'the recording';
      setPanel({ kind: 'error', message: `Could not share ${what}: ${result.message}.`, url: window.location.href });
      return;
    }
    if (result.uploaded.baseline) setShared(uploaded);
    if (result.uploaded.comparison) setSharedCompare(uploadedCompare);
    setSharedWhat(result.uploaded.baseline && result.uploaded.comparison ? 'both recordings' : result.uploaded.comparison ? 'the comparison' : 'the recording');
    setPanel({ kind: (await copyText(result.url)) ? 'shared' : 'manual', url: result.url });
  };

  const what = sourceKind === 'paste' ? 'pasted text' : 'a file on your computer';
  const caveat = baseFromBytes
    ? compareFromBytes
      ? `Neither recording is in the link: the baseline was opened from ${what}, the comparison from a file.`
      : `The recording itself is not in the link: it was opened from ${what}.`
    : 'The comparison recording is not in the link: it was opened from a file on your computer.';
  const uploads = baseFromBytes && compareFromBytes ? 'both' : 'it';
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
            {panel.kind === 'shared' && `Uploaded to this server: the link now opens ${sharedWhat}. Link copied.`}
            {panel.kind === 'uploading' && (panel.both ? 'Uploading both recordings…' : 'Uploading the recording…')}
            {panel.kind === 'error' && <span className="share-error">{panel.message}</span>}
          </p>
          {fromBytes && panel.kind !== 'uploading' && (
            <p>
              {caveat} The link carries the view, zoom and search, which apply when the recipient opens the same{' '}
              {baseFromBytes && compareFromBytes ? 'recordings' : 'recording'}.{' '}
              {server
                ? `Share uploads ${uploads} to this server so that the link opens ${uploads === 'both' ? 'them' : 'it'}.`
                : `To share ${uploads} too, open ${uploads === 'both' ? 'them' : 'it'} with bin/flameview serve (Share), or put the file at a URL and link it with ${baseFromBytes ? '#profile=' : '#compare='}.`}
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

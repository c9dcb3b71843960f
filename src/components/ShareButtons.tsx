// "Copy link" and "Share". Copy link copies the address (view, zoom, search in the hash); for a
// dropped or pasted recording (or a comparison opened from a file) it says that the recording
// itself is not in the link, and offers Share when a flameview server answers on this origin:
// Share uploads those recordings processed (both of a comparison, in parallel; the baseline's own
// bytes too when "Keep the original recording" is ticked) and moves the page to
// /p/<id>#<state>&compare=…&original=…, then copies that link. A server that wants its upload token
// gets it asked for once (kept in this browser); on a /p/<id> page this browser uploaded, the
// panel offers "Delete shared copy". The work is in src/controllers (share.ts, team-server.ts).

import { useEffect, useRef, useState } from 'react';
import type { ProfileSnapshot } from '../core/views/snapshot';
import { copyText, deleteSharedWithOriginal, shareRecordings } from '../controllers/share';
import { apiRoot, ownedRecordings, pageRecordingId, saveUploadToken, serverInfo, uploadToken, type ServerInfo } from '../controllers/team-server';
import { useStore } from '../store/store';
import { flushUrlWrite } from '../controllers/url-sync';
import '../styles/share.css';
import { UploadTokenForm } from './UploadTokenForm';
import { useDismiss } from './use-dismiss';

type Panel =
  | { kind: 'copied' | 'manual' | 'shared'; url: string }
  | { kind: 'uploading'; both: boolean }
  | { kind: 'error'; message: string; url: string }
  | { kind: 'token'; error?: string }
  | { kind: 'confirm-delete' | 'deleting' }
  | { kind: 'deleted'; alreadyGone: boolean }
  | { kind: 'delete-failed'; message: string };

export function ShareButtons() {
  const snapshot = useStore((s) => s.recordings.a.snapshot);
  const sourceKind = useStore((s) => s.source?.kind ?? null);
  const compareSnapshot = useStore((s) => s.recordings.b.snapshot);
  const compareFromFile = useStore((s) => s.recordings.b.snapshot !== null && s.compare.url === null);
  const [info, setInfo] = useState<ServerInfo | null>(null);
  const server = info !== null;
  // Bumped when this browser's kept delete tokens change, so the panel reads them again.
  const [, setOwnedVersion] = useState(0);
  const [shared, setShared] = useState<ProfileSnapshot | null>(null);
  const [sharedCompare, setSharedCompare] = useState<ProfileSnapshot | null>(null);
  const [panel, setPanel] = useState<Panel | null>(null);
  const [sharedWhat, setSharedWhat] = useState('the recording');
  // Off by default: the original is the large upload Share exists to avoid.
  const [keepOriginal, setKeepOriginal] = useState(false);
  const events = snapshot?.meta.events ?? [];
  const box = useRef<HTMLDivElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const baseFromBytes = (sourceKind === 'file' || sourceKind === 'paste') && shared !== snapshot;
  const compareFromBytes = compareFromFile && sharedCompare !== compareSnapshot;
  const fromBytes = baseFromBytes || compareFromBytes;

  useEffect(() => {
    let live = true;
    void serverInfo().then((found) => live && setInfo(found));
    return () => {
      live = false;
    };
  }, []);

  const api = apiRoot(window.location);
  const pageId = pageRecordingId(window.location);
  const owned = server && pageId ? (ownedRecordings(api)[pageId] ?? null) : null;

  useDismiss(panel !== null, box, () => setPanel(null));

  useEffect(() => {
    if (panel?.kind === 'manual') input.current?.select();
  }, [panel]);

  const copyLink = async () => {
    flushUrlWrite();
    const url = window.location.href;
    setPanel({ kind: (await copyText(url)) ? 'copied' : 'manual', url });
  };

  const share = async () => {
    if (info?.uploadToken && !uploadToken(api)) {
      setPanel({ kind: 'token' });
      return;
    }
    const uploaded = snapshot;
    const uploadedCompare = compareSnapshot;
    const parts = { baseline: baseFromBytes, comparison: compareFromBytes, keepOriginal: baseFromBytes && keepOriginal };
    setPanel({ kind: 'uploading', both: parts.baseline && parts.comparison });
    flushUrlWrite();
    const result = await shareRecordings(parts);
    if (!result.ok && result.unauthorized) {
      saveUploadToken(api, null);
      setPanel({ kind: 'token', error: uploadToken(api) === null && info?.uploadToken ? 'The server did not take that token.' : undefined });
      return;
    }
    if (!result.ok) {
      const what = parts.baseline && parts.comparison ? 'the recordings' : parts.comparison ? 'the comparison' : 'the recording';
      setPanel({ kind: 'error', message: `Could not share ${what}: ${result.message}.`, url: window.location.href });
      return;
    }
    setOwnedVersion((v) => v + 1);
    if (result.uploaded.baseline) setShared(uploaded);
    if (result.uploaded.comparison) setSharedCompare(uploadedCompare);
    const recordings = result.uploaded.baseline && result.uploaded.comparison ? 'both recordings' : result.uploaded.comparison ? 'the comparison' : 'the recording';
    setSharedWhat(result.uploaded.original ? `${recordings}, with the original kept` : recordings);
    setPanel({ kind: (await copyText(result.url)) ? 'shared' : 'manual', url: result.url });
  };

  const removeShared = async () => {
    if (!pageId) return;
    setPanel({ kind: 'deleting' });
    const result = await deleteSharedWithOriginal(api, pageId);
    setOwnedVersion((v) => v + 1);
    setPanel(result.ok ? { kind: 'deleted', alreadyGone: result.alreadyGone } : { kind: 'delete-failed', message: result.message });
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
      <button type="button" className="menu-item" aria-expanded={panel !== null} onClick={() => void copyLink()}>
        Copy link
      </button>
      {fromBytes && server && !panel && (
        <button type="button" className="menu-item" onClick={() => void share()}>
          Share
        </button>
      )}
      {panel && (
        <div className="share-panel" role="group" aria-label="Link">
          {panel.kind === 'token' ? (
            <UploadTokenForm
              error={panel.error}
              action="Save token and share"
              onSubmit={(token) => {
                saveUploadToken(api, token);
                void share();
              }}
              onCancel={() => setPanel(null)}
            />
          ) : panel.kind === 'confirm-delete' || panel.kind === 'deleting' ? (
            <>
              <p role="status">
                {panel.kind === 'deleting'
                  ? 'Deleting the shared copy…'
                  : `Delete the shared copy of ${owned?.name || 'this recording'} from this server? Its links will stop opening it; it stays open in this page.`}
              </p>
              <div className="share-panel-actions">
                <button type="button" className="btn btn-danger" disabled={panel.kind === 'deleting'} onClick={() => void removeShared()}>
                  Delete
                </button>
                <button type="button" className="btn" onClick={() => setPanel(null)}>
                  Cancel
                </button>
              </div>
            </>
          ) : (
            <>
              <p role="status">
                {panel.kind === 'copied' && 'Link copied.'}
                {panel.kind === 'manual' && 'The clipboard is not available here: copy the selected link below.'}
                {panel.kind === 'shared' && `Uploaded to this server: the link now opens ${sharedWhat}. Link copied.`}
                {panel.kind === 'uploading' && (panel.both ? 'Uploading both recordings…' : 'Uploading the recording…')}
                {panel.kind === 'error' && <span className="share-error">{panel.message}</span>}
                {panel.kind === 'deleted' && (panel.alreadyGone ? 'It was already gone from this server.' : 'Deleted from this server: its links no longer open it.')}
                {panel.kind === 'delete-failed' && <span className="share-error">Could not delete the shared copy: {panel.message}.</span>}
              </p>
              {fromBytes && panel.kind !== 'uploading' && (
                <p>
                  {caveat} The link carries the view, zoom and search, which apply when the recipient opens the same{' '}
                  {baseFromBytes && compareFromBytes ? 'recordings' : 'recording'}.{' '}
                  {server
                    ? `Share uploads ${uploads} to this server so that the link opens ${uploads === 'both' ? 'them' : 'it'}: processed, a compact form that opens without parsing.`
                    : `To share ${uploads} too, open ${uploads === 'both' ? 'them' : 'it'} with bin/flameview serve (Share), or put the file at a URL and link it with ${baseFromBytes ? '#profile=' : '#compare='}.`}
                </p>
              )}
              {baseFromBytes && server && panel.kind !== 'uploading' && (
                <label className="share-keep">
                  <input type="checkbox" checked={keepOriginal} onChange={(e) => setKeepOriginal(e.currentTarget.checked)} />
                  Keep the original recording too{' '}
                  {events.length > 1
                    ? `(the processed form holds the event shown, ${snapshot?.meta.event ?? events[0].name}; with the original the link can switch to ${events.length === 2 ? 'the other event' : `the other ${events.length - 1} events`})`
                    : '(a larger upload; the processed form draws the same views)'}
                </label>
              )}
              {'url' in panel && <input ref={input} readOnly aria-label="Link" value={panel.url} onFocus={(e) => e.currentTarget.select()} />}
              <div className="share-panel-actions">
                {owned && panel.kind !== 'uploading' && (
                  <button type="button" className="btn" onClick={() => setPanel({ kind: 'confirm-delete' })}>
                    Delete shared copy
                  </button>
                )}
                {fromBytes && server && panel.kind !== 'uploading' && (
                  <button type="button" className="btn btn-primary" onClick={() => void share()}>
                    Share
                  </button>
                )}
                <button type="button" className="btn" onClick={() => setPanel(null)}>
                  Close
                </button>
              </div>
            </>
          )}
        </div>
      )}
    </div>
  );
}

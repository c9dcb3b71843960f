// "Recordings": the list of what a `flameview serve --list` server stores, newest first, with a
// link to each and "Delete" for those this browser uploaded. It opens by itself on the server's
// root page (no recording in the address), which is where a team member lands. The work is in
// src/controllers/team-server.ts.

import { useEffect, useRef, useState } from 'react';
import { apiRoot, deleteShared, landedAtServerRoot, listRecordings, ownedRecordings, saveUploadToken, serverInfo, uploadToken, type StoredRecording } from '../controllers/team-server';
import { formatBytes } from '../format';
import { UploadTokenForm } from './UploadTokenForm';
import { useDismiss } from './use-dismiss';

type State =
  | { kind: 'loading' }
  | { kind: 'list'; recordings: StoredRecording[] }
  | { kind: 'token'; error?: string }
  | { kind: 'error'; message: string };

const pad = (n: number) => String(n).padStart(2, '0');
function formatDate(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

export function ServerRecordings({ api, onChange }: { api: string; onChange: () => void }) {
  const [open, setOpen] = useState(landedAtServerRoot);
  const [state, setState] = useState<State>({ kind: 'loading' });
  const box = useRef<HTMLDivElement>(null);
  const root = api.slice(0, -'/api/profiles'.length);

  const load = async () => {
    setState({ kind: 'loading' });
    const result = await listRecordings(api);
    if (result.ok) return setState({ kind: 'list', recordings: result.recordings });
    if (!result.unauthorized) return setState({ kind: 'error', message: result.message });
    const hadToken = uploadToken(api) !== null;
    saveUploadToken(api, null);
    setState({ kind: 'token', error: hadToken ? 'The server did not take that token.' : undefined });
  };

  useEffect(() => {
    if (open) void load();
    // eslint-disable-next-line react-hooks/exhaustive-deps -- load is a fresh closure each render; the list is fetched when the panel opens or the server changes
  }, [open, api]);

  useDismiss(open, box, () => setOpen(false));

  const remove = async (id: string) => {
    const result = await deleteShared(api, id);
    onChange();
    if (!result.ok) return setState({ kind: 'error', message: `Could not delete it: ${result.message}` });
    await load();
  };

  const owned = ownedRecordings(api);
  return (
    <div className="server-recordings" ref={box}>
      <button type="button" className="btn" aria-expanded={open} onClick={() => setOpen(!open)}>
        Recordings
      </button>
      {open && (
        <div className="share-panel recordings-panel" role="group" aria-label="Recordings on this server">
          {state.kind === 'loading' && <p role="status">Loading the list…</p>}
          {state.kind === 'error' && <p role="status" className="share-error">{state.message}</p>}
          {state.kind === 'token' && (
            <UploadTokenForm
              error={state.error}
              action="Save token and list"
              onSubmit={(token) => {
                saveUploadToken(api, token);
                void load();
              }}
              onCancel={() => setOpen(false)}
            />
          )}
          {state.kind === 'list' &&
            (state.recordings.length === 0 ? (
              <p role="status">No recordings on this server yet: open one and Share it.</p>
            ) : (
              <table className="recordings-table">
                <caption>Recordings on this server, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Size</th>
                    <th scope="col">Stored</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {state.recordings.map((r) => (
                    <tr key={r.id}>
                      <td>
                        <a href={`${root}/p/${r.id}`} title={r.id}>
                          {r.name || `${r.id.slice(0, 12)}…`}
                        </a>
                      </td>
                      <td>{formatBytes(r.size)}</td>
                      <td>{formatDate(r.date)}</td>
                      <td>
                        {owned[r.id] && (
                          <button type="button" className="btn btn-small" aria-label={`Delete ${r.name || r.id}`} onClick={() => void remove(r.id)}>
                            Delete
                          </button>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            ))}
        </div>
      )}
    </div>
  );
}

/**
 * The Recordings button on the toolbar itself (not in a menu), on `serve --list` servers only, so
 * the list can open by itself when the page lands at the server's root.
 */
export function ServerRecordingsButton() {
  const [list, setList] = useState(false);
  useEffect(() => {
    let live = true;
    void serverInfo().then((info) => live && setList(info?.list === true));
    return () => {
      live = false;
    };
  }, []);
  return list ? <ServerRecordings api={apiRoot(window.location)} onChange={() => {}} /> : null;
}

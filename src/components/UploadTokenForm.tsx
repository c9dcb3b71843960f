// Asks once for the server's upload token (kept in this browser for that server by the caller).

import { useState } from 'react';

export function UploadTokenForm({ error, action, onSubmit, onCancel }: { error?: string; action: string; onSubmit: (token: string) => void; onCancel: () => void }) {
  const [token, setToken] = useState('');
  return (
    <form
      className="upload-token-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (token.trim()) onSubmit(token.trim());
      }}
    >
      <p>
        {error ? <span className="share-error">{error} </span> : null}
        This server needs its upload token to store recordings (ask whoever runs it). This browser keeps it for this server.
      </p>
      <input type="password" aria-label="Upload token" autoComplete="off" autoFocus value={token} onChange={(e) => setToken(e.currentTarget.value)} />
      <div className="share-panel-actions">
        <button type="submit" className="btn btn-primary" disabled={!token.trim()}>
          {action}
        </button>
        <button type="button" className="btn" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

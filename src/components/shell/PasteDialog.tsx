import { useEffect, useRef, useState } from 'react';
import { openPasted } from '../../controllers/recordings';

/** A modal with a textarea for pasted `perf script` output or folded stacks. */
export function PasteDialog({ onClose }: { onClose: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [text, setText] = useState('');
  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
    return () => d?.close();
  }, []);
  const load = () => {
    if (text.trim() === '') return;
    void openPasted(text);
    onClose();
  };
  return (
    <dialog ref={dialog} className="shell-dialog" aria-labelledby="paste-title" onClose={onClose} onCancel={onClose}>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          load();
        }}
      >
        <h2 id="paste-title">Paste a recording</h2>
        <p className="shell-muted">
          The output of <code>perf script</code>, folded stacks (<code>a;b;c 42</code> per line), or an http(s) link to a recording.
        </p>
        <textarea
          aria-label="Recording text"
          value={text}
          onChange={(e) => setText(e.target.value)}
          rows={12}
          spellCheck={false}
          autoFocus
          placeholder={'main;parse;lex 12\nmain;optimise 30'}
        />
        <div className="shell-dialog-actions">
          <button type="button" className="btn" onClick={onClose}>
            Close
          </button>
          <button type="submit" className="btn btn-primary" disabled={text.trim() === ''}>
            Load
          </button>
        </div>
      </form>
    </dialog>
  );
}

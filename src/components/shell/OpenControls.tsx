import { useRef, useState, type ChangeEvent } from 'react';
import { openFiles } from '../../controllers/recordings';
import { PasteDialog } from './PasteDialog';

const FILE_INPUT_ID = 'open-file-input';

/** Opens the file picker of the header's file input (for buttons elsewhere, e.g. the demo banner). */
export function openFilePicker(): void {
  document.getElementById(FILE_INPUT_ID)?.click();
}

export function OpenControls() {
  const [pasteOpen, setPasteOpen] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    // Several files chosen at once open as one graph of their sum.
    const files = Array.from(event.target.files ?? []);
    if (files.length > 0) void openFiles(files);
    // Let the same file be chosen again (e.g. after fixing it on disk).
    event.target.value = '';
  };
  return (
    <div className="shell-open">
      <label className="btn btn-primary shell-file">
        <input ref={input} id={FILE_INPUT_ID} type="file" multiple className="visually-hidden" aria-label="Open file" onChange={onChange} />
        <span aria-hidden="true">Open file…</span>
      </label>
      <button type="button" className="btn" onClick={() => setPasteOpen(true)}>
        Paste…
      </button>
      {pasteOpen && <PasteDialog onClose={() => setPasteOpen(false)} />}
    </div>
  );
}

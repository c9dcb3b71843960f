import { useEffect } from 'react';
import { useStore } from '../../store/store';
import { OpenControls } from './OpenControls';

export function Header() {
  const name = useStore((s) => s.recordings.a.name);
  useEffect(() => {
    document.title = name ? `${name} · flameview` : 'flameview';
  }, [name]);
  return (
    <header className="shell-header">
      <a className="shell-brand" href="./" aria-label="flameview home">
        <svg width="22" height="22" viewBox="0 0 16 16" aria-hidden="true">
          <rect x="0" y="12" width="16" height="4" rx="0.6" fill="#d9572b" />
          <rect x="1" y="8" width="10" height="3.6" rx="0.6" fill="#ee8a36" />
          <rect x="11.5" y="8" width="3.5" height="3.6" rx="0.6" fill="#f2b441" />
          <rect x="2" y="4" width="5.5" height="3.6" rx="0.6" fill="#f6cf55" />
          <rect x="3" y="0" width="2.5" height="3.6" rx="0.6" fill="#fae38a" />
        </svg>
        <span>flameview</span>
      </a>
      {name && (
        <span className="shell-doc" title={name} data-testid="recording-name">
          {name}
        </span>
      )}
      <div className="shell-spacer" />
      <OpenControls />
    </header>
  );
}

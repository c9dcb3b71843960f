import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startCompareController } from './controllers/recordings';
import { startLoadingController } from './controllers/load-controller';
import { useStore } from './store/store';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('flameview: #root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// After the first render is scheduled: the hash (or the demo) starts loading in the worker.
startLoadingController();
// `#compare=` loads the second recording in a worker of its own, in parallel.
startCompareController();

// A handle for the browser benchmark, the e2e tests and curious users in the console.
(window as unknown as { flameview: unknown }).flameview = { store: useStore };

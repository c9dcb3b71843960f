import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startControllers } from './controllers';
import { useStore } from './store/store';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('flameview: #root is missing from index.html');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
// After the first render is scheduled: every controller (controllers/index.ts), among them the
// loading of the hash's recording (or the demo).
startControllers();

// A handle for the browser benchmark, the e2e tests and curious users in the console.
(window as unknown as { flameview: unknown }).flameview = { store: useStore };

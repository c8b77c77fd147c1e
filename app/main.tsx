// Entry: start the engine worker first (the cluster boots while React paints),
// then render the workspace.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { installDebugHook } from './debugHook';
import { startEngine, startOptionsFromUrl } from './engineClient';
import './styles.css';

startEngine(startOptionsFromUrl(window.location.search));
installDebugHook();

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// Mounts the workspace (loaded after the engine worker has been started).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';

export function render(root: HTMLElement): void {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

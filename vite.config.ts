import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The playground lives in app/ (index.html there); engine/ is imported by the
// worker host in engine/host/worker.ts.
export default defineConfig({
  root: 'app',
  publicDir: '../public',
  plugins: [react()],
  build: { outDir: '../dist', emptyOutDir: true, target: 'es2022', chunkSizeWarningLimit: 4000 },
  worker: { format: 'es' },
  server: { host: '127.0.0.1', port: 5173 },
  preview: { host: '127.0.0.1', port: 4173 },
});

import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  root: import.meta.dirname,
  plugins: [react(), tailwindcss()],
  // the manifest says which chunks each screen loads: tests/e2e/page-weight.e2e.test.ts holds them to budget
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    manifest: true,
    // every browser the dashboard supports preloads modules itself (the polyfill only weighs on /signin)
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1000,
  },
  server: {
    proxy: {
      '/api': 'http://localhost:3000',
      '/uploads': 'http://localhost:3000',
      '/ws': { target: 'ws://localhost:3000', ws: true },
    },
  },
});

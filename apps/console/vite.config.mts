import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

// The console is served by the gateway under /console (same origin as the API it calls).
export default defineConfig({
  root: import.meta.dirname,
  base: '/console/',
  plugins: [react()],
  // the browser-safe workspace libs it shares (tagged scope:console; tsconfig.json's paths)
  resolve: { alias: { '@coffer/csv': fileURLToPath(new URL('../../libs/csv/src/index.ts', import.meta.url)) } },
  build: {
    outDir: '../../dist/apps/console',
    emptyOutDir: true,
    // no inline scripts or data: modules anywhere: the page's CSP allows scripts from 'self' only
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
    sourcemap: false,
    target: 'es2022',
    // the editor (CodeMirror) is one lazy chunk of ~400 kB raw; the budget that matters is the gzipped total (check-size.mjs)
    chunkSizeWarningLimit: 600,
  },
});

import { fileURLToPath } from 'node:url';
import preact from '@preact/preset-vite';
import { defineConfig } from 'vite';

// The console's build (`npm run build:console`, also run by `npm install`): served by Parley at
// /console from console/dist, so every URL in it starts with /console/.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: '/console/',
  plugins: [preact()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    // D101: no data: URLs (the CSP allows images and fonts from the server only).
    assetsInlineLimit: 0,
    // Every browser the console supports has modulepreload; the polyfill would be dead weight.
    modulePreload: { polyfill: false },
  },
});

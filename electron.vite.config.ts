// Build configuration for the three Electron bundles: main (engine + shell), preload (contextBridge), renderer (React).
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        // The CLI shares the main bundle's build (Node target, dependencies external): out/main/cli.js.
        input: { index: resolve('electron/main/index.ts'), cli: resolve('electron/cli/index.ts') },
        // Native modules stay outside the bundle: they are loaded from node_modules (unpacked from asar when packaged).
        external: ['electron', 'better-sqlite3', '@napi-rs/keyring'],
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      rollupOptions: {
        input: { index: resolve('electron/preload/index.ts') },
        // A sandboxed preload cannot load ES modules: emit one CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      // ES2021: the security gate's scanner (Electronegativity's parser) reads no class static blocks (ES2022, used by
      // intl-messageformat), and a file it cannot parse fails the gate; Chromium runs either.
      target: 'es2021',
      outDir: resolve('out/renderer'),
      rollupOptions: { input: { index: resolve('renderer/index.html') } },
    },
  },
});

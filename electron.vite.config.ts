import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // out/ mirrors the source tree, so the entry's paths to ../../renderer and ../../preload hold in both.
      // The entry is named by an object key: electron-vite 6 on Vite 8 ignores lib.fileName, and the
      // bundle landed in out/main/index.js, where package.json's "main" and those paths miss it.
      lib: { entry: { 'electron/index': 'main/electron/index.ts' }, formats: ['es'] },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      // A sandboxed preload can require nothing but electron: everything else is bundled in.
      externalizeDeps: false,
      lib: { entry: 'preload/index.ts', formats: ['cjs'], fileName: () => 'index.cjs' },
      rollupOptions: { external: ['electron'] },
    },
  },
  renderer: {
    root: 'renderer',
    plugins: [react()],
    build: {
      outDir: 'out/renderer',
      rollupOptions: { input: 'renderer/index.html' },
    },
  },
});

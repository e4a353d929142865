import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';

export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      // out/ mirrors the source tree, so the entry's paths to ../../renderer and ../../preload hold in both.
      lib: { entry: 'main/electron/index.ts', formats: ['es'] },
      rollupOptions: { output: { entryFileNames: 'electron/[name].js' } },
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

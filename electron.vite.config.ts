import react from '@vitejs/plugin-react';
import { defineConfig } from 'electron-vite';
import type { Plugin } from 'vite';

/**
 * `import … from 'node:http'` in an ES module makes Node build the module's ES facade, which reads every
 * export, and three of them (WebSocket, CloseEvent, MessageEvent) load Node's own copy of undici on first
 * read: 0.1–0.4 s at every start, for nothing we use. The bundle takes node:http through `require` instead.
 * Only the names below are offered: a new import from node:http fails the build until it is added here.
 */
const HTTP_EXPORTS = [
  'Agent',
  'ClientRequest',
  'IncomingMessage',
  'METHODS',
  'OutgoingMessage',
  'STATUS_CODES',
  'Server',
  'ServerResponse',
  'createServer',
  'get',
  'globalAgent',
  'request',
  'validateHeaderName',
  'validateHeaderValue',
];
function httpWithoutFacade(): Plugin {
  const name = 'vetted:node-http';
  return {
    name: 'vetted:node-http-without-facade',
    // Builtins are external before any resolveId hook sees them: the imports are renamed first.
    transform: (code) =>
      /from ['"](node:)?http['"]/.test(code)
        ? code.replace(/from (['"])(node:)?http\1/g, `from '${name}'`)
        : null,
    resolveId: (source) => (source === name ? `\0${name}` : null),
    load: (id) =>
      id === `\0${name}`
        ? `import { createRequire } from 'node:module';
const http = createRequire(import.meta.url)('node:http');
export default http;
export const { ${HTTP_EXPORTS.join(', ')} } = http;`
        : null,
  };
}

export default defineConfig({
  main: {
    plugins: [httpWithoutFacade()],
    build: {
      outDir: 'out/main',
      // zod, undici and conf (with ajv) are bundled: from node_modules they are hundreds of files for Node to
      // find and read at every start. The others stay external (Electron's, and pg's optional native part).
      externalizeDeps: { exclude: ['zod', 'undici', 'conf'] },
      // out/ mirrors the source tree, so the entry's paths to ../../../renderer and ../../../preload hold in both.
      // The entry is named by an object key: electron-vite 6 on Vite 8 ignores lib.fileName, and the
      // bundle landed in out/main/index.js, where package.json's "main" and those paths miss it.
      // Browser mode is a second entry: `npm start -- --browser` runs it in its own process, no TypeScript
      // stripped at start. What both entries share lands in chunks beside them.
      lib: {
        entry: {
          'hosts/electron/index': 'main/hosts/electron/index.ts',
          'hosts/browser/main': 'main/hosts/browser/main.ts',
        },
        formats: ['es'],
      },
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
      // Minified (electron-vite leaves it off): less for the page to load and parse before the first paint.
      minify: true,
      rolldownOptions: {
        input: 'renderer/index.html',
        // React apart from the app: it changes less often, and the two load side by side.
        output: {
          codeSplitting: {
            groups: [{ name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ }],
          },
        },
      },
    },
  },
});

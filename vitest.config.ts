import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    environment: 'node',
    pool: 'forks',
    // Run electron-store through Vite so the glue tests' electron mock reaches it too.
    server: { deps: { inline: ['electron-store'] } },
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});

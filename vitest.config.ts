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
    // expect.poll waits for work that happens on its own; its 1 s default is too short on a loaded
    // 2-core CI machine. A condition that never holds still fails, after 15 s.
    expect: { poll: { timeout: 15_000, interval: 20 } },
  },
});

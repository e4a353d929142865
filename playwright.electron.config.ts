import { defineConfig } from '@playwright/test';

/**
 * The Electron smoke suite (test/electron): the built app under a real Electron runtime. The
 * release workflow runs it on every OS runner before packaging; where no runtime exists (our
 * build machines) every test reports itself skipped, with the reason.
 */
export default defineConfig({
  testDir: 'test/electron',
  outputDir: 'test-results/playwright-electron',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 1,
  reporter: [
    [process.env.CI ? 'list' : 'line'],
    ['json', { outputFile: 'test-results/electron-smoke.json' }],
  ],
});

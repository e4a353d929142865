import { defineConfig } from '@playwright/test';
import e2e from '../../playwright.config.ts';

/**
 * The README's screenshots, taken by `npx playwright test -c scripts/screenshots/playwright.config.ts`
 * (after `npm run build`): the e2e tests' browser and fixtures, outside `npm test`'s test directory.
 */
export default defineConfig({
  ...e2e,
  testDir: '.',
  testMatch: '*.shots.ts',
  outputDir: '../../test-results/screenshots',
  reporter: 'line',
  workers: 1,
  use: { ...e2e.use, viewport: { width: 1440, height: 900 }, colorScheme: 'light' },
});

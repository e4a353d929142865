import { defineConfig } from '@playwright/test';

/** End-to-end tests drive the real renderer in Debian's Chromium against browser mode. */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/playwright',
  timeout: 60_000,
  // Web-first assertions retry until they hold; 5 s is short for a loaded 2-core CI machine.
  expect: { timeout: 15_000 },
  workers: 2,
  reporter: [[process.env.CI ? 'list' : 'line'], ['json', { outputFile: 'test-results/playwright.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'off',
  },
});

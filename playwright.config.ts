import { defineConfig } from '@playwright/test';

/** End-to-end tests drive the real renderer in Debian's Chromium against browser mode. */
export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/playwright',
  timeout: 60_000,
  // Web-first assertions retry until they hold; 5 s is short for a loaded 2-core CI machine.
  expect: {
    timeout: 15_000,
    // The screenshot comparisons (look-screens.spec.ts) freeze everything that varies; what is left is
    // anti-aliasing at the edges of glyphs and icons, a few pixels in a thousand.
    toHaveScreenshot: { maxDiffPixelRatio: 0.002, animations: 'disabled', caret: 'hide', scale: 'css' },
  },
  // Baselines checked in beside the tests, one name per screen, size and scheme (no platform suffix:
  // CI and developers draw with the same Debian Chromium and fonts, installed by .ci/run).
  snapshotPathTemplate: '{testDir}/__screenshots__/{arg}{ext}',
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

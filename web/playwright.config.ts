import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, CHROMIUM_PATH } from './e2e/chromium.mjs';

// Browser tests drive Debian's Chromium against the real Go binary (built by
// the Makefile with this app embedded). Never `npx playwright install`.
const PORT = Number(process.env.E2E_PORT ?? 18931);
const TMP = process.env.TMPDIR ?? '/tmp';
const DB = `${TMP}/chairside-e2e.db`;
// The binary the Makefile builds; CHAIRSIDE_BIN may point at another build.
const BIN = process.env.CHAIRSIDE_BIN ?? '../bin/chairside';

const chromium = { executablePath: CHROMIUM_PATH, args: ['--headless', ...CHROMIUM_FLAGS] };

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: chromium,
    trace: 'retain-on-failure',
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
  },
  projects: [
    {
      name: 'tablet',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1024, height: 768 }, hasTouch: true, launchOptions: chromium },
    },
    {
      name: 'phone',
      grep: /@phone/,
      use: {
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 1,
        isMobile: true,
        hasTouch: true,
        userAgent: devices['Pixel 7'].userAgent,
        launchOptions: chromium,
      },
    },
  ],
  webServer: {
    command: `rm -f ${DB} ${DB}-wal ${DB}-shm && ${BIN} serve -addr 127.0.0.1:${PORT} -db ${DB} -env test -sandbox-latency 0`,
    url: `http://127.0.0.1:${PORT}/api/v1/internal/version`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore',
    stderr: process.env.E2E_DEBUG ? 'pipe' : 'ignore',
  },
});

import { defineConfig, devices } from '@playwright/test';
import { CHROMIUM_FLAGS, HEADLESS_SHELL_PATH } from './e2e/chromium.mjs';
import { PORT, PROD_ENTITY_KEY, PROD_PORT, PROD_STAFF } from './e2e/prod';

// Browser tests drive Debian's Chromium (its headless shell, e2e/chromium.mjs) against the real Go binary (built by
// the Makefile with this app embedded). Never `npx playwright install`.
const TMP = process.env.TMPDIR ?? '/tmp';
const DB = `${TMP}/chairside-e2e.db`;
// The binary the Makefile builds; CHAIRSIDE_BIN may point at another build.
const BIN = process.env.CHAIRSIDE_BIN ?? '../bin/chairside';

// A second server in env prod, set up as an operator would for a real
// practice (README.md, "Running it for a real practice"): the sample office
// file imported, a staff account added with its password on standard
// input, then `serve -env prod`, with the keys outside the database's
// folder as prod demands. web/e2e/office-day.spec.ts drives it.
const PROD_DIR = `${TMP}/chairside-e2e-prod`;
const PROD_DB = `${PROD_DIR}/chairside.db`;
const PROD_KEYS = `${TMP}/chairside-e2e-prod-keys.json`;
const prodSetup = [
  `rm -rf ${PROD_DIR} ${PROD_KEYS}`,
  `mkdir -p ${PROD_DIR}`,
  `${BIN} office import -db ${PROD_DB} -key-file ${PROD_KEYS} ../examples/offices.yaml`,
  `printf '%s\n' '${PROD_STAFF.password}' | ${BIN} staff add -db ${PROD_DB} -key-file ${PROD_KEYS} -entity-key ${PROD_ENTITY_KEY} -email ${PROD_STAFF.email}`,
  // A business day of the sandbox lenders' funding lasts 10 s here, so the
  // test sees a completed case funded, then deposited (office-day.spec.ts),
  // in seconds rather than days: the reconciler asks when the lender said
  // it would fund, and each state then shows for a few seconds.
  `${BIN} serve -env prod -addr 127.0.0.1:${PROD_PORT} -db ${PROD_DB} -key-file ${PROD_KEYS} -sandbox-funding-day 10s`,
].join(' && ');

const chromium = { executablePath: HEADLESS_SHELL_PATH, args: ['--headless', ...CHROMIUM_FLAGS] };

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // Two workers, each taking a spec file and running its tests in order:
  // every test starts its own patient, so files never share data. More
  // workers bought nothing on two cores (docs/testing.md).
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  outputDir: 'test-results',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    launchOptions: chromium,
    // Recording a trace of every test, even one kept only on failure,
    // cost a third of the browser tests' CPU (docs/testing.md): off unless
    // E2E_TRACE=1 asks for it. A failure still leaves its screenshot and
    // the page's accessibility snapshot in test-results/.
    trace: process.env.E2E_TRACE ? 'retain-on-failure' : 'off',
    screenshot: 'only-on-failure',
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
  },
  projects: [
    {
      name: 'tablet',
      // A test tagged @phone runs on both projects; @phone-only on the phone alone.
      grepInvert: /@phone-only/,
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
  webServer: [
    // The test server: demo offices, the sandbox answering at once, texts
    // and emails to the stand-ins inside it (texts.spec.ts reads them).
    {
      command: `rm -f ${DB} ${DB}-wal ${DB}-shm && ${BIN} serve -addr 127.0.0.1:${PORT} -db ${DB} -env test -sandbox-latency 0 -messaging-standins`,
      url: `http://127.0.0.1:${PORT}/api/v1/internal/version`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: process.env.E2E_DEBUG ? 'pipe' : 'ignore',
    },
    {
      command: prodSetup,
      url: `http://127.0.0.1:${PROD_PORT}/api/v1/internal/version`,
      reuseExistingServer: false,
      timeout: 120_000,
      stdout: 'ignore',
      stderr: process.env.E2E_DEBUG ? 'pipe' : 'ignore',
    },
  ],
});

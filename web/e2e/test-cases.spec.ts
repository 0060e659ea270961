import { expect, test } from '@playwright/test';
import { agreeSoftPull, Journey, submitApplication } from './helpers';
import { PROD_PORT } from './prod';

/*
 * A named sandbox scenario started from its address (docs/behaviour.md,
 * "Routes"): on the test server /test-cases/{id} starts a session at the
 * demo office with the test case chosen, and the scenario plays out; on the
 * server in env prod the same address is refused and starts nothing.
 */

const PROD = `http://127.0.0.1:${PROD_PORT}`;

test('a test case from its address: the scenario plays out on the test server', async ({ page }, info) => {
  const j = new Journey(page, info, 'test-case-url');
  await j.init();
  await page.goto('/test-cases/existing-account');
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Anyname', 'test-case-application');
  await agreeSoftPull(j);
  // "existing-account": the primary lender finds an account the patient already has, whatever the name.
  await expect(page).toHaveURL(/\/existingAccount$/);
  await j.screen('test-case-existing-account', 'You already have an account');
});

test('a test case from its address is refused in env prod, and no session starts', async ({ page }, info) => {
  const j = new Journey(page, info, 'test-case-prod');
  await j.init();
  j.allow(/status of 403/); // the refused list of test cases
  const starts: string[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/v1/flow/start') || r.url().includes('/api/v1/test-cases/apply')) starts.push(r.url());
  });
  await page.goto(`${PROD}/test-cases/existing-account`);
  await expect(page.getByRole('heading', { level: 1, name: 'Test cases are not available here' })).toBeVisible();
  await j.screen('test-case-refused', 'Test cases are not available here');
  expect(starts).toEqual([]);
});

test('a cascade asked by the server: the waiting screen names each lender as it is asked, and the third approves', async ({ page }, info) => {
  const j = new Journey(page, info, 'test-case-cascade');
  await j.init();
  // Synchrony, then Fortiva and Snap asked by themselves; the first two decline, each lender taking 1.5 s.
  await page.goto('/test-cases/two-declines-then-approval-slowly');
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/modes\/prequalify\/application$/);
  const submits: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/providers\/\w+\/prequalify$/.test(r.url())) submits.push(new URL(r.url()).pathname);
  });
  await submitApplication(j, 'Anyname', 'test-case-cascade-application');
  await agreeSoftPull(j, ['Synchrony', 'Fortiva', 'Snap']);
  // The waiting words over the page (components/Progress.tsx).
  const status = page.locator('.progress');
  for (const [lender, next] of [
    ['Synchrony', 'Fortiva'],
    ['Fortiva', 'Snap'],
  ]) {
    await expect(status).toContainText(`Checking your options with ${lender}…`);
    await expect(status).toContainText(`If ${lender} doesn’t answer, we’ll ask ${next} next.`);
  }
  await expect(status).toContainText('Checking your options with Snap…');
  await page.screenshot({ path: `e2e/screenshots/${info.project.name}-test-case-cascade-waiting.png`, animations: 'disabled' });
  await expect(page).toHaveURL(/\/providers\/snap_standard\/prequalified$/, { timeout: 20_000 });
  await j.screen('test-case-cascade-prequalified', 'Good news!');
  // One request asked all three: the browser made no round trip between the lenders.
  expect(submits).toEqual(['/api/v1/providers/synchrony_standard/prequalify']);
  await j.assertClean();
});

test('a lender’s terms that changed after the patient agreed: that lender is not asked, and the patient reads and agrees again', async ({
  page,
}, info) => {
  const j = new Journey(page, info, 'test-case-changed-terms');
  await j.init();
  j.allow(/status of 400/); // the submit refused for its consent to other terms
  // The consent screen is given Fortiva's terms as they were before a change: the patient agrees to a version the lender no longer has.
  let changed = false;
  await page.route(/\/api\/v1\/providers\/fortiva_standard\/disclosures\?kind=prequalification/, async (route) => {
    const res = await route.fetch();
    const doc = (await res.json()) as { version: string; sha256: string };
    if (!changed) {
      changed = true;
      doc.version = `${doc.version}-before`;
      doc.sha256 = '0'.repeat(64);
    }
    await route.fulfill({ response: res, json: doc });
  });
  const submits: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && /\/providers\/\w+\/prequalify$/.test(r.url())) submits.push(new URL(r.url()).pathname.split('/')[4]!);
  });
  await page.goto('/test-cases/two-declines-then-approval');
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Anyname', 'test-case-changed-terms-application');
  await agreeSoftPull(j, ['Synchrony', 'Fortiva', 'Snap']);
  // Synchrony declined; the server did not ask Fortiva on a consent to other terms, nor did the browser: the patient is asked.
  await expect(page).toHaveURL(/\/providers\/fortiva_standard\/prequalifyAgree$/);
  await expect(page.locator('.notice')).toContainText('First, please read what you agree to with Fortiva below.');
  await j.screen('test-case-changed-terms-agree-again', 'Before we check your options');
  await page.getByRole('checkbox', { name: /^I have read these/ }).check();
  await page.getByRole('button', { name: 'Check my options' }).click();
  await expect(page).toHaveURL(/\/providers\/snap_standard\/prequalified$/);
  // Fortiva was sent one submit the server refused, then the one the patient agreed to, which the server followed with Snap.
  expect(submits).toEqual(['synchrony_standard', 'fortiva_standard', 'fortiva_standard']);
  await j.assertClean();
});

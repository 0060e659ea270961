import { expect, test } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  agreeSoftPull,
  agreeToSigning,
  checkSigningScreen,
  drawSignature,
  ENTITY_KEY,
  fillApplication,
  fullPageShot,
  Journey,
  SIGNING_BOXES,
  submitApplication,
} from './helpers';

const SHOTS = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

/** Decoded bytes of a data:image/png;base64 URL, counted as the server counts them. */
const pngBytes = (dataUrl: string) => Buffer.from(dataUrl.replace(/^data:image\/png;base64,/, ''), 'base64').length;

test('prequalify happy path: Approve from the QR link to /finish/completed @phone', async ({ page }, info) => {
  const j = new Journey(page, info, 'approve');
  await j.init();

  await page.goto('/idle');
  await j.screen('idle', 'Welcome to Chairside');

  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/providers\/[^/]+\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Approve');
  await agreeSoftPull(j);

  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await j.screen('result-positive', 'Good news!');
  await page.getByRole('button', { name: 'See payment options' }).click();

  await expect(page).toHaveURL(/\/paymentPlans$/);
  await expect(page.getByRole('radio').first()).toBeVisible();
  await expect(page.getByText(/^Offer Exp: /).first()).toBeVisible();
  await j.screen('payment-plans', 'Choose your payment plan');
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await j.screen('plan-review', 'Review your plan');
  await page.getByRole('button', { name: 'Accept offer' }).click();

  await expect(page).toHaveURL(/\/terms$/);
  // A prequalification: the agreement and the hard-pull authorisation are shown, each with its own box.
  await checkSigningScreen(page, 'Synchrony', true);
  await j.screen('terms-unticked', 'Read and sign');
  await fullPageShot(page, info, 'approve-terms');
  // Signing without the hard-pull authorisation is refused in the browser.
  await page.getByRole('checkbox', { name: SIGNING_BOXES.esign('Synchrony') }).check();
  await page.getByRole('checkbox', { name: SIGNING_BOXES.agreement('Synchrony') }).check();
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page.getByRole('checkbox', { name: SIGNING_BOXES.hardPull('Synchrony') })).toBeFocused();
  await expect(page.getByText('Please check the box to continue')).toHaveCount(1);
  await agreeToSigning(page, 'Synchrony', true);
  await page.getByRole('button', { name: 'Clear signature' }).click();
  // One tap is not a signature: the browser refuses it, as the server would.
  const pad = page.getByTestId('signature-pad');
  await pad.scrollIntoViewIfNeeded();
  const box = (await pad.boundingBox())!;
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page.getByText('Please sign inside the box. If it looks too small, clear it and sign again.')).toBeVisible();
  await expect(page).toHaveURL(/\/terms$/);
  await j.screen('terms-tap-refused', 'Read and sign');
  await page.getByRole('button', { name: 'Clear signature' }).click();
  await drawSignature(page);
  await j.screen('terms-signed', 'Read and sign');
  // What is sent is the black-and-white PNG judged in the browser: more than 3000 bytes once decoded.
  const esign = page.waitForRequest((r) => r.url().endsWith('/application/esign'));
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  const sent = (await esign).postDataJSON() as { signaturePng: string } & Record<string, { documentId: string; agreed: boolean }>;
  expect(sent.signaturePng.startsWith('data:image/png;base64,')).toBe(true);
  // One consent per document shown, each naming it.
  expect([sent.consent?.documentId, sent.agreementConsent?.documentId, sent.hardPullConsent?.documentId]).toEqual([
    'synchrony_standard/esign',
    'synchrony_standard/agreement',
    'synchrony_standard/disclosures',
  ]);
  expect(pngBytes(sent.signaturePng)).toBeGreaterThan(3000);

  await expect(page).toHaveURL(/\/complete$/);
  await j.screen('complete', 'You’re all set');
  await page.getByRole('button', { name: 'Finish' }).click();

  await expect(page).toHaveURL(/\/finish\/completed$/);
  await j.screen('finish', 'Thank you');

  // Nothing personal is left in the browser's storage after finishing.
  const stored = await page.evaluate(() => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }));
  expect(stored).not.toContain('Approve');
  expect(stored).not.toContain('Ocean Ave');
  // Back does not bring the data back: the session is over.
  await page.goBack();
  await expect(page).toHaveURL(/\/(idle|finish\/completed)$/);
});

test('an unknown path goes to the root and a missing session to /idle', async ({ page }, info) => {
  const j = new Journey(page, info, 'guards');
  await j.init();
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/idle$/);
  await page.goto('/providers/synchrony_standard/paymentPlans');
  await expect(page).toHaveURL(/\/idle$/);
  await page.goto('/session/invalid');
  await expect(page).toHaveURL(/\/idle$/);
  await page.goto('/contexthelp');
  await j.screen('help', 'FAQs');
  const api = await page.request.get('/api/v1/no-such-thing');
  expect(api.headers()['content-type'] ?? '').not.toContain('text/html');
});

test('help drawer and the cancel modal: cancelling clears the application', async ({ page }, info) => {
  const j = new Journey(page, info, 'cancel');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await expect(page.locator('form')).toBeVisible();
  await page.locator('.fab').click();
  await expect(page.getByRole('dialog', { name: 'Help' })).toBeVisible();
  await page.getByRole('tab', { name: 'Glossary' }).click();
  await page.getByRole('button', { name: 'Deferred interest' }).click();
  await j.screen('help-drawer', 'Tell us about yourself');
  await page.getByRole('dialog').getByRole('button', { name: 'Close' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);

  await page.getByRole('button', { name: 'Cancel application' }).click();
  await expect(page.getByRole('dialog', { name: 'Cancel this application?' })).toBeVisible();
  await j.screen('cancel-modal', 'Tell us about yourself');
  await page.getByRole('button', { name: 'Yes, cancel' }).click();
  await expect(page).toHaveURL(/\/finish\/cancel$/);
  await j.screen('finish-cancel', 'Application canceled');
  await expect(page.getByRole('button', { name: 'Cancel application' })).toHaveCount(0);
});

test('a lender step still in flight: the waiting words stay, then a calm message, and Try again gets the answer', async ({ page }, info) => {
  const j = new Journey(page, info, 'in-flight');
  await j.init();
  // Chromium notes each forced 409 in the console; that is this test's point, not a fault.
  j.allow(/status of 409/);
  // The browser's clock is ours, so two minutes of waiting pass in a moment.
  await page.clock.install();
  const logs: Record<string, unknown>[] = [];
  await page.route('**/api/v1/log', async (route) => {
    logs.push(route.request().postDataJSON() as Record<string, unknown>);
    await route.fulfill({ status: 204 });
  });
  // While `busy`, the server answers every prequalify: the same step is already being processed.
  let busy = true;
  let asked = 0;
  await page.route('**/api/v1/providers/*/prequalify', async (route) => {
    asked += 1;
    if (!busy) return route.continue();
    await route.fulfill({
      status: 409,
      headers: { 'Retry-After': '15' },
      json: { code: 'in_flight', message: 'This step is already being processed.' },
    });
  });

  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Approve');
  await agreeSoftPull(j);

  // The progress message stays while the browser waits and asks again.
  await expect(page.locator('.progress')).toContainText('Checking your options with Synchrony…');
  await page.screenshot({ path: path.join(SHOTS, `${info.project.name}-in-flight-00-waiting.png`), animations: 'disabled' });
  const still = page.getByRole('heading', { name: 'Synchrony is still working on it' });
  // Each 409 asks for 15 s: jump the browser's clock past each wait. While the
  // first answers come in, giving up is not possible yet: the waiting words show.
  for (let jumps = 0; !(await still.isVisible()); jumps++) {
    expect(jumps).toBeLessThan(40);
    if (asked <= 2) await expect(page.locator('.progress')).toContainText('Checking your options with Synchrony…');
    const before = asked;
    await page.clock.fastForward(16_000);
    for (let t = 0; t < 30 && asked === before && !(await still.isVisible()); t++) await page.waitForTimeout(100);
  }
  await expect(still).toBeVisible();
  await expect(page).toHaveURL(/\/prequalifySubmit$/);
  expect(asked).toBeGreaterThanOrEqual(5);
  await j.screen('still-working', 'Synchrony is still working on it');

  // The server heard a structured report: a code and the route pattern, nothing else.
  expect(logs.length).toBeGreaterThan(0);
  for (const l of logs) expect(Object.keys(l).sort()).toEqual(['clientDateTime', 'code', 'level', 'route']);
  expect(logs).toContainEqual(
    expect.objectContaining({ level: 'warn', code: 'api.lender_step.in_flight', route: '/providers/{providerKey}/prequalifySubmit' }),
  );

  // The lender has answered now: Try again gets it.
  busy = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await j.screen('result-after-retry', 'Good news!');
});

test('Back from the result, then “Check my options” again: the patient’s decision again, never an error page', async ({ page }, info) => {
  const j = new Journey(page, info, 'resubmit');
  await j.init();
  // The demo link carries no amount: the first submit sends the amount typed, the same application sent again none.
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Approve');
  await agreeSoftPull(j);
  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  const result = page.url();
  await page.goBack();
  await expect(page).toHaveURL(/\/prequalifyAgree$/);
  const box = page.getByRole('checkbox', { name: /^I have read (this|these)/ });
  if (!(await box.isChecked())) await box.check();
  await page.getByRole('button', { name: 'Check my options' }).click();
  await expect(page).toHaveURL(result);
  await j.screen('result-again', 'Good news!');
  await page.getByRole('button', { name: 'See payment options' }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
  await expect(page.getByRole('radio').first()).toBeVisible();
});

test('a decimal in a whole-number field gets the patient’s words and is not sent', async ({ page }, info) => {
  const j = new Journey(page, info, 'whole-number');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Pending');
  await agreeSoftPull(j);
  await expect(page).toHaveURL(/\/nooffer$/);
  await page.getByRole('button', { name: 'Begin standard application' }).click();
  await expect(page).toHaveURL(/\/modes\/full\/application$/);
  await fillApplication(page, 'Pending');
  const months = page.locator('#primary-monthsEmployed');
  await months.fill('2.5');
  await months.blur();
  await expect(page.locator('#primary-monthsEmployed-error')).toHaveText('Error: Please enter a whole number.');
  await expect(months).toHaveValue('2.5');
  let sent = false;
  page.on('request', (r) => {
    if (/\/providers\/[^/]+\/apply$/.test(new URL(r.url()).pathname)) sent = true;
  });
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByRole('alert')).toContainText('Months with this employer: Please enter a whole number.');
  await expect(page.getByRole('heading', { name: 'Check your details' })).toHaveCount(0);
  await j.screen('whole-number-error', 'Tell us about yourself');
  expect(sent).toBe(false);
});

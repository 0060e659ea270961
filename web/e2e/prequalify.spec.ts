import { expect, test } from '@playwright/test';
import { agreeSoftPull, drawSignature, ENTITY_KEY, Journey, submitApplication } from './helpers';

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
  await expect(page.locator('.doc')).toBeVisible();
  await page.getByLabel('I agree to sign electronically and to the terms above.').check();
  await drawSignature(page);
  await j.screen('terms-signed', 'Read and sign');
  await page.getByRole('button', { name: 'Sign and finish' }).click();

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

import { expect, test, type Page } from '@playwright/test';
import { agreeToSigning, drawSignature, HILL_COUNTRY, Journey, startWithCase } from './helpers';

/*
 * Lenders that have not simply said yes or no (docs/behaviour.md, "Pending,
 * patches and stipulations" and "Decision routing"): a lender asking for the
 * patient's income, a fraud and identity review, an existing account,
 * LendingClub still reviewing and an offer that has already expired. Each
 * journey chooses its named sandbox test case for the session.
 */

const DECLINE_WORDS = /declin|couldn’t approve|letter explaining/i;

/**
 * chooseSignFinish chooses the first plan, accepts it, signs (after a soft pull) and finishes; with hardPull false, the
 * offer is an account the patient already has, which opens nothing: no credit check to allow, and the screen says so.
 */
async function chooseSignFinish(page: Page, j: Journey, lender: string, prefix: string, hardPull = true): Promise<void> {
  await expect(page).toHaveURL(/\/paymentPlans$/);
  await expect(page.getByRole('radio').first()).toBeVisible();
  await j.screen(`${prefix}-plans`);
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await page.getByRole('button', { name: 'Accept offer' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  if (!hardPull) {
    await expect(
      page.getByText(`You are using the ${lender} account you already have: nothing new is opened, and there is no new credit check.`),
    ).toBeVisible();
    await expect(page.getByText(/open (your|my) account|hard credit check/i)).toHaveCount(0);
  }
  await agreeToSigning(page, lender, hardPull);
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page).toHaveURL(/\/complete$/);
  await j.screen(`${prefix}-complete`);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);
}

test('patch-income: the lender asks for the income, approves once it has it, and the patient signs', async ({ page }, info) => {
  const j = new Journey(page, info, 'patch-income');
  await j.init();
  await startWithCase(page, j, 'patch-income', 'Patchwork');
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/patch\/income$/);
  await j.screen('patch-income', 'Synchrony needs your income');
  await expect(page.getByText(DECLINE_WORDS)).toHaveCount(0);
  const send = page.getByRole('button', { name: 'Send to Synchrony' });
  await send.click();
  await expect(page.getByText('Required Field')).toBeVisible();
  await j.screen('patch-income-required', 'Synchrony needs your income');
  await page.getByLabel('Yearly income before taxes').fill('65000');
  const patched = page.waitForResponse((r) => r.url().endsWith('/providers/synchrony_standard/patch/income'));
  await send.click();
  expect((await patched).status()).toBe(200);
  await chooseSignFinish(page, j, 'Synchrony', 'patch-income');
});

test('under-review: the lender’s identity team is reviewing; not a decline, no new application', async ({ page }, info) => {
  const j = new Journey(page, info, 'under-review');
  await j.init();
  await startWithCase(page, j, 'under-review', 'Reviewed');
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/under-review$/);
  await expect(page.getByText(/it is not a decline/)).toBeVisible();
  await expect(page.getByText('Synchrony may contact you to confirm who you are. Have a photo ID ready.')).toBeVisible();
  // A reference that can be read out on the phone (the sandbox's own is an opaque token of 48 characters, never shown).
  await expect(page.locator('strong.reference')).toHaveText(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
  await expect(page.getByText(/[A-Za-z0-9_-]{30,}/)).toHaveCount(0);
  await expect(page.getByText(/apply again|letter explaining/i)).toHaveCount(0);
  await j.screen('under-review', 'Your application is under review');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/pending$/);
});

test('existing-account: the patient uses the account they have, chooses a plan, signs and finishes', async ({ page }, info) => {
  const j = new Journey(page, info, 'existing-account');
  await j.init();
  await startWithCase(page, j, 'existing-account', 'Already');
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/existingAccount$/);
  await j.screen('existing-account', 'You already have an account');
  await page.getByRole('button', { name: 'Use my existing account' }).click();
  await chooseSignFinish(page, j, 'Synchrony', 'existing-account', false);
});

test('lendingclub-true-pending: LendingClub is still reviewing; the screen checks again, says when, and what it waits for', async ({
  page,
}, info) => {
  const j = new Journey(page, info, 'lc-true-pending');
  await j.init();
  await startWithCase(page, j, 'lendingclub-true-pending', 'Patient', HILL_COUNTRY);
  await expect(page).toHaveURL(/\/providers\/lendingclub_standard\/true-pending$/);
  await expect(page.getByText('Waiting for you.')).toBeVisible();
  const checked = page.waitForResponse((r) => r.url().endsWith('/providers/lendingclub_standard/application-status'));
  await page.getByRole('button', { name: 'Check again' }).click();
  expect((await checked).status()).toBe(200);
  await expect(page.getByText(/^Last checked at .*: LendingClub has not decided yet\.$/)).toBeVisible();
  // "Check again" also asked where the identity check stands: the sandbox moves it on.
  await expect(page.getByText('Received — the lender is looking at it.')).toBeVisible();
  await expect(page.getByText(DECLINE_WORDS)).toHaveCount(0);
  await j.screen('true-pending', 'LendingClub is still reviewing your application');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/pending$/);
});

test('offer-expired: an offer past its date is shown as expired, and the server refuses its plans', async ({ page }, info) => {
  const j = new Journey(page, info, 'offer-expired');
  await j.init();
  const sessionId = await startWithCase(page, j, 'offer-expired', 'Patient', HILL_COUNTRY);
  await expect(page).toHaveURL(/\/providers\/lendingclub_standard\/expired$/);
  await expect(page.getByText(/The offer from LendingClub ended on .*, so it can no longer be accepted\./)).toBeVisible();
  await j.screen('expired', 'This offer has expired');
  const plans = await page.request.post('/api/v1/providers/lendingclub_standard/payment/plans', {
    headers: { 'X-Web-Session-Id': sessionId, 'Content-Type': 'application/json' },
    data: { amountCents: 200000 },
  });
  expect(plans.status()).toBe(409);
  expect(((await plans.json()) as { code: string }).code).toBe('conflict');
  await page.getByRole('button', { name: 'Finish' }).click();
  // An expired offer is no financing: the application is closed, not completed (docs/behaviour.md, "Finishing").
  await expect(page).toHaveURL(/\/finish\/closed$/);
});

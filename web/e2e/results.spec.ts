import { expect, test, type Page } from '@playwright/test';
import { agreeSoftPull, ENTITY_KEY, fillApplication, HILL_COUNTRY, Journey, submitApplication } from './helpers';

async function start(page: Page, j: Journey, lastName: string, lenders?: string[], entityKey = ENTITY_KEY): Promise<void> {
  await page.goto(`/start/entity-keys/${entityKey}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await submitApplication(j, lastName);
  await agreeSoftPull(j, lenders);
}

/** The standard (full) application from the no-offer screen (whose heading says why there is no offer), through its terms. */
async function standardApplication(page: Page, j: Journey, lastName: string, heading = 'No offer from the quick check'): Promise<void> {
  await expect(page).toHaveURL(/\/nooffer$/);
  await j.screen('nooffer', heading);
  await page.getByRole('button', { name: 'Begin standard application' }).click();
  await expect(page).toHaveURL(/\/modes\/full\/application$/);
  await expect(page.locator('#primary-lastName')).toHaveValue(lastName);
  // The standard application asks for more (housing, work): fill what is missing.
  await fillApplication(page, lastName);
  await j.screen('full-application', 'Tell us about yourself');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.locator('.doc')).toBeVisible();
  await j.screen('full-terms', 'Terms of your application');
  await page.getByLabel('I have read the terms and I want to apply.').check();
  await page.getByRole('button', { name: 'Submit application' }).click();
}

test('decline: every lender declines, the patient is told kindly', async ({ page }, info) => {
  const j = new Journey(page, info, 'decline');
  await j.init();
  // The patient reads and agrees to the soft pull of Synchrony and of the two lenders asked on their own after it.
  await start(page, j, 'Decline', ['Synchrony', 'Fortiva', 'Snap']);
  // The waterfall moves on to a lender that needs the patient's go-ahead.
  for (let i = 0; i < 4 && /\/application$/.test(page.url()) === false && !/\/declined$/.test(page.url()); i++) {
    await page.waitForURL(/\/(application|declined)$/);
  }
  if (/\/application$/.test(page.url())) {
    await expect(page.getByText(/couldn’t approve this application/).first()).toBeVisible();
    await j.screen('next-lender', 'Tell us about yourself');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await agreeSoftPull(j, ['Proceed']);
  }
  await expect(page).toHaveURL(/\/declined$/);
  // Every lender that declined is named, not only the last.
  await expect(page.locator('.lead')).toHaveText(
    'Synchrony, Fortiva, Snap and Proceed couldn’t approve this application. Each will send you a letter explaining why within 7–10 business days.',
  );
  await j.screen('declined', 'This application wasn’t approved');
  await page.getByRole('button', { name: 'Finish' }).click();
  // Closed, not completed: no lender gave financing (docs/behaviour.md, "Finishing").
  await expect(page).toHaveURL(/\/finish\/closed$/);
  await expect(page.getByText(/This application is closed\./)).toBeVisible();
  await j.screen('finish', 'Thank you');
});

test('pending: the quick check has no offer, the standard application is pending', async ({ page }, info) => {
  const j = new Journey(page, info, 'pending');
  await j.init();
  await start(page, j, 'Pending');
  // Synchrony is still reviewing the quick check: said so, not "no offer".
  await expect(page.locator('.lead')).toHaveText('Synchrony is still reviewing your quick check, so there is no offer from it yet.');
  await standardApplication(page, j, 'Pending', 'No offer yet');
  await expect(page).toHaveURL(/\/pending$/);
  await j.screen('pending', 'Your application is being reviewed');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/pending$/);
  await j.screen('finish', 'Thank you');
});

test('error: no answer from the lenders, the patient is told not to apply again and offered no standard application', async ({ page }, info) => {
  const j = new Journey(page, info, 'error');
  await j.init();
  await start(page, j, 'Error');
  if (/\/application$/.test(page.url()) || (await page.waitForURL(/\/(application|nooffer)$/).then(() => /\/application$/.test(page.url())))) {
    await expect(page.getByText(/We didn’t get an answer from/).first()).toBeVisible();
    await j.screen('next-lender', 'Tell us about yourself');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await agreeSoftPull(j);
  }
  // Not the no-offer screen: after a communication error the declined screen says what happened, with no new application.
  await expect(page).toHaveURL(/\/declined$/);
  await expect(page.locator('.lead')).toHaveText('We didn’t get an answer from Synchrony, Fortiva, Snap and Proceed.');
  await expect(page.getByText('Please don’t apply again — ask the Bright Smile Dental team to check the status of your application.')).toBeVisible();
  // No standard application (a hard credit check) after a communication error.
  await expect(page.getByRole('button', { name: 'Begin standard application' })).toHaveCount(0);
  await expect(page.getByText(/standard application|hard credit check/)).toHaveCount(0);
  await j.screen('declined-unanswered', 'We didn’t get an answer');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/closed$/);
});

test('consent: the cascade stops at a lender whose authorisation the patient was not shown', async ({ page }, info) => {
  const j = new Journey(page, info, 'consent-stop');
  await j.init();
  // The browser is told Fortiva needs the patient's go-ahead, so the first screen shows Synchrony's terms only;
  // the server still cascades to Fortiva on its own. The app must not agree for the patient.
  await page.route('**/api/v1/locations/current', async (route) => {
    const res = await route.fetch();
    const body = (await res.json()) as { waterfall: { providerKey: string; autoSubmit: boolean }[] };
    for (const s of body.waterfall) if (s.providerKey.startsWith('fortiva')) s.autoSubmit = false;
    await route.fulfill({ response: res, json: body });
  });
  await start(page, j, 'Decline', ['Synchrony']);
  await expect(page).toHaveURL(/\/providers\/fortiva[^/]*\/prequalifyAgree$/);
  await expect(page.getByRole('status').filter({ hasText: 'Synchrony couldn’t approve this application.' })).toBeVisible();
  // Fortiva's own screen: its terms and those of Snap, which follows on its own.
  await agreeSoftPull(j, ['Fortiva', 'Snap']);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await expect(page.getByText('Synchrony, Fortiva and Snap couldn’t approve this application.', { exact: false }).first()).toBeVisible();
});

test('LendingClub pending for an email to confirm: the approval and the one step left, never a decline', async ({ page }, info) => {
  const j = new Journey(page, info, 'pending-verify-email');
  await j.init();
  await start(page, j, 'Pending', ['LendingClub', 'Covered Care', 'HFD'], HILL_COUNTRY);
  // LendingClub's own rule (docs/behaviour.md, "Decision routing"): pending for verify_email is an approval.
  await expect(page).toHaveURL(/\/providers\/lendingclub_standard\/approved$/);
  await expect(page.getByText('One step is left: confirm your email address with the link LendingClub sent you.')).toBeVisible();
  await expect(page.getByText(/couldn’t approve|letter|declin/)).toHaveCount(0);
  await j.screen('approved-verify-email', 'Good news!');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/pending$/);
});

test('no lender answered: the patient is told we could not reach them, never a decline', async ({ page }, info) => {
  const j = new Journey(page, info, 'error-no-full');
  await j.init();
  await start(page, j, 'Error', ['LendingClub', 'Covered Care', 'HFD'], HILL_COUNTRY);
  await expect(page).toHaveURL(/\/providers\/hfd_standard\/declined$/);
  await expect(page.locator('.lead')).toHaveText('We didn’t get an answer from LendingClub, Covered Care and HFD.');
  await expect(
    page.getByText('Please don’t apply again — ask the Hill Country Dental Care team to check the status of your application.'),
  ).toBeVisible();
  await expect(page.getByText(/couldn’t approve|letter/)).toHaveCount(0);
  await j.screen('declined-unanswered', 'We didn’t get an answer');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/closed$/);
});

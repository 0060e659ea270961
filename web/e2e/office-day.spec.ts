import { expect, test, type Page } from '@playwright/test';
import { agreeSoftPull, agreeToSigning, drawSignature, fillRequired, Journey } from './helpers';
import { PROD_PORT, PROD_STAFF } from './prod';

/*
 * A real practice's day (docs/behaviour.md, "The office side"), against the
 * server in env prod that playwright.config.ts set up as an operator would:
 * the front desk signs in at /office, invites a patient for $3,200, the
 * patient opens the link in a browser of their own and applies, signs and
 * finishes, and the office's list follows — approved, the plan, Completed —
 * without a reload. Then a canceled invitation's link leads to the page for
 * a link that no longer works.
 */

const PROD = `http://127.0.0.1:${PROD_PORT}`;

/** signIn signs the front desk in at /office. */
async function signIn(j: Journey): Promise<void> {
  const page = j.page;
  await page.goto(`${PROD}/office`);
  await j.screen('sign-in', 'Office sign-in');
  await page.getByLabel('Email').fill(PROD_STAFF.email);
  await page.getByLabel('Password').fill(PROD_STAFF.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** invite creates an invitation from the screen and answers its link. */
async function invite(j: Journey, first: string, last: string, dollars: string): Promise<string> {
  const page = j.page;
  await page.getByRole('link', { name: 'Invite a patient' }).click();
  await j.screen('invite-form', 'Invite a patient');
  await page.getByLabel('Treatment amount').fill(dollars);
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Mobile phone (optional)').fill('(503) 555-0142');
  await page.getByLabel('Email (optional)').fill(`${first.toLowerCase()}@example.com`);
  await page.getByRole('button', { name: 'Create invitation' }).click();
  await j.screen(`invite-ready-${last.toLowerCase()}`, 'Invitation ready');
  await expect(page.getByRole('img', { name: 'QR code of the patient’s link' })).toBeVisible();
  const link = await page.getByLabel('Link', { exact: true }).inputValue();
  expect(link).toMatch(new RegExp(`^${PROD}/start/tokens/[A-Za-z0-9_-]{20,}$`));
  return link;
}

/** rowOf is the list's row of the patient named last. */
const rowOf = (page: Page, last: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(last) }) });

test('a real practice: sign in, invite a patient for $3,200, and watch the application reach Completed without a reload', async ({
  page,
  browser,
}, info) => {
  const office = new Journey(page, info, 'office-day');
  office.allow(/status of 401/); // signed out, the session check answers 401
  await office.init();
  await signIn(office);
  await office.screen('day-empty', 'Maple Street Dental');

  const link = await invite(office, 'Maria', 'Approve', '3,200');
  await page.getByRole('link', { name: 'Done' }).click();
  await expect(rowOf(page, 'Approve')).toContainText('Invited');
  await office.screen('day-invited', 'Maple Street Dental');

  // The patient, on a phone of their own.
  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
    locale: 'en-US',
    timezoneId: 'America/Los_Angeles',
  });
  const patientPage = await phone.newPage();
  const patient = new Journey(patientPage, info, 'office-day-patient');
  await patient.init();
  await patientPage.goto(link);
  await expect(patientPage).toHaveURL(/\/modes\/prequalify\/application$/);
  // The invitation is for the office tablet: the form first asks who holds it (docs/behaviour.md, "The patient check").
  await patientPage.getByRole('dialog', { name: 'Are you the patient?' }).getByRole('button', { name: 'Yes, I’m the patient' }).click();
  // What the office typed is there to confirm, never to type again: the name, the email address and the mobile number.
  await expect(patientPage.getByLabel(/^First name/)).toHaveValue('Maria');
  await expect(patientPage.getByLabel(/^Email address/)).toHaveValue('maria@example.com');
  await expect(patientPage.getByLabel(/^Mobile phone/)).toHaveValue('(503) 555-0142');
  // Fewer things to type (docs/behaviour.md, "Validation"): what the office typed is there, and the ZIP code
  // fills in the city and state. Counted: every field the patient fills and every box they tick before a
  // lender's decision; at most 9.
  const filled = await fillRequired(patientPage, 'Approve');
  await expect(patientPage.getByLabel(/^City/)).toHaveValue('San Diego');
  await patient.screen('application-invited', 'Tell us about yourself');
  await patientPage.getByRole('button', { name: 'Continue' }).click();
  await patientPage.getByRole('button', { name: 'Confirm and continue' }).click();
  await agreeSoftPull(patient);
  const inputs = filled + 1; // and the soft-pull box
  info.annotations.push({ type: 'inputs from an invitation to a lender’s decision', description: String(inputs) });
  expect(inputs).toBeLessThanOrEqual(9);
  await expect(patientPage).toHaveURL(/\/(prequalified|preapproved|approved)$/);

  // The office's list has moved by itself: the lender's answer and the approved amount.
  const row = rowOf(page, 'Approve');
  await expect(row).toContainText('Approved');
  await expect(row).toContainText('Synchrony');
  await office.screen('day-approved', 'Maple Street Dental');

  await patientPage.getByRole('button', { name: 'See payment options' }).click();
  await expect(patientPage).toHaveURL(/\/paymentPlans$/);
  await patientPage.getByRole('radio').first().click();
  await patientPage.getByRole('button', { name: 'Continue' }).click();
  await expect(patientPage).toHaveURL(/\/paymentPlanReview$/);
  await patientPage.getByRole('button', { name: 'Accept offer' }).click();
  await expect(patientPage).toHaveURL(/\/terms$/);
  await agreeToSigning(patientPage, 'Synchrony', true);
  await drawSignature(patientPage);
  await patientPage.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(patientPage).toHaveURL(/\/complete$/);
  await patientPage.getByRole('button', { name: 'Finish' }).click();
  await expect(patientPage).toHaveURL(/\/finish\/completed$/);
  await patient.screen('finish', 'Thank you');

  // The used one-time link again: the page for a link that no longer works, in our words, never the server's.
  patient.allow(/status of 404/);
  await patientPage.goto(link);
  await expect(patientPage).toHaveURL(/\/error\?code=resource_not_found/);
  await expect(patientPage.getByText('We could not find what you were looking for.')).toBeVisible();
  await expect(patientPage.getByText(/already used|has expired/)).toHaveCount(0);

  // Completed, with the plan, still without a reload.
  await expect(row).toContainText('Completed');
  // The plan by its schedule (docs/money.md): "5 × $533.34 + $533.30 final".
  await expect(row).toContainText(/\d+ × \$[\d,]+\.\d{2}/);
  await expect(row).toContainText('APR');
  await office.screen('day-completed', 'Maple Street Dental');

  // The details: the history, from opening the link to finishing.
  await row.getByRole('link', { name: /^Details/ }).click();
  await office.screen('application', /Approve/);
  await expect(page.getByText('Completed').first()).toBeVisible();
  await page.getByRole('link', { name: 'Back to the list' }).click();
  await expect(rowOf(page, 'Approve')).toContainText('Completed');

  // A canceled invitation's link leads to the page for a link that no longer works.
  const canceledLink = await invite(office, 'Carl', 'Decline', '1200');
  await page.getByRole('button', { name: 'Cancel invitation' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await office.screen('cancel-invite', 'Invitation ready');
  await dialog.getByRole('button', { name: 'Yes, cancel it' }).click();
  await expect(page.getByText(/canceled\. The link no longer works\./)).toBeVisible();
  // The canceled token's start answers 404 too.
  await patientPage.goto(canceledLink);
  // The same page as for a used or expired link.
  await expect(patientPage).toHaveURL(/\/error\?code=resource_not_found/);
  await patient.screen('canceled-link', 'Something went wrong');
  await expect(patientPage.getByText('We could not find what you were looking for.')).toBeVisible();

  await office.assertClean();
  await patient.assertClean();
  await phone.close();
});

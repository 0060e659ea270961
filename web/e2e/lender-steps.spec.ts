import { expect, test } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import {
  agreeSoftPull,
  agreeToSigning,
  drawSignature,
  fillApplication,
  fullPageShot,
  HILL_COUNTRY,
  Journey,
  openCase,
  SIGNING_BOXES,
  submitApplication,
} from './helpers';

/*
 * A lender's own steps between accepting and signing (docs/behaviour.md,
 * "Signing" and "What each lender asks for"), on the office tablet: HFD,
 * highline_secondary at Hill Country Dental Care, approves with its down
 * payment (test case hfd-down-payment). The patient acknowledges the down
 * payment, hands the tablet to the office team, who confirm they collected
 * it; gives another contact; the card is refused and a checking account
 * used instead; then signs and finishes.
 */

const BIN = process.env.CHAIRSIDE_BIN ?? '../bin/chairside';
const DB = `${process.env.TMPDIR ?? '/tmp'}/chairside-e2e.db`;

/** officeLink makes the one-time link an office tablet opens (in_store), with the office's amount. */
function officeLink(entityKey: string): string {
  const out = execFileSync(BIN, ['token', 'create', '-db', DB, '-entity-key', entityKey, '-amount-cents', '450000', '-experience', 'in_store'], {
    encoding: 'utf8',
  });
  const m = /\/start\/tokens\/[^\s]+/.exec(out);
  if (!m) throw new Error(`no link in: ${out}`);
  return m[0];
}

test('HFD in the office: down payment collected by the staff, another contact, a refused card, then signing', async ({ page }, info) => {
  const j = new Journey(page, info, 'hfd-steps');
  await j.init();
  // The refused card is a 400 the app expects and handles on screen.
  j.allow(/Failed to load resource: the server responded with a status of 400/);
  await openCase(page, 'hfd-down-payment', officeLink(HILL_COUNTRY));
  await expect(page).toHaveURL(/\/providers\/lendingclub_standard\/modes\/prequalify\/application$/);
  // On the office tablet the form first asks who holds it (docs/behaviour.md, "The patient check").
  await page.getByRole('dialog', { name: 'Are you the patient?' }).getByRole('button', { name: 'Yes, I’m the patient' }).click();
  await submitApplication(j, 'Steps', 'hfd-application');
  await agreeSoftPull(j, ['LendingClub', 'Covered Care', 'HFD']);

  await expect(page).toHaveURL(/\/providers\/hfd_standard\/(prequalified|preapproved|approved)$/);
  await page.getByRole('button', { name: 'See payment options' }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await page.getByRole('button', { name: 'Accept offer' }).click();

  // The down payment: table, amount, how it is paid, and (highline_secondary) the acknowledgement.
  await expect(page).toHaveURL(/\/providers\/hfd_standard\/downpayment$/);
  await expect(page.getByRole('table', { name: 'Down payment' })).toBeVisible();
  const ack = page.getByRole('checkbox', { name: /^I understand that HFD requires a down payment of \$/ });
  await expect(ack).not.toBeChecked();
  await j.screen('downpayment', 'Your down payment');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please check the box to continue')).toBeVisible();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await ack.check();
  await page.getByRole('button', { name: 'Continue' }).click();
  const dialog = page.getByRole('dialog', { name: 'Please hand the tablet to the office team' });
  await expect(dialog).toBeVisible();
  await j.screen('downpayment-staff', 'Your down payment');
  // Cancel returns the tablet to the patient; nothing was sent.
  await dialog.getByRole('button', { name: /^Not yet/ }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page).toHaveURL(/\/downpayment$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: /^I collected the \$[\d,]+\.\d\d down payment$/ }).click();

  // Another way to reach the patient.
  await expect(page).toHaveURL(/\/providers\/hfd_standard\/additionalContactInformation$/);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Required Field')).toHaveCount(3);
  await page.getByLabel('Their full name').fill('Rosa Díaz-Ortega');
  await page.getByLabel('How do you know them?').selectOption('sibling');
  await page.getByLabel('Their phone number').pressSequentially('3125550187');
  await expect(page.getByLabel('Their phone number')).toHaveValue('(312) 555-0187');
  await j.screen('additional-contact', 'One more way to reach you');
  await page.getByRole('button', { name: 'Continue' }).click();

  // The monthly payments: the card is refused, a checking account is used instead.
  await expect(page).toHaveURL(/\/providers\/hfd_standard\/loanPayment$/);
  await page.getByLabel('Name on card').fill('Ann Steps');
  await page.getByLabel('Card number').pressSequentially('4000000000000002');
  await page.getByLabel('Expiry (MM/YY)').pressSequentially('1299');
  await page.getByLabel('Security code (CVV)').pressSequentially('123');
  await page.getByLabel('Billing ZIP code').pressSequentially('77002');
  await j.screen('loan-payment', 'How will you make your monthly payments?');
  await page.getByRole('button', { name: 'Continue' }).click();
  const refused = page.getByRole('dialog', { name: 'This card could not be used' });
  await expect(refused).toBeVisible();
  await j.screen('card-refused', 'How will you make your monthly payments?');
  await refused.getByRole('button', { name: 'Use a checking account' }).click();
  await page.getByLabel('Routing number').pressSequentially('011000015');
  await page.getByLabel('Account number').pressSequentially('000123456789');
  await page.getByLabel('Bank name').fill('First Test Bank');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/providers\/hfd_standard\/terms$/);
  await agreeToSigning(page, 'HFD', true);
  await fullPageShot(page, info, 'hfd-steps-terms');
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page).toHaveURL(/\/complete$/);
  await j.screen('complete');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);
});

/** Golden Gate Dental (CA): AFF first, then Vive on its own. */
const GOLDEN_GATE = '1000200030022000';

test('AFF in California for a patient living in Wisconsin: its agreement, the spouse question, the California notice, then signing', async ({
  page,
}, info) => {
  const j = new Journey(page, info, 'aff-steps');
  await j.init();
  await page.goto(`/start/entity-keys/${GOLDEN_GATE}`);
  await expect(page).toHaveURL(/\/providers\/aff_standard\/modes\/prequalify\/application$/);
  await fillApplication(page, 'Approve');
  // The patient lives in Wisconsin.
  for (const [id, value] of [
    ['addressLine1', '22 State St'],
    ['addressCity', 'Madison'],
    ['addressZipCode', '53703'],
  ]) {
    await page.locator(`#primary-${id}`).fill(value!);
  }
  await page.locator('#primary-addressState').selectOption('WI');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();
  await agreeSoftPull(j, ['AFF', 'Vive']);

  await expect(page).toHaveURL(/\/providers\/aff_standard\/(prequalified|preapproved|approved)$/);
  await page.getByRole('button', { name: 'See payment options' }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Accept offer' }).click();

  await expect(page).toHaveURL(/\/providers\/aff_standard\/agreement$/);
  await expect(page.locator('.doc')).toBeVisible();
  await j.screen('aff-agreement', 'Your loan agreement');
  await page.getByRole('checkbox', { name: 'I have read the AFF loan agreement and I agree to its terms.' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/providers\/aff_standard\/checkWisconsin$/);
  await page.getByLabel('Yes').check();
  await page.getByLabel('First name').fill('Sam');
  await page.getByLabel('Last name').fill('Approve');
  await page.getByLabel(/Street address/).fill('22 State St');
  await page.getByLabel('City').fill('Madison');
  await page.getByLabel('ZIP code').fill('53703');
  await j.screen('aff-wisconsin', 'A question for Wisconsin residents');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/providers\/aff_standard\/checkCalifornia$/);
  await expect(page.getByText(/15 business days/).first()).toBeVisible();
  await j.screen('aff-california', 'For patients in California');
  await page.getByRole('checkbox', { name: /^I understand that AFF is credit for my dental treatment/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/providers\/aff_standard\/terms$/);
  await expect(page.getByText(/You read and agreed to the AFF agreement on the screen before this one/)).toBeVisible();
  await expect(page.getByRole('checkbox', { name: SIGNING_BOXES.agreement('AFF') })).toHaveCount(0);
  await page.getByRole('checkbox', { name: SIGNING_BOXES.esign('AFF') }).check();
  await page.getByRole('checkbox', { name: SIGNING_BOXES.hardPull('AFF') }).check();
  await fullPageShot(page, info, 'aff-steps-terms');
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page).toHaveURL(/\/complete$/);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);
});

test('Fortiva: after signing, its cardholder agreement, then "Open my account" completes', async ({ page }, info) => {
  const j = new Journey(page, info, 'fortiva-steps');
  await j.init();
  await page.goto('/start/entity-keys/1000200030014000');
  await expect(page).toHaveURL(/\/providers\/fortiva_standard\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Approve', 'fortiva-application');
  await agreeSoftPull(j, ['Fortiva', 'Snap']);
  await expect(page).toHaveURL(/\/providers\/fortiva_standard\/(prequalified|preapproved|approved)$/);
  await page.getByRole('button', { name: 'See payment options' }).click();
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Accept offer' }).click();
  await expect(page).toHaveURL(/\/providers\/fortiva_standard\/terms$/);
  await agreeToSigning(page, 'Fortiva', true);
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();

  await expect(page).toHaveURL(/\/providers\/fortiva_standard\/completeAgreement$/);
  await expect(page.locator('.doc')).toBeVisible();
  await j.screen('cardholder-agreement', 'Your cardholder agreement');
  await page.getByRole('button', { name: 'Open my account' }).click();
  await expect(page.getByText('Please check the box to continue')).toBeVisible();
  await page.getByRole('checkbox', { name: 'I have read the Fortiva cardholder agreement and I agree to it.' }).check();
  await page.getByRole('button', { name: 'Open my account' }).click();
  await expect(page).toHaveURL(/\/providers\/fortiva_standard\/complete$/);
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);
});

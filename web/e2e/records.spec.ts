import { expect, test } from '@playwright/test';
import { HILL_COUNTRY, Journey } from './helpers';
import { addStaff, STAFF_PASSWORD } from './staff';

/*
 * The practice's own records (docs/practice-records.md), against the test
 * server's Open Dental stand-in (pms/opendental/odsim, inside `serve
 * -messaging-standins`): the manager connects the office with the
 * practice's customer key, the desk finds the patient and a saved
 * treatment plan, the invitation proposes the patient's share and is
 * prefilled from the record, and the patient's own form opens with the
 * date of birth and address from it — the SSN left for the patient.
 */

test('practice records: connect Open Dental, invite from the record, and the patient’s form is prefilled', async ({ page, browser }, info) => {
  test.setTimeout(120_000);
  const j = new Journey(page, info, 'records');
  j.allow(/status of 401/); // signed out, the session check answers 401
  // A refused key is answered 400 before the right one is typed.
  j.allow(/status of 400/);
  await j.init();
  await page.goto('/office');
  await page.getByLabel('Email').fill(addStaff(HILL_COUNTRY));
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Practice records' }).click();
  await j.screen('records-connect', 'Practice records');
  await page.getByLabel('Customer key').fill('NOTTHEKEY');
  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page.getByText(/Open Dental refused this key\. Check that the API is enabled/)).toBeVisible();
  await page.getByLabel('Customer key').fill('CHAIRSIDESTANDIN');
  await page.getByRole('button', { name: 'Check and connect' }).click();
  await expect(page.getByText('Open Dental is connected. The front desk can now find patients when inviting them.')).toBeVisible();
  await expect(page.getByText('Ending in NDIN')).toBeVisible();
  await j.screen('records-connected', 'Practice records');

  await page.getByRole('link', { name: 'Back to the list' }).click();
  await page.getByRole('link', { name: 'Invite a patient' }).click();
  await page.getByLabel('Last name or chart number').fill('lopez');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page
    .getByRole('list', { name: 'Patients found' })
    .getByRole('button', { name: /^Maria J\. Lopez, born 03\/09\/1984, chart 15$/ })
    .click();
  await expect(page.getByRole('radio', { name: /^Crowns and root canal: \$1,867\.50 for the patient/ })).toBeChecked();
  await j.screen('records-plans', 'Invite a patient');
  await page.getByRole('button', { name: 'Use for the invitation' }).click();
  await expect(page.getByText(/From Open Dental: Maria Lopez, chart 15, Crowns and root canal\./)).toBeVisible();
  await expect(page.getByLabel('Treatment amount')).toHaveValue('1867.50');
  await expect(page.getByLabel('Mobile phone (optional)')).toHaveValue('(503) 555-0142');
  await expect(page.getByRole('radio', { name: 'Spanish (Español)' })).toBeChecked();
  // The patient will apply on their own phone, in English this time.
  await page.getByRole('radio', { name: 'English' }).check();
  await page.getByRole('radio', { name: 'At home, on their own phone' }).check();
  await page.getByLabel('The patient gave us this number and agreed to be texted this link.').check();
  await j.screen('records-prefilled', 'Invite a patient');
  await page.getByRole('button', { name: 'Create invitation' }).click();
  const link = await page.getByLabel('Link', { exact: true }).inputValue();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });
  const patientPage = await phone.newPage();
  const patient = new Journey(patientPage, info, 'records-patient');
  await patient.init();
  await patientPage.goto(link);
  await expect(patientPage).toHaveURL(/\/application$/);
  await expect(patientPage.getByLabel(/^First name/)).toHaveValue('Maria');
  await expect(patientPage.getByLabel(/^Date of birth/)).toHaveValue('03/09/1984');
  await expect(patientPage.getByLabel(/^Street address/)).toHaveValue('1200 Maple Street');
  await expect(patientPage.getByLabel(/^Social Security number/)).toHaveValue('');
  await patient.screen('records-application', /./);
  await phone.close();
  await j.assertClean();
});

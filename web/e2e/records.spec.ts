import { expect, test } from '@playwright/test';
import { acceptFirstPlanAndSign, agreeSoftPull, fillRequired, Journey } from './helpers';
import { addStaff, STAFF_PASSWORD } from './staff';

/*
 * The practice's own records, both ways (docs/practice-records.md), against
 * the test server's Open Dental stand-in (pms/opendental/odsim, inside
 * `serve -messaging-standins`): the manager connects the office with the
 * practice's customer key; the desk finds the patient and a saved
 * treatment plan, and the invitation proposes the patient's share,
 * prefilled from the record; the patient's form opens with the date of
 * birth and address from it, the SSN left for the patient; the patient
 * signs, and the stand-in's ledger holds one payment with our reference,
 * which the office's list says is posted.
 */

/** The stand-in's keys (odsim.StandinDeveloperKey, StandinCustomerKey): its ledger is read as Chairside reads it. */
const OD = { Authorization: 'ODFHIR CHAIRSIDEDEVKEY0/CHAIRSIDESTANDIN' };

test('practice records: connect Open Dental, invite from the record, and the signed case is posted to the ledger once', async ({
  page,
  browser,
}, info) => {
  test.setTimeout(150_000);
  const j = new Journey(page, info, 'records');
  j.allow(/status of 401/); // signed out, the session check answers 401
  j.allow(/status of 400/); // the refused key, before the right one
  await j.init();
  await page.goto('/office');
  await page.getByLabel('Email').fill(addStaff());
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
  await page.getByLabel('Last name or chart number').fill('approve');
  await page.getByRole('button', { name: 'Find', exact: true }).click();
  await page.getByRole('list', { name: 'Patients found' }).getByRole('button', { name: 'Pat Approve, born 08/14/1979, chart 18' }).click();
  await expect(
    page.getByRole('radio', { name: /^Bridge, three units: \$2,520\.00 for the patient \(treatment \$4,200\.00, insurance \$1,680\.00\)$/ }),
  ).toBeChecked();
  await j.screen('records-plans', 'Invite a patient');
  await page.getByRole('button', { name: 'Use for the invitation' }).click();
  await expect(page.getByText(/From Open Dental: Pat Approve, chart 18, Bridge, three units\./)).toBeVisible();
  await expect(page.getByLabel('Treatment amount')).toHaveValue('2520.00');
  await expect(page.getByLabel('Mobile phone (optional)')).toHaveValue('6195550188');
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
  await expect(patientPage.getByLabel(/^Last name/)).toHaveValue('Approve');
  await expect(patientPage.getByLabel(/^Date of birth/)).toHaveValue('08/14/1979');
  await expect(patientPage.getByLabel(/^Street address/)).toHaveValue('410 Cedar Lane');
  await expect(patientPage.getByLabel(/^Social Security number/)).toHaveValue('');
  await patient.screen('records-application', 'Tell us about yourself');
  await fillRequired(patientPage, 'Approve');
  await patientPage.getByRole('button', { name: 'Continue' }).click();
  await patientPage.getByRole('button', { name: 'Confirm and continue' }).click();
  await agreeSoftPull(patient);
  await expect(patientPage).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await patientPage.getByRole('button', { name: 'See payment options' }).click();
  await acceptFirstPlanAndSign(patientPage, 'Synchrony');
  await phone.close();

  // Signed: posted to the patient's ledger once, and the office's list says so without a reload.
  await page.getByRole('link', { name: 'Done' }).click();
  const row = page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: /Pat Approve/ }) });
  await expect(row).toContainText('Payment posted to Open Dental', { timeout: 30_000 });
  await j.screen('records-posted', /./);
  const ledger = (await (await page.request.get('/dev/opendental/api/v1/payments?PatNum=18', { headers: OD })).json()) as {
    CheckNum: string;
    PayAmt: string;
    PayNote: string;
  }[];
  expect(ledger).toHaveLength(1);
  expect(ledger[0]!.CheckNum).toMatch(/^CS [0-9A-Z]{4}-[0-9A-Z]{4}$/);
  expect(ledger[0]!.PayNote).toContain('Chairside: financed by Synchrony');
  await j.assertClean();
});

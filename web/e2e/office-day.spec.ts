import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { acceptFirstPlanAndSign, agreeSoftPull, agreeToSigning, drawSignature, fillRequired, Journey } from './helpers';
import { PROD_PORT, PROD_STAFF } from './prod';
import { totp } from './totp';

/*
 * A real practice's day (docs/behaviour.md, "The office side"), against the
 * server in env prod that playwright.config.ts set up as an operator would:
 * the front desk signs in at /office, invites a patient for $3,200, the
 * patient opens the link in a browser of their own and applies, signs and
 * finishes, and the office's list follows — approved, the plan, Completed —
 * without a reload. Then a canceled invitation's link leads to the page for
 * a link that no longer works. In env prod every account sets up two-step
 * sign-in first (the test is the phone: totp.ts). Then the manager invites
 * a front desk colleague, who cannot manage staff and is signed out the
 * moment the manager disables them; and a passkey signs the manager in by
 * itself.
 */

const PROD = `http://127.0.0.1:${PROD_PORT}`;

/** The manager's recovery codes, from the first test's setup: the later tests sign in with them. */
let recovery: string[] = [];

/** signIn signs a staff member in at /office with their password, at base. */
async function signIn(j: Journey, who = PROD_STAFF, base = PROD): Promise<void> {
  const page = j.page;
  await page.goto(`${base}/office`);
  await j.screen('sign-in', 'Office sign-in');
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/** setUpTwoStep sets up the authenticator app from the key beside the QR code, and answers the recovery codes shown. */
async function setUpTwoStep(j: Journey, who: string): Promise<string[]> {
  const page = j.page;
  await expect(page.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
  await j.screen(`${who}-two-step`, 'Set up two-step sign-in');
  const key = await page.getByLabel('Key', { exact: true }).inputValue();
  expect(key).toMatch(/^[A-Z2-7]{4}(-[A-Z2-7]{1,4})+$/);
  await page.getByLabel('6-digit code').fill(totp(key));
  await page.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
  await j.screen(`${who}-recovery-codes`, 'Save your recovery codes');
  const codes = await page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
  expect(codes).toHaveLength(10);
  await page.getByRole('button', { name: 'I saved my codes' }).click();
  return codes;
}

/** withRecoveryCode answers the second step with one of the manager's recovery codes. */
async function withRecoveryCode(j: Journey): Promise<void> {
  expect(recovery.length, 'the first test set up the manager’s two-step sign-in').toBeGreaterThan(0);
  await j.screen('two-step-code', 'Two-step sign-in');
  await j.page.getByLabel('Code').fill(recovery.shift()!);
  await j.page.getByRole('button', { name: 'Continue' }).click();
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
  await page.getByLabel('The patient gave us this number and agreed to be texted this link.').check();
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
  // Two browsers, two-step setup, a whole journey and the lender's funding and deposit (about 20 s of waiting):
  // 45–70 s on this machine.
  test.setTimeout(300_000);
  const office = new Journey(page, info, 'office-day');
  office.allow(/status of 401/); // signed out, the session check answers 401
  await office.init();
  await signIn(office);
  // Prod: no office data on a password alone.
  recovery = await setUpTwoStep(office, 'manager');
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
  await acceptFirstPlanAndSign(patientPage, 'Synchrony');
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

  // After the signature (docs/behaviour.md): the lender funds, then deposits, and the row says so by itself —
  // gross less the fee is the net, and then the deposit's reference. A business day lasts 10 s on this server.
  await expect(row).toContainText(/Funded: \$[\d,]+\.\d{2} net of \$[\d,]+\.\d{2} fee \(\d+\.\d{2}%\)/, { timeout: 60_000 });
  await office.screen('day-funded', 'Maple Street Dental');
  await expect(row).toContainText(/Deposited \$[\d,]+\.\d{2} · SYN-D-/, { timeout: 60_000 });
  const net = /Deposited (\$[\d,]+\.\d{2})/.exec((await row.textContent()) ?? '')![1]!;

  // The funding screen: the day's deposit, its case, and sums that are the bank deposit; the CSV says the same.
  await page.getByRole('link', { name: 'Funding' }).click();
  await office.screen('funding', 'Funding');
  const deposit = page.getByRole('table', { name: /^Synchrony, deposited .*: deposit SYN-D-/ });
  await expect(deposit.getByRole('row', { name: /Approve/ })).toContainText(net);
  await expect(deposit.getByRole('row', { name: /^Deposit/ })).toContainText(net);
  await expect(page.getByText(/Deposited\s*\$[\d,]+\.\d{2} net/)).toContainText(net);
  const csvHref = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
  const csv = await (await page.request.get(`${PROD}${csvHref}`)).text();
  const rows = csv
    .trim()
    .split('\n')
    .map((l) => l.split(','));
  const cents = (s: string) => Math.round(Number(s) * 100);
  const depositRows = rows.filter((r) => r[0] === 'deposit');
  expect(depositRows).toHaveLength(1);
  const caseNets = rows.filter((r) => r[0] === 'case').reduce((sum, r) => sum + cents(r.at(-1)!), 0);
  expect(caseNets).toBe(cents(depositRows[0]!.at(-1)!));
  expect(`$${(caseNets / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`).toBe(net);
  await page.getByRole('link', { name: 'Back to the list' }).click();

  // The details: the history, from opening the link to finishing, and the money line.
  await row.getByRole('link', { name: /^Details/ }).click();
  await office.screen('application', /Approve/);
  await expect(page.getByText('Completed').first()).toBeVisible();
  const moneyLine = page.getByRole('table', { name: 'The case’s money, in the order it happened' });
  await expect(moneyLine).toContainText(`Deposited ${net} in deposit SYN-D-`);
  // The manager refunds part of it (a crown not placed): the reason, what Synchrony will be asked, one confirmation.
  await page.getByLabel(/^Amount to refund/).fill('100');
  await page.getByLabel(/^Reason/).fill('One crown was not placed.');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByText('Synchrony will be asked to refund $100.00 of the $3,200.00 financed; $3,100.00 will be left.')).toBeVisible();
  await office.screen('refund-review', /Approve/);
  await page.getByRole('button', { name: 'Yes, refund $100.00' }).click();
  await expect(page.getByRole('status')).toContainText('Done.');
  await expect(moneyLine).toContainText('Refunded $100.00; the practice returns');
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

test('a manager invites the front desk by link; the front desk invites patients, cannot manage staff, and is signed out once disabled', async ({
  page,
  browser,
}, info) => {
  const manager = new Journey(page, info, 'staff');
  manager.allow(/status of 401/);
  await manager.init();
  await signIn(manager);
  await withRecoveryCode(manager);
  await manager.screen('day', 'Maple Street Dental');
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Staff' }).click();
  await manager.screen('staff', 'Staff');
  await page.getByLabel('Email').fill('desk@maplestreet.example');
  await page.getByLabel('Role').selectOption({ label: 'Front desk' });
  await page.getByRole('button', { name: 'Send invitation' }).click();
  const setupLink = await page.getByRole('textbox', { name: 'Setup link' }).inputValue();
  expect(setupLink).toMatch(new RegExp(`^${PROD}/office/setup/[A-Za-z0-9_-]{43}$`));
  await manager.screen('staff-invited', 'Staff');

  // The colleague, at their own desk: a password, then their own authenticator app.
  const deskContext = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-US', timezoneId: 'America/Los_Angeles' });
  const deskPage = await deskContext.newPage();
  const desk = new Journey(deskPage, info, 'staff-desk');
  desk.allow(/status of 40[13]/); // signed out, the session check answers 401; the refused staff call 403
  await desk.init();
  await deskPage.goto(setupLink);
  await desk.screen('setup', 'Choose your password');
  const colleague = { email: 'desk@maplestreet.example', password: 'the front desk’s own password' };
  await deskPage.getByLabel('New password').fill(colleague.password);
  await deskPage.getByRole('button', { name: 'Set password' }).click();
  await desk.screen('password-set', 'Your password is set');
  await signIn(desk, colleague);
  await setUpTwoStep(desk, 'desk');
  await desk.screen('day', 'Maple Street Dental');
  // A front desk invites patients, and nothing of staff management shows.
  const nav = deskPage.getByRole('navigation', { name: 'Menu' });
  await expect(nav.getByRole('link', { name: 'Staff' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Audit log' })).toHaveCount(0);
  await invite(desk, 'Dana', 'Deskinvite', '900');
  await deskPage.getByRole('link', { name: 'Done' }).click();
  await expect(rowOf(deskPage, 'Deskinvite')).toContainText('Invited');
  // The server refuses what the screen hides.
  expect(await deskPage.evaluate(async () => (await fetch('/api/v1/office/staff')).status)).toBe(403);
  await deskPage.goto(`${PROD}/office/staff`);
  await expect(deskPage.getByText('Your role does not allow this. Ask your office manager.')).toBeVisible();
  await desk.screen('staff-refused', 'Staff');
  await deskPage.goto(`${PROD}/office`);
  await expect(rowOf(deskPage, 'Deskinvite')).toContainText('Invited');

  // The manager disables the colleague: their open list ends at once.
  await page.reload();
  await manager.screen('staff-two', 'Staff');
  await page.getByRole('button', { name: 'Disable desk@maplestreet.example' }).click();
  const dialog = page.getByRole('dialog', { name: 'Disable desk@maplestreet.example?' });
  await manager.screen('staff-disable', 'Staff');
  await dialog.getByRole('button', { name: 'Yes, disable' }).click();
  await expect(page.getByText('desk@maplestreet.example is disabled. Their sessions have ended.')).toBeVisible();
  await expect(deskPage.getByRole('heading', { level: 1, name: 'Office sign-in' })).toBeVisible();
  await expect(deskPage.getByText('You are signed out. Please sign in again.')).toBeVisible();

  // The audit log says all of it, and its CSV says the same.
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Audit log' }).click();
  await manager.screen('audit', 'Audit log');
  const log = page.getByRole('table', { name: /^Audit log of / });
  for (const words of ['Disabled a colleague', 'Invited a colleague', 'Used a recovery code', 'Set up two-step sign-in', 'Invited a patient']) {
    await expect(log).toContainText(words);
  }
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download CSV' }).click()]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv.split('\n')[0]).toBe('Time,Staff email,Action,Address,Details');
  expect(csv).toContain('manager@maplestreet.example,staff_disabled');

  await manager.assertClean();
  await desk.assertClean();
  await deskContext.close();
});

test('a passkey added by the manager signs them in by itself', async ({ browser }, info) => {
  // Passkeys belong to a name: this browser reaches the server as localhost, with an authenticator in software (Chromium's own).
  const LOCAL = `http://localhost:${PROD_PORT}`;
  const context = await browser.newContext({ viewport: { width: 1024, height: 768 }, locale: 'en-US' });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  const j = new Journey(page, info, 'passkey');
  j.allow(/status of 401/);
  await j.init();
  await signIn(j, PROD_STAFF, LOCAL);
  await withRecoveryCode(j);
  await j.screen('day', 'Maple Street Dental');
  await page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Two-step sign-in' }).click();
  await j.screen('two-step-on', 'Two-step sign-in is on');
  await page.getByRole('button', { name: 'Add a passkey' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Passkey added' })).toBeVisible();
  await page.getByRole('link', { name: 'Back to the list' }).click();
  await page.getByRole('button', { name: 'Sign out' }).click();
  await j.screen('signed-out', 'Office sign-in');
  await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
  await j.screen('day-by-passkey', 'Maple Street Dental');
  await expect(page.getByText('Signed in as manager@maplestreet.example')).toBeVisible();
  await j.assertClean();
  await context.close();
});

test('a manager changes the treatment amount before the patient signs; the patient chooses a plan for it and signs', async ({
  page,
  browser,
}, info) => {
  // Two browsers and two passes through the plans and signing: about 40 s.
  test.setTimeout(180_000);
  const office = new Journey(page, info, 'amount-change');
  office.allow(/status of 401/);
  await office.init();
  await signIn(office);
  await withRecoveryCode(office);
  const link = await invite(office, 'Ana', 'Approve', '4,500');
  await page.getByRole('link', { name: 'Done' }).click();

  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });
  const patientPage = await phone.newPage();
  const patient = new Journey(patientPage, info, 'amount-change-patient');
  // The signature sent after the office changed the amount is answered 409 amount_changed: that is the point.
  patient.allow(/status of 409/);
  await patient.init();
  await patientPage.goto(link);
  await patientPage.getByRole('dialog', { name: 'Are you the patient?' }).getByRole('button', { name: 'Yes, I’m the patient' }).click();
  await fillRequired(patientPage, 'Approve');
  await patientPage.getByRole('button', { name: 'Continue' }).click();
  await patientPage.getByRole('button', { name: 'Confirm and continue' }).click();
  await agreeSoftPull(patient);
  await patientPage.getByRole('button', { name: 'See payment options' }).click();
  await patientPage.getByRole('radio').first().click();
  await patientPage.getByRole('button', { name: 'Continue' }).click();
  await patientPage.getByRole('button', { name: 'Accept offer' }).click();
  await expect(patientPage).toHaveURL(/\/terms$/);

  // The treatment plan changed: a crown less. The manager changes the amount on the case's page.
  const row = rowOf(page, 'Ana');
  await row.getByRole('link', { name: /^Details/ }).click();
  await page.getByLabel(/^New treatment amount/).fill('3800');
  await page.getByLabel(/^Reason/).fill('One crown less in the treatment plan.');
  await page.getByRole('button', { name: 'Review' }).click();
  await expect(page.getByText('The treatment amount changes from $4,500.00 to $3,800.00.')).toBeVisible();
  await expect(page.getByText(/Synchrony will be asked to let go of the offer the patient accepted/)).toBeVisible();
  await office.screen('amount-review', /Approve/);
  await page.getByRole('button', { name: 'Yes, change it to $3,800.00' }).click();
  await expect(page.getByRole('status')).toContainText('Done: the treatment amount is now $3,800.00.');
  await expect(page.getByRole('table', { name: 'The case’s money, in the order it happened' })).toContainText(
    'The office changed the treatment amount to $3,800.00',
  );
  await office.screen('amount-changed', /Approve/);

  // The patient, still on the signing screen, signs: they are told, and choose a plan for the new amount.
  await agreeToSigning(patientPage, 'Synchrony', true);
  await drawSignature(patientPage);
  await patientPage.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(patientPage).toHaveURL(/\/paymentPlans$/);
  await expect(patientPage.getByText('Your dental office changed the treatment amount to $3,800.00.', { exact: false })).toBeVisible();
  await expect(patientPage.getByRole('heading', { name: /Payment plans for \$3,800\.00/ })).toBeVisible();
  await patient.screen('plans-again', 'Choose your payment plan');
  await acceptFirstPlanAndSign(patientPage, 'Synchrony');
  await patientPage.getByRole('button', { name: 'Finish' }).click();
  await expect(patientPage).toHaveURL(/\/finish\/completed$/);

  await page.getByRole('link', { name: 'Back to the list' }).click();
  await expect(rowOf(page, 'Ana')).toContainText('Completed');
  await office.assertClean();
  await patient.assertClean();
  await phone.close();
});

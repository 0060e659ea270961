import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Journey } from './helpers';
import { addStaff, STAFF_PASSWORD } from './staff';

/*
 * Invitations that reach the patient (docs/behaviour.md, "Texts and
 * emails"), against the test server's texting and mail stand-ins
 * (`serve -messaging-standins`, messaging/standin; /dev/messages is what a
 * patient's phone and inbox received): the desk invites a patient by text,
 * the stand-in takes one message of at most 160 characters whose link
 * opens the patient's form, and its signed report turns the text from sent
 * to delivered on the office's list without a reload. A text the carrier
 * cannot deliver shows why, and the held email goes instead. A STOP from
 * the number turns its rows to "opted out", the one already texted and the
 * next, and nothing more reaches it.
 */

interface Received {
  texts: { to: string; body: string; link: string; status: string }[];
  emails: { to: string[]; subject: string; link: string }[];
}

/** received is what the stand-ins took, newest first. */
async function received(request: APIRequestContext): Promise<Received> {
  const res = await request.get('/dev/messages.json');
  expect(res.ok()).toBe(true);
  return (await res.json()) as Received;
}

const textsTo = async (request: APIRequestContext, number: string) => (await received(request)).texts.filter((t) => t.to === `+1${number}`);

/** invite makes an invitation from the screen with a mobile number (the patient agreed) and, if given, an email. */
async function invite(j: Journey, first: string, last: string, phone: string, email = ''): Promise<void> {
  const page = j.page;
  await page.getByRole('link', { name: 'Invite a patient' }).click();
  await page.getByLabel('Treatment amount').fill('1,800');
  // Exact: the office may also show the search of its Open Dental (records.spec.ts), with its own "Last name or chart number".
  await page.getByLabel('First name', { exact: true }).fill(first);
  await page.getByLabel('Last name', { exact: true }).fill(last);
  await page.getByLabel('Mobile phone (optional)').fill(phone);
  if (email) await page.getByLabel('Email (optional)').fill(email);
  await page.getByRole('button', { name: 'Create invitation' }).click();
  // The desk must confirm the patient agreed to be texted.
  await expect(page.getByText('Confirm that the patient gave you this number to be texted the link')).toBeVisible();
  await page.getByLabel('The patient gave us this number and agreed to be texted this link.').check();
  await j.screen('texts-invite-form', 'Invite a patient');
  await page.getByRole('button', { name: 'Create invitation' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Invitation ready' })).toBeVisible();
}

const rowOf = (page: Page, last: string) => page.getByRole('row').filter({ has: page.getByRole('rowheader', { name: new RegExp(last) }) });

test('texts: delivered, undelivered with the email instead, and STOP', async ({ page, browser, request }, info) => {
  test.setTimeout(180_000);
  const j = new Journey(page, info, 'texts');
  j.allow(/status of 401/); // signed out, the session check answers 401
  await j.init();
  await page.goto('/office');
  await page.getByLabel('Email').fill(addStaff());
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('link', { name: 'Invite a patient' })).toBeVisible();

  // Delivered: one message, the link whole, the practice named and how to stop. The patient's phone is
  // off at first, so the list shows the text sent, then delivered once the carrier's report comes.
  expect((await request.post('/dev/messages/hold', { form: { number: '5035550150' } })).ok()).toBe(true);
  await invite(j, 'Tess', 'Textme', '(503) 555-0150', 'tess@example.com');
  await expect(page.getByText('By text message to (•••) •••-0150')).toBeVisible();
  await expect(page.getByText('By email to t•••@example.com, only if the text does not arrive')).toBeVisible();
  await j.screen('texts-invite-ready', 'Invitation ready');
  await page.getByRole('link', { name: 'Done' }).click();
  const tess = rowOf(page, 'Textme');
  await expect(tess).toContainText('Text to (•••) •••-0150: sent');
  await page.evaluate(() => Object.assign(window, { sameDocument: true }));
  expect((await request.post('/dev/messages/release', { form: { number: '5035550150' } })).ok()).toBe(true);
  await expect(tess).toContainText('Text to (•••) •••-0150: delivered');
  expect(await page.evaluate(() => 'sameDocument' in window), 'the list changed without a reload').toBe(true);
  await expect(tess).toContainText('Email to t•••@example.com: kept back, sent only if the text does not arrive');
  await j.screen('texts-day-delivered', 'Bright Smile Dental');
  const [text] = await textsTo(request, '5035550150');
  expect(text).toBeDefined();
  expect([...text!.body].length).toBeLessThanOrEqual(160);
  expect(text!.body).toMatch(/^Bright Smile Dental: .* Reply STOP to opt out$/);
  expect(text!.link).toMatch(/\/i\/[A-Za-z0-9_-]{20,}$/);

  // Send again: the same link to the same number.
  await tess.getByRole('button', { name: 'Send again the invitation for Tess Textme' }).click();
  await expect(page.getByText('The link for Tess Textme is being sent again to (•••) •••-0150 and t•••@example.com.')).toBeVisible();
  await expect(tess).toContainText('Text to (•••) •••-0150: delivered (sent 2 times)');
  const both = await textsTo(request, '5035550150');
  expect(both.map((t) => t.link)).toEqual([text!.link, text!.link]);

  // Undelivered: the carrier's reason in words, and the email goes instead.
  const fail = await request.post('/dev/messages/fail', { form: { number: '5035550151', code: '30006' } });
  expect(fail.ok()).toBe(true);
  await invite(j, 'Uma', 'Undelivered', '503-555-0151', 'uma@example.com');
  await page.getByRole('link', { name: 'Done' }).click();
  const uma = rowOf(page, 'Undelivered');
  await expect(uma).toContainText('Text to (•••) •••-0151: not delivered (the number is a landline)');
  await expect(uma).toContainText('Email to u•••@example.com: sent');
  await j.screen('texts-day-undelivered', 'Bright Smile Dental');
  const email = (await received(request)).emails.find((e) => e.to.includes('uma@example.com'));
  expect(email?.subject).toBe('Your payment options at Bright Smile Dental');
  expect(email?.link).toMatch(/\/start\/tokens\/[A-Za-z0-9_-]{20,}$/);

  // STOP: the row already texted says opted out by itself; the next invitation to that number is not
  // texted, and says why.
  const stop = await request.post('/dev/messages/reply', { form: { from: '5035550150', body: 'STOP' } });
  expect(stop.ok()).toBe(true);
  await expect(tess).toContainText('Text to (•••) •••-0150: opted out, the patient asked this office to stop texting them');
  await invite(j, 'Otto', 'Optout', '5035550150');
  await page.getByRole('link', { name: 'Done' }).click();
  const otto = rowOf(page, 'Optout');
  await expect(otto).toContainText('opted out, the patient asked this office to stop texting them');
  await expect(otto.getByRole('button', { name: /Send again/ })).toHaveCount(0);
  await j.screen('texts-day-opted-out', 'Bright Smile Dental');
  expect(await textsTo(request, '5035550150')).toHaveLength(2);

  // The text's link opens the patient's form, on the patient's own phone.
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, locale: 'en-US' });
  const patient = await phone.newPage();
  await patient.goto(text!.link);
  await expect(patient).toHaveURL(/\/application$/);
  await expect(patient.getByRole('dialog', { name: 'Are you the patient?' })).toBeVisible();
  await phone.close();
  await j.assertClean();
});

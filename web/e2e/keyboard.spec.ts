import { expect, test, type Locator, type Page } from '@playwright/test';
import { ENTITY_KEY, Journey, randomSsn, SIGNING_BOXES, VALUES } from './helpers';

/*
 * The whole journey from the keyboard alone (docs/behaviour.md,
 * "Signing"): every control is reached with Tab and worked with the keys a
 * keyboard or switch user has — typing, Space, Enter and the arrows —
 * never a click or a fill; the signature is the typed name; axe scans every
 * screen (Journey.screen).
 */

/** tabTo presses Tab until the control has focus: it fails if the control cannot be reached that way. */
async function tabTo(page: Page, target: Locator, most = 80): Promise<void> {
  for (let i = 0; i < most; i++) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`not reachable with Tab: ${String(target)}`);
}

/** press reaches a button or link with Tab and presses Enter on it. */
async function press(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

/** check reaches a checkbox or radio with Tab and ticks it with Space. */
async function check(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('Space');
  await expect(target).toBeChecked();
}

/** typeApplication fills the form in tab order, as a keyboard user would. */
async function typeApplication(page: Page, lastName: string): Promise<void> {
  const ssn = randomSsn();
  const controls = await page.locator('form [id^="primary-"]').all();
  for (const c of controls) {
    const id = (await c.getAttribute('id'))!.slice('primary-'.length);
    const tag = await c.evaluate((el) => el.tagName.toLowerCase());
    const type = (await c.getAttribute('type')) ?? '';
    if (tag !== 'input' && tag !== 'select') continue; // hints and errors share the prefix
    if (type === 'radio') {
      if (/-0$/.test(id)) await check(page, c);
      continue;
    }
    if (type === 'checkbox') {
      await check(page, c);
      continue;
    }
    const want = id === 'lastName' ? lastName : id === 'ssn' ? ssn : (VALUES[id] ?? 'Test');
    if (!want || (await c.inputValue()) === want) continue;
    await tabTo(page, c);
    if (tag === 'select') {
      // A closed select steps through its options with the arrow keys.
      for (let i = 0; i < 80 && (await c.inputValue()) !== want; i++) await page.keyboard.press('ArrowDown');
      if ((await c.inputValue()) !== want) await page.keyboard.press('ArrowDown');
      continue;
    }
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.type(want);
  }
}

test('keyboard only: apply, choose a plan, sign by typing the name and finish, axe clean on every screen', async ({ page }, info) => {
  const j = new Journey(page, info, 'keyboard');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await j.screen('application', 'Tell us about yourself');
  await typeApplication(page, 'Approve');
  await press(page, page.getByRole('button', { name: 'Continue' }));
  // The check of the details is a dialog on the form's screen; its button has the focus trap's attention.
  await expect(page.getByRole('heading', { name: 'Check your details' })).toBeVisible();
  await press(page, page.getByRole('button', { name: 'Confirm and continue' }));

  await j.screen('prequalify-agree', 'Before we check your options');
  await check(page, page.getByRole('checkbox', { name: /^I have read (this|these) and I agree to a soft credit check/ }));
  await press(page, page.getByRole('button', { name: 'Check my options' }));

  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await j.screen('result', 'Good news!');
  await press(page, page.getByRole('button', { name: 'See payment options' }));
  await j.screen('plans', 'Choose your payment plan');
  await check(page, page.getByRole('radio').first());
  await press(page, page.getByRole('button', { name: 'Continue' }));
  await j.screen('plan-review', 'Review your plan');
  await press(page, page.getByRole('button', { name: 'Accept offer' }));

  await expect(page).toHaveURL(/\/terms$/);
  await j.screen('terms', 'Read and sign');
  for (const box of [SIGNING_BOXES.esign('Synchrony'), SIGNING_BOXES.agreement('Synchrony'), SIGNING_BOXES.hardPull('Synchrony')]) {
    await check(page, page.getByRole('checkbox', { name: box }));
  }
  await tabTo(page, page.getByRole('radio', { name: 'Draw my signature' }));
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Type my name' })).toBeChecked();
  await tabTo(page, page.getByLabel('Type your full name'));
  await page.keyboard.type('Ann Approve');
  await j.screen('terms-typed', 'Read and sign');
  await press(page, page.getByRole('button', { name: 'Sign and finish' }));

  await expect(page).toHaveURL(/\/complete$/);
  await j.screen('complete', 'You’re all set');
  await press(page, page.getByRole('button', { name: 'Finish' }));
  await expect(page).toHaveURL(/\/finish\/completed$/);
  await j.screen('finish', 'Thank you');
});

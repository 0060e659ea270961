import { expect, test, type Locator, type Page } from '@playwright/test';
import { checkByKeyboard as check, ENTITY_KEY, fillApplication, Journey, SIGNING_BOXES, tabTo } from './helpers';

/*
 * The whole journey from the keyboard alone (docs/behaviour.md,
 * "Signing"): every control is reached with Tab and worked with the keys a
 * keyboard or switch user has — typing, Space, Enter and the arrows —
 * never a click or a fill; the signature is the typed name; axe scans every
 * screen (Journey.screen).
 */

/** press reaches a button or link with Tab and presses Enter on it. */
async function press(page: Page, target: Locator): Promise<void> {
  await tabTo(page, target);
  await page.keyboard.press('Enter');
}

test('keyboard only: apply, choose a plan, sign by typing the name and finish, axe clean on every screen', async ({ page }, info) => {
  const j = new Journey(page, info, 'keyboard');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await j.screen('application', 'Tell us about yourself');
  await fillApplication(page, 'Approve', 'primary', 'keyboard');
  await press(page, page.getByRole('button', { name: 'Continue' }));
  // The check of the details is a dialog on the form's screen; its button has the focus trap's attention.
  await expect(page.getByRole('heading', { name: 'Check your details' })).toBeVisible();
  await press(page, page.getByRole('button', { name: 'Confirm and continue' }));

  await j.screen('prequalify-agree', 'Before we check your options');
  await check(page, page.getByRole('checkbox', { name: /^I have read (this|these)(\.| and) I agree/ }));
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

import { expect, test } from '@playwright/test';
import { agreeSoftPull, agreeToSigning, ENTITY_KEY, Journey, submitApplication } from './helpers';

/*
 * Signing without a pointer (docs/behaviour.md, "Signing"): on the signing
 * screen the patient chooses "Type my name" and types it, all from the
 * keyboard. A name that is not the applicant's is refused by the server
 * and said at the signature; the applicant's own name signs, and the
 * application completes.
 */

test('signing by typing one’s name, from the keyboard: a wrong name is refused, the right one signs', async ({ page }, info) => {
  const j = new Journey(page, info, 'typed-signature');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await submitApplication(j, 'Approve');
  await agreeSoftPull(j);
  await page.getByRole('button', { name: 'See payment options' }).click();
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Accept offer' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await agreeToSigning(page, 'Synchrony', true);

  // From the keyboard only: focus the drawing choice, move to typing with an arrow key, tab into the name.
  await page.getByRole('radio', { name: 'Draw my signature' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Type my name' })).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Type your full name')).toBeFocused();
  await page.keyboard.type('Somebody Else');
  await expect(page.getByRole('img', { name: 'Your signature: Somebody Else' })).toBeVisible();
  j.allow(/status of 400/); // the refused name
  await page.getByRole('button', { name: 'Sign and finish' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByText('This is not the name on your application. Please type your first and last name as you entered them.')).toBeVisible();
  await expect(page).toHaveURL(/\/terms$/);

  await page.getByLabel('Type your full name').fill('');
  await page.getByLabel('Type your full name').focus();
  await page.keyboard.type('ann b. approve');
  await j.screen('typed-signature', 'Read and sign');
  await page.getByRole('button', { name: 'Sign and finish' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/complete$/);
  await j.screen('typed-signature-complete', 'You’re all set');
});

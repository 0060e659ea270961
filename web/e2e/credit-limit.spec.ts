import { expect, test } from '@playwright/test';
import { Journey, startWithCase } from './helpers';

/*
 * A credit-limit change (docs/behaviour.md, "Credit-limit change"): the
 * sandbox test case credit-limit-change has the first lender (Synchrony,
 * a revolving card) find an account with a $1,000.00 limit; it approves a
 * higher limit when the yearly income is at least four times it.
 */

test('credit-limit-change: the account is too small for the treatment; the patient asks for more, is approved, and sees plans for the treatment', async ({
  page,
}, info) => {
  const j = new Journey(page, info, 'credit-limit');
  await j.init();
  await startWithCase(page, j, 'credit-limit-change', 'Limits');

  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/existingAccount$/);
  await expect(page.getByText(/It has \$1,000\.00 of credit available, and your treatment costs \$4,500\.00\./)).toBeVisible();
  await j.screen('existing-account', 'You already have an account');
  await page.getByRole('button', { name: 'Ask for a higher credit limit' }).click();

  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/credit_limit_change\/start$/);
  await expect(page.locator('.review dd')).toHaveText(['$1,000.00', '$1,000.00', '$4,500.00']);
  await expect(page.locator('.doc')).toBeVisible();
  await j.screen('start', 'Ask for a higher credit limit');
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/credit_limit_change\/income$/);
  // Filled in for the treatment.
  await expect(page.getByLabel('New credit limit')).toHaveValue('4,500.00');
  await page.getByRole('button', { name: 'Send my request' }).click();
  await expect(page.getByText('Please enter your yearly income before taxes.')).toBeVisible();
  await page.getByLabel('Yearly income before taxes').fill('60000');
  await j.screen('income', 'Your request to Synchrony');
  const sent = page.waitForResponse((r) => r.url().endsWith('/providers/synchrony_standard/account/change-credit-limit'));
  await page.getByRole('button', { name: 'Send my request' }).click();
  expect((await sent).status()).toBe(200);

  await expect(page).toHaveURL(/\/credit_limit_change\/result$/);
  await expect(page.locator('.offer-head__amount')).toHaveText('$4,500.00');
  await expect(page.getByText('You now have $4,500.00 available — enough for your $4,500.00 treatment.')).toBeVisible();
  await j.screen('approved', 'Your credit limit is higher');

  const priced = page.waitForRequest((r) => r.url().endsWith('/providers/synchrony_standard/payment/plans') && r.method() === 'POST');
  await page.getByRole('button', { name: 'See payment plans' }).click();
  expect((await priced).postDataJSON()).toEqual({ amountCents: 450_000, purchaseAmountCents: 450_000 });
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/paymentPlans$/);
  await expect(page.getByRole('heading', { name: 'Payment plans for $4,500.00' })).toBeVisible();
  await expect(page.getByRole('radio').first()).toBeVisible();
  await j.screen('plans', 'Choose your payment plan');
});

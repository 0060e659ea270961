import { expect, test } from '@playwright/test';
import { agreeSoftPull, drawSignature, Journey, SIGNING_BOXES, submitApplication } from './helpers';

/** The Snap demo office (docs/demo.md, the demo offices): snap first, then aff. */
const SNAP_OFFICE = '1000200030019000';
const ACCOUNT = '000123456789';

test('snap: Approve through the bank account, no card for a lease, to /finish/completed', async ({ page }, info) => {
  const j = new Journey(page, info, 'snap');
  await j.init();
  await page.goto(`/start/entity-keys/${SNAP_OFFICE}`);
  await expect(page).toHaveURL(/\/providers\/snap_standard\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Approve', 'snap-application');
  await agreeSoftPull(j);

  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await j.screen('snap-result', 'Good news!');
  await page.getByRole('button', { name: 'See payment options' }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
  // A lease is shown as a lease: cost of ownership and the early purchase
  // option, never an APR or "no interest".
  await expect(page.getByText(/Cost of ownership \$/).first()).toBeVisible();
  await expect(page.getByText(/pay the cash price of \$[\d,.]+ within 101 days/).first()).toBeVisible();
  await expect(page.getByText(/APR|No interest/)).toHaveCount(0);
  await j.screen('snap-plans', 'Choose your payment plan');
  // The early purchase option goes on once its notice is acknowledged (docs/behaviour.md, "Plans and offers").
  await page.locator('[id="plan-snap_standard-SNP-SAC-101"]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
  const notice = page.getByRole('dialog', { name: 'Before you choose the early purchase option' });
  await expect(notice).toContainText(/paid in full within 101 days, the early purchase price no longer applies/);
  await j.screen('snap-same-as-cash', 'Choose your payment plan');
  await notice.getByRole('button', { name: 'I understand, continue' }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await expect(page.getByText('Cost of ownership, beyond the cash price', { exact: true })).toBeVisible();
  await expect(page.getByText(/Amount financed|credit check/)).toHaveCount(0);
  await expect(page.getByText(/APR|No interest/)).toHaveCount(0);
  await j.screen('snap-plan-review', 'Review your plan');
  await page.getByRole('button', { name: 'Accept offer' }).click();

  await expect(page).toHaveURL(/\/providers\/snap_standard\/addBankAccount$/);
  await j.screen('snap-bank-account', 'Add your checking account');
  await expect(page.getByLabel('Routing number')).toHaveAttribute('inputmode', 'numeric');
  await page.getByLabel('Routing number').fill('0110000169999');
  await expect(page.getByLabel('Routing number')).toHaveValue('011000016');
  await page.getByLabel('Account number').fill(ACCOUNT);
  await page.getByLabel('Bank name').fill('First Test Bank');
  await page.getByRole('button', { name: 'Continue' }).click();
  // Nine digits that fail the banks' check digit: the patient is asked to check each digit, not to count them.
  await expect(page.getByText('This isn’t a routing number we recognize. Please check each digit against your checks.')).toBeVisible();
  await j.screen('snap-bank-account-error', 'Add your checking account');
  await page.getByLabel('Routing number').fill('011000015');
  await page.getByRole('button', { name: 'Continue' }).click();

  // A lease's payments come from that checking account, as its screen says: no card is offered.
  // The lease agreement on its own screen (docs/behaviour.md, "Signing"); signing then does not show it again.
  await expect(page).toHaveURL(/\/providers\/snap_standard\/agreement$/);
  await j.screen('snap-agreement', 'Your lease agreement');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Please check the box to continue')).toBeVisible();
  await page.getByRole('checkbox', { name: 'I have read the Snap lease agreement and I agree to its terms.' }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  await expect(page).toHaveURL(/\/providers\/snap_standard\/terms$/);
  await expect(page.getByText('You read and agreed to the Snap agreement on the screen before this one.', { exact: false })).toBeVisible();
  await j.screen('snap-terms', 'Read and sign');
  await page.getByRole('checkbox', { name: SIGNING_BOXES.esign('Snap') }).check();
  await page.getByRole('checkbox', { name: SIGNING_BOXES.leaseCheck('Snap') }).check();
  await expect(page.getByRole('heading', { name: 'Permission for a full credit check' })).toHaveCount(0);
  await expect(page.getByRole('checkbox')).toHaveCount(2);
  await drawSignature(page);
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  await expect(page).toHaveURL(/\/complete$/);
  await j.screen('snap-complete', 'You’re all set');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);

  // The account number is in no browser storage.
  const stored = await page.evaluate(async () => {
    const parts = [JSON.stringify({ ...localStorage }), JSON.stringify({ ...sessionStorage })];
    const dbs = indexedDB.databases ? await indexedDB.databases() : [];
    for (const info of dbs) {
      if (!info.name) continue;
      const db = await new Promise<IDBDatabase>((ok, fail) => {
        const r = indexedDB.open(info.name!);
        r.onsuccess = () => ok(r.result);
        r.onerror = () => fail(r.error);
      });
      for (const store of Array.from(db.objectStoreNames)) {
        const all = await new Promise<unknown[]>((ok, fail) => {
          const r = db.transaction(store).objectStore(store).getAll();
          r.onsuccess = () => ok(r.result);
          r.onerror = () => fail(r.error);
        });
        parts.push(JSON.stringify(all));
      }
      db.close();
    }
    return parts.join('\n');
  });
  expect(stored).not.toContain(ACCOUNT);
});

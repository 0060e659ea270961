import { expect, test, type Page, type TestInfo } from '@playwright/test';
import {
  agreeSoftPull,
  agreeToSigning,
  checkSigningScreen,
  drawSignature,
  ENTITY_KEY,
  fillApplication,
  fullPageShot,
  Journey,
  submitApplication,
} from './helpers';

/*
 * The full (standard) application, end to end (docs/behaviour.md, "Decision
 * routing", "Consents" and "Signing"): the hard-pull authorisation as its own
 * consent before applying, approved straight to the plans, then the
 * agreement and the E-SIGN consent — no second hard-pull authorisation — and
 * the signature, to /finish/completed.
 */

/** The current step of the stepper (its list is shown on a tablet). */
const currentStep = (page: Page) => page.getByRole('navigation', { name: 'Progress' }).locator('[aria-current="step"]');

/** From the full form, filled with lastName, through the hard-pull consent to the plans, then sign and finish. */
async function applyFullAndSign(j: Journey, info: TestInfo, lastName: string, prefix: string): Promise<void> {
  const page = j.page;
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/modes\/full\/application$/);
  // The standard application asks for more (housing, work).
  await fillApplication(page, lastName);
  await expect(page.locator('#primary-employerName')).toBeVisible();
  await j.screen(`${prefix}-application`, 'Tell us about yourself');
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: 'Confirm and continue' }).click();

  // The hard-pull authorisation, its own screen and box (never the soft-pull one).
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/terms$/);
  await expect(page.getByText('hard credit check', { exact: false }).first()).toBeVisible();
  await expect(page.getByRole('region', { name: 'Important disclosures' })).toBeVisible();
  await expect(currentStep(page)).toContainText('Terms');
  const box = page.getByRole('checkbox', { name: 'I have read the terms and I want to apply.' });
  await expect(box).not.toBeChecked();
  await j.screen(`${prefix}-hard-pull`, 'Terms of your application');
  await box.check();
  const apply = page.waitForRequest((r) => r.method() === 'POST' && /\/providers\/synchrony_standard\/apply$/.test(new URL(r.url()).pathname));
  await page.getByRole('button', { name: 'Submit application' }).click();
  const sent = (await apply).postDataJSON() as { consent: { documentId: string } };
  expect(sent.consent.documentId).toBe('synchrony_standard/disclosures');

  // Approved in a full application: straight to the plans, no "Good news" screen before or after.
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/paymentPlans$/);
  await expect(page.getByRole('radio').first()).toBeVisible();
  await expect(currentStep(page)).toContainText('Payment options');
  await j.screen(`${prefix}-plans`, 'Choose your payment plan');
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await j.screen(`${prefix}-review`, 'Review your plan');
  await page.getByRole('button', { name: 'Accept offer' }).click();

  // The agreement and the E-SIGN consent; the hard pull was authorised before applying.
  await expect(page).toHaveURL(/\/providers\/synchrony_standard\/terms$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Read and sign');
  await checkSigningScreen(page, 'Synchrony', false);
  await expect(currentStep(page)).toContainText('Payment options');
  await j.screen(`${prefix}-sign`, 'Read and sign');
  await fullPageShot(page, info, `${prefix}-sign`);
  await agreeToSigning(page, 'Synchrony', false);
  await drawSignature(page);
  const esign = page.waitForRequest((r) => r.url().endsWith('/application/esign'));
  await page.getByRole('button', { name: 'Sign and finish' }).click();
  const body = (await esign).postDataJSON() as Record<string, { documentId: string } | string | undefined>;
  expect(Object.keys(body).sort()).toEqual(['agreementConsent', 'consent', 'signaturePng']);

  await expect(page).toHaveURL(/\/complete$/);
  await j.screen(`${prefix}-complete`, 'You’re all set');
  await page.getByRole('button', { name: 'Finish' }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);
  await j.screen(`${prefix}-finish`, 'Thank you');
}

test('full application: hard-pull consent, approved, plans, agreement and signature, to /finish/completed', async ({ page }, info) => {
  const j = new Journey(page, info, 'full');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  // An office whose first lender takes full applications starts here (synchrony_standard supports them). The
  // session lives in the page, so the app is sent there from inside, as its own links do, not reloaded.
  await page.evaluate(() => {
    window.history.pushState({}, '', '/providers/synchrony_standard/modes/full/start');
    window.dispatchEvent(new PopStateEvent('popstate'));
  });
  await applyFullAndSign(j, info, 'Approve', 'full');
});

test('no offer from the quick checks: the standard application warns of the hard inquiry, then approves and signs', async ({ page }, info) => {
  const j = new Journey(page, info, 'standard');
  await j.init();
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await submitApplication(j, 'Nooffer');
  await agreeSoftPull(j, ['Synchrony', 'Fortiva', 'Snap']);
  // The waterfall goes on to a lender that needs the patient's go-ahead (Proceed).
  await page.waitForURL(/\/(application|nooffer)$/);
  if (/\/application$/.test(page.url())) {
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByRole('button', { name: 'Confirm and continue' }).click();
    await agreeSoftPull(j, ['Proceed']);
  }
  await expect(page).toHaveURL(/\/nooffer$/);
  // The office's first lender (Synchrony) takes full applications: the patient may apply, warned of the hard inquiry.
  await expect(page.getByText('The standard application uses a hard credit check')).toBeVisible();
  await j.screen('nooffer', 'No offer from the quick check');
  await page.getByRole('button', { name: 'Begin standard application' }).click();
  // The sandbox decides by last name: the patient's standard application is the one it approves.
  await applyFullAndSign(j, info, 'Approve', 'standard');
});

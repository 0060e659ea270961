import { expect, test, type Page } from '@playwright/test';
import { drawSignature, ENTITY_KEY, fillApplication, Journey } from './helpers';
import { englishOn, es, expectSpanish } from './spanish';

/*
 * The whole Approve journey in Spanish (docs/languages.md), on a phone and a
 * tablet at an office that speaks Spanish by default, and on a tablet where
 * the patient switches to Spanish before starting. Every screen is scanned with axe,
 * photographed, and must hold no English: every word the patient reads or
 * hears is Spanish, the lenders' names aside.
 */

/** Clínica Dental del Valle (TX): Spanish by default (demo/offices.yaml). */
const DEL_VALLE = '1000200030023000';

/** A check made on every screen besides the Spanish one (the 200 % text walk's reflow). */
type Check = (page: Page, name: string) => Promise<void>;

async function screen(j: Journey, name: string, heading: string, check?: Check): Promise<void> {
  await j.screen(name, heading);
  await expectSpanish(j.page, name);
  await check?.(j.page, name);
}

/** walkToTheEnd applies with the magic name Approve and goes to the end; `box` is the soft-pull box's words for the lenders the quick check may reach. */
async function walkToTheEnd(j: Journey, page: Page, box: string, check?: Check): Promise<void> {
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  await fillApplication(page, 'Approve');
  await screen(j, 'application', es('application.page.title'), check);
  await page.getByRole('button', { name: es('common.actions.continue') }).click();
  await expect(page.getByRole('heading', { name: es('application.review.title') })).toBeVisible();
  await expectSpanish(page, 'review');
  await page.getByRole('button', { name: es('application.review.confirm') }).click();

  await screen(j, 'prequalify-agree', es('application.agree.title'), check);
  // One box agrees to the terms of every lender the quick check may reach (Synchrony, then Fortiva …).
  await page.getByRole('checkbox', { name: box }).check();
  await page.getByRole('button', { name: es('application.agree.button') }).click();

  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await screen(j, 'result-positive', es('results.positive.title'), check);
  await page.getByRole('button', { name: es('results.positive.seeOptions') }).click();

  await expect(page).toHaveURL(/\/paymentPlans$/);
  await expect(page.getByRole('radio').first()).toBeVisible();
  await screen(j, 'payment-plans', es('offers.plans.title'), check);
  await page.getByRole('radio').first().click();
  await page.getByRole('button', { name: es('offers.continue') }).click();

  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await screen(j, 'plan-review', es('offers.review.title'), check);
  await page.getByRole('button', { name: es('offers.review.accept') }).click();

  await expect(page).toHaveURL(/\/terms$/);
  await expect(page.locator('.doc')).toHaveCount(3);
  await screen(j, 'terms', es('signing.sign.title'), check);
  for (const box of await page.getByRole('checkbox').all()) await box.check();
  await drawSignature(page);
  await expectSpanish(page, 'terms-signed');
  await page.getByRole('button', { name: es('signing.sign.submit') }).click();

  await expect(page).toHaveURL(/\/complete$/);
  await screen(j, 'complete', es('finish.complete.title'), check);
  await page.getByRole('button', { name: es('finish.complete.finish') }).click();
  await expect(page).toHaveURL(/\/finish\/completed$/);
  await screen(j, 'finish', es('finish.messages.completed.title'), check);
}

// On a phone only: on a tablet the same office's Spanish journey is walked at 200 % text below, and the switch to Spanish at full size.
test('the Approve journey in Spanish at an office that speaks Spanish @phone-only', async ({ page }, info) => {
  const j = new Journey(page, info, 'spanish');
  await j.init();
  await page.goto(`/start/entity-keys/${DEL_VALLE}`);
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await walkToTheEnd(j, page, es('application.agree.boxMany', { names: 'Synchrony y Fortiva' }));
});

test('the patient switches to Spanish and the whole journey follows', async ({ page }, info) => {
  const j = new Journey(page, info, 'spanish-switch');
  await j.init();
  await page.goto('/idle');
  await j.screen('idle-english', 'Welcome to Chairside');
  // The check finds English where there is English: the screen before the switch, labelled Spanish for the check.
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'es'));
  expect(await englishOn(page)).toEqual(expect.arrayContaining(['Welcome to Chairside', 'Help', 'Skip to main content']));
  await page.evaluate(() => document.documentElement.setAttribute('lang', 'en'));
  await page.getByRole('button', { name: 'Español' }).click();
  await screen(j, 'idle', es('start.idle.title'));
  // Every call says the language chosen.
  const call = page.waitForRequest((r) => r.url().includes('/api/v1/flow/start/'));
  await page.goto(`/start/entity-keys/${ENTITY_KEY}`);
  expect((await call).headers()['accept-language']).toBe('es');
  // Snap leases: it looks only at the details given, and the soft credit check is Synchrony's and Fortiva's.
  await walkToTheEnd(j, page, es('application.agree.leaseBoxMany', { lender: 'Snap', names: 'Synchrony y Fortiva' }));
});

/*
 * Text at 200 % (WCAG 1.4.4 and 1.4.10): a tablet's 1024 × 768 screen zoomed
 * to 200 % is 512 × 384 CSS pixels. In Spanish, the longer language, every
 * screen reflows to that width: nothing scrolls sideways, and every control
 * stays inside the screen.
 */
test('text at 200 %: the whole journey in Spanish reflows without scrolling sideways', async ({ page }, info) => {
  await page.setViewportSize({ width: 512, height: 384 });
  const j = new Journey(page, info, 'spanish-zoom');
  await j.init();
  const reflows: Check = async (p, name) => {
    const overflow = await p.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll('main *, header *')]
        .filter((el) => (el as HTMLElement).checkVisibility?.() && el.getBoundingClientRect().right > width + 1)
        .map((el) => `${el.tagName.toLowerCase()}.${el.className}`);
      return { scroll: document.documentElement.scrollWidth - width, wide: wide.slice(0, 5) };
    });
    expect(overflow, `reflow on "${name}" at 200 %`).toEqual({ scroll: 0, wide: [] });
  };
  await page.goto(`/start/entity-keys/${DEL_VALLE}`);
  await walkToTheEnd(j, page, es('application.agree.boxMany', { names: 'Synchrony y Fortiva' }), reflows);
});

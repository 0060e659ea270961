import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { agreeSoftPull, ENTITY_KEY, fillRequired, Journey, submitApplication } from './helpers';
import { checkChoice, checkDownPaymentScreen, checkPlansScreen, checkReview, checkSigning, eligible, PlansSeen, usd, type Plan } from './money';
import { expectSpanish, say, type Language } from './spanish';

/*
 * Money that adds up (issue 27; docs/behaviour.md, "Plans and offers";
 * docs/money.md): the Approve case applies, and every amount of money on the
 * plans, review and next screens is checked against the plans the server
 * answered and against each other (money.ts). Here: two offices at $4,500
 * to signing and the down payment; every demo office at $600, to the review
 * of the first plan that can be chosen; and two offices in Spanish on a
 * phone. lenders.spec.ts makes the same checks on every lender's whole
 * journey at $4,500.
 */

/** apply walks an office's Approve case to its plans. */
async function apply(j: Journey, entityKey: string): Promise<void> {
  const page = j.page;
  await page.goto(`/start/entity-keys/${entityKey}`);
  await submitApplication(j, 'Approve', 'money-application');
  await agreeSoftPull(j);
  await page.getByRole('button', { name: 'See payment options' }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
}

/** chooseAndReview picks the first plan, checks the line that names it and the review against it; it answers the plan. */
async function chooseAndReview(j: Journey, seen: PlansSeen, shown: Plan[]): Promise<Plan> {
  const page = j.page;
  const plan = shown[0]!;
  await page.getByRole('radio').first().click();
  await checkChoice(page, plan);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await j.screen('money-review', 'Review your plan', { scan: 'once' });
  await checkReview(page, plan, { treatmentCents: 450_000, plans: await seen.plans() });
  return plan;
}

test('Bright Smile Dental (Synchrony): plans, review and signing agree with the plans the server answered', async ({ page }, info) => {
  const j = new Journey(page, info, 'money-synchrony');
  await j.init();
  const seen = new PlansSeen(page);
  await apply(j, ENTITY_KEY);
  const shown = await checkPlansScreen(page, seen, 450_000);
  await j.screen('money-plans', 'Choose your payment plan', { scan: 'once' });
  const plan = await chooseAndReview(j, seen, shown);
  await page.getByRole('button', { name: 'Accept offer' }).click();
  await expect(page).toHaveURL(/\/terms$/);
  await j.screen('money-sign', 'Read and sign', { scan: 'once' });
  await checkSigning(page, plan);
});

test('Bayou City (HFD, with a down payment): the table adds up to the plan’s amount financed and total', async ({ page }, info) => {
  const j = new Journey(page, info, 'money-hfd');
  await j.init();
  const seen = new PlansSeen(page);
  await apply(j, '1000200030016000');
  const shown = await checkPlansScreen(page, seen, 450_000);
  const plan = await chooseAndReview(j, seen, shown);
  expect(plan.downPaymentCents).toBeGreaterThan(0);
  expect(plan.downPaymentCents + plan.amountFinancedCents).toBe(450_000);
  await page.getByRole('button', { name: 'Accept offer' }).click();
  await expect(page).toHaveURL(/\/downpayment$/);
  await j.screen('money-down-payment', 'Your down payment', { scan: 'once' });
  await checkDownPaymentScreen(page, plan, 450_000);
});

interface DemoOffice {
  key: string;
  name: string;
  /** The first lender of its waterfall: the one the Approve case reaches. */
  first: string;
  lang: Language;
}

/** The demo offices of demo/offices.yaml, each with its first lender and its language. */
function demoOffices(): DemoOffice[] {
  const file = readFileSync(new URL('../../demo/offices.yaml', import.meta.url), 'utf8');
  return file
    .split(/^- /m)
    .slice(1)
    .map((o) => ({
      key: /entityKey: "(\d{16})"/.exec(o)![1]!,
      name: /^\s*name: (.+)$/m.exec(o)![1]!,
      first: /providerKey: (\w+)/.exec(o)![1]!,
      lang: /^\s*language: es$/m.test(o) ? 'es' : 'en',
    }));
}

const OFFICES = demoOffices();

/** The lenders that open the explanation of their suggested plan unasked (catalogue autoShowLearnHowDrawer; lenders.spec.ts). */
const EXPLAINS = ['genesis_aspen'];

/**
 * applyFor walks an office's Approve case for an amount to its plans: the
 * start link carries no amount, so the form asks it. With `switchTo`, the
 * patient first switches the form to that language. Every word it clicks
 * is the office's language's.
 */
async function applyFor(page: Page, key: string, dollars: number, lang: Language, switchTo = false): Promise<void> {
  await page.goto(`/start/entity-keys/${key}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  if (switchTo) await page.getByRole('button', { name: lang === 'es' ? 'Español' : 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  // The amount first: fillRequired leaves a field already filled as it is.
  await page.locator('#primary-purchaseAmountCents').fill(String(dollars));
  await fillRequired(page, 'Approve', 'primary', 'fill');
  // A mobile or a home phone: one of the two is asked for.
  await page.locator('#primary-mobilePhone').fill('6195550134');
  await page.getByRole('button', { name: say(lang, 'common.actions.continue') }).click();
  await page.getByRole('button', { name: say(lang, 'application.review.confirm') }).click();
  await expect(page.locator('h1')).toHaveText(say(lang, 'application.agree.title'));
  for (const box of await page.getByRole('checkbox').all()) await box.check();
  await page.getByRole('button', { name: say(lang, 'application.agree.button') }).click();
  await expect(page).toHaveURL(/\/(prequalified|preapproved|approved)$/);
  await page.getByRole('button', { name: say(lang, 'results.positive.seeOptions') }).click();
  await expect(page).toHaveURL(/\/paymentPlans$/);
}

/**
 * plansAndReview checks the plans screen for an amount and, when a plan can
 * be chosen, the review of the first one; when none can, that the screen
 * says so in words over plans priced for that amount. It answers the plan
 * reviewed, if any.
 */
async function plansAndReview(
  page: Page,
  seen: PlansSeen,
  dollars: number,
  lang: Language,
  opts: { explains?: boolean; check?: (screen: string) => Promise<void> } = {},
): Promise<Plan | undefined> {
  await expect(page.locator('h1')).toHaveText(say(lang, 'offers.plans.title'));
  if (opts.explains) {
    const drawer = page.getByRole('dialog');
    await expect(drawer).toBeVisible();
    await drawer.getByRole('button', { name: say(lang, 'offers.close') }).click();
    await expect(drawer).toHaveCount(0);
  }
  const shown = await checkPlansScreen(page, seen, dollars * 100, lang);
  await opts.check?.('plans');
  if (!eligible(shown[0]!)) {
    // No plan covers the amount: each card says so (checkPlansScreen), and so do the words above them.
    await expect(page.getByText(say(lang, 'offers.list.others'))).toBeVisible();
    // In plain words too: the amount, the least any plan finances, and whom to ask (the office's own word for its staff).
    const least = Math.min(...shown.map((p) => p.minAmountCents));
    const words = say(lang, 'offers.list.tooSmall', { amount: usd(dollars * 100, lang), least: usd(least, lang), staff: '\u0000' }).split(
      '\u0000',
    )[0]!;
    await expect(page.locator('main')).toContainText(words);
    return undefined;
  }
  const plan = shown[0]!;
  await page.getByRole('radio').first().click();
  await checkChoice(page, plan, lang);
  await page.getByRole('button', { name: say(lang, 'offers.continue') }).click();
  const notice = page.getByRole('dialog', { name: say(lang, 'modals.sameAsCash.title') });
  const review = page.getByRole('heading', { level: 1, name: say(lang, 'offers.review.title') });
  await expect(notice.or(review)).toBeVisible();
  if (await notice.isVisible()) await notice.getByRole('button', { name: say(lang, 'modals.sameAsCash.understand') }).click();
  await expect(page).toHaveURL(/\/paymentPlanReview$/);
  await checkReview(page, plan, { treatmentCents: dollars * 100, plans: await seen.plans(), lang });
  await opts.check?.('review');
  return plan;
}

test('the demo offices are read from demo/offices.yaml', () => {
  expect(OFFICES.length).toBeGreaterThanOrEqual(15);
  expect(new Set(OFFICES.map((o) => o.key)).size).toBe(OFFICES.length);
});

/**
 * The lenders with no plan for $600 (lender/sandbox/products.go): LendingClub's
 * and Proceed's loans start at $1,000. HFD has one: it asks a tenth of the
 * treatment down ($100) and finances $500, its plans' least.
 */
const NO_PLAN_AT_600 = ['lendingclub_standard', 'proceed_standard'];

/**
 * At every demo office, for the usual treatment and again for a small one:
 * the plans screen and the review of the first plan agree with the plans
 * the server answered. (The screens after the review — down payment,
 * signing — are checked lender by lender in lenders.spec.ts, at $4,500.)
 */
for (const o of OFFICES) {
  for (const dollars of [4500, 600]) {
    const none = dollars === 600 && NO_PLAN_AT_600.includes(o.first);
    const title = none ? 'no plan can be chosen, and the screen says so' : 'the plans and the review agree with the plans the server answered';
    test(`${o.name} (${o.first}) at $${dollars.toLocaleString('en-US')}: ${title}`, async ({ page }, info) => {
      const j = new Journey(page, info, `money-${dollars}-${o.key}`);
      await j.init();
      const seen = new PlansSeen(page);
      await applyFor(page, o.key, dollars, o.lang);
      const reviewed = await plansAndReview(page, seen, dollars, o.lang, { explains: EXPLAINS.includes(o.first) });
      expect(reviewed === undefined, none ? `no plan of this lender can be chosen for $${dollars}` : `a plan can be chosen for $${dollars}`).toBe(
        none,
      );
      await j.assertClean();
    });
  }
}

/** In Spanish on a phone: the offices of Synchrony and HFD (lenders.spec.ts OFFICES), the patient switching to Spanish on the form. */
const SPANISH_PHONE = [
  { lender: 'Synchrony', key: '1000200030020000', names: [] },
  // Its office's and its product's names are English words, kept as they are in Spanish.
  { lender: 'HFD', key: '1000200030016000', names: ['Bayou City Family Dentistry', 'HFD Direct Payment Plan'] },
];
for (const { lender, key, names } of SPANISH_PHONE) {
  test(`${lender}’s office in Spanish on a phone, $4,500: the plans and the review agree with the plans the server answered @phone`, async ({
    page,
  }, info) => {
    test.skip(info.project.name !== 'phone', 'at a phone’s size only');
    const j = new Journey(page, info, `money-es-${lender.toLowerCase()}`);
    await j.init();
    const seen = new PlansSeen(page);
    await applyFor(page, key, 4500, 'es', true);
    const plan = await plansAndReview(page, seen, 4500, 'es', { check: (screen) => expectSpanish(page, screen, names) });
    expect(plan, 'a plan to review').toBeDefined();
    await j.assertClean();
  });
}

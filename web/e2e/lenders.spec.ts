import { expect, test, type Page } from '@playwright/test';
import { drawSignature, fillApplication, Journey } from './helpers';
import {
  checkChoice,
  checkDownPaymentScreen,
  checkEarlyPurchaseNotice,
  checkPlansScreen,
  checkReview,
  checkSigning,
  PlansSeen,
  type Plan,
} from './money';

/*
 * Each lender's own journey, from its demo office (docs/demo.md, the demo offices):
 * the Approve case, on a tablet, through whatever screens that lender asks
 * for between accepting and signing, to /finish/completed. The walk is led by
 * the address: each screen a lender may show has one way through it here,
 * and the screens a lender must show are listed per lender, so a lender that
 * skipped its own step fails as surely as one that dead-ends. Every lender's
 * form, plans and own screens are scanned with axe; the screens all lenders
 * share, once. On the way, every money figure of the plans, review,
 * down-payment and signing screens is checked against the plans the server
 * answered the page and against each other (money.ts; issue 27).
 */

/** The treatment amount the form is given (helpers.ts VALUES). */
const TREATMENT_CENTS = 450_000;

interface Office {
  key: string;
  lender: string;
  provider: string;
  /** The screens between accepting and signing (or, for Fortiva, after signing) this lender must show, in order. */
  own: string[];
  /** The lender explains its suggested plan unasked (catalogue autoShowLearnHowDrawer). */
  explains?: boolean;
}

const OFFICES: Office[] = [
  { key: '1000200030011000', lender: 'ADS Health', provider: 'ads_standard', own: [] },
  { key: '1000200030012000', lender: 'AFF', provider: 'aff_standard', own: ['agreement'] },
  { key: '1000200030013000', lender: 'Covered Care', provider: 'covered_care_standard', own: [] },
  { key: '1000200030014000', lender: 'Fortiva', provider: 'fortiva_standard', own: ['completeAgreement'] },
  { key: '1000200030015000', lender: 'Genesis', provider: 'genesis_aspen', own: [], explains: true },
  { key: '1000200030016000', lender: 'HFD', provider: 'hfd_standard', own: ['downpayment', 'additionalContactInformation', 'loanPayment'] },
  { key: '1000200030017000', lender: 'LendingClub', provider: 'lendingclub_standard', own: [] },
  { key: '1000200030018000', lender: 'Proceed', provider: 'proceed_standard', own: [] },
  { key: '1000200030019000', lender: 'Snap', provider: 'snap_standard', own: ['addBankAccount', 'agreement'] },
  { key: '1000200030020000', lender: 'Synchrony', provider: 'synchrony_standard', own: [] },
  { key: '1000200030021000', lender: 'Vive', provider: 'vive_standard', own: [] },
];

/** The last part of a lender address: the screen's name. */
const screenOf = (page: Page) => new URL(page.url()).pathname.split('/').slice(3).join('/');

/** What a walk knows about money: the plans the server answered the page, and the plan chosen. */
interface Money {
  seen: PlansSeen;
  plans: Plan[];
  chosen?: Plan;
}

type Step = (j: Journey, o: Office, m: Money) => Promise<void>;

const click = (page: Page, name: string | RegExp) => page.getByRole('button', { name }).click();

/** tickAll ticks every box of a screen that is not ticked yet. */
async function tickAll(page: Page): Promise<void> {
  for (const box of await page.getByRole('checkbox').all()) if (!(await box.isChecked())) await box.check();
}

/** The way through each screen a lender may show, by its address. */
const STEPS: Record<string, Step> = {
  'modes/prequalify/application': async (j) => {
    await fillApplication(j.page, 'Approve');
    await j.screen('application');
    await click(j.page, 'Continue');
    await click(j.page, 'Confirm and continue');
  },
  prequalifyAgree: async (j) => {
    await j.screen('prequalify-agree', undefined, { scan: 'once' });
    await tickAll(j.page);
    await click(j.page, 'Check my options');
  },
  prequalified: async (j) => {
    await j.screen('result', 'Good news!', { scan: 'once' });
    await click(j.page, 'See payment options');
  },
  paymentPlans: async (j, o, m) => {
    await expect(j.page.getByRole('radio').first()).toBeVisible();
    const drawer = j.page.getByRole('dialog');
    if (o.explains) {
      await expect(drawer).toBeVisible();
      await j.screen('plans-explained');
      await drawer.getByRole('button', { name: 'Close' }).click();
    }
    await expect(drawer).toHaveCount(0);
    await j.screen('plans', 'Choose your payment plan');
    const shown = await checkPlansScreen(j.page, m.seen, TREATMENT_CENTS);
    m.plans = await m.seen.plans();
    m.chosen = shown[0];
    await j.page.getByRole('radio').first().click();
    await checkChoice(j.page, m.chosen!);
    await click(j.page, 'Continue');
    // A lease's early purchase option goes on once its notice is acknowledged (docs/behaviour.md, "Plans and offers").
    const notice = j.page.getByRole('dialog', { name: 'Before you choose the early purchase option' });
    await expect(notice.or(j.page.getByRole('heading', { level: 1, name: 'Review your plan' }))).toBeVisible();
    if (await notice.isVisible()) {
      await checkEarlyPurchaseNotice(notice, m.chosen!, m.plans);
      await notice.getByRole('button', { name: 'I understand, continue' }).click();
    }
  },
  paymentPlanReview: async (j, _o, m) => {
    await j.screen('review', 'Review your plan', { scan: 'once' });
    await checkReview(j.page, m.chosen!, { treatmentCents: TREATMENT_CENTS, plans: m.plans });
    await click(j.page, 'Accept offer');
  },
  addBankAccount: async (j) => {
    await j.screen('bank-account');
    await j.page.getByLabel('Routing number').fill('011000015');
    await j.page.getByLabel('Account number').fill('000123456789');
    await j.page.getByLabel('Bank name').fill('First Test Bank');
    await click(j.page, 'Continue');
  },
  paymentSelection: async (j) => {
    await j.screen('payment-selection');
    await j.page.getByLabel('My checking account').check();
    await click(j.page, /^Continue/);
  },
  downpayment: async (j, _o, m) => {
    await j.screen('down-payment');
    await checkDownPaymentScreen(j.page, m.chosen!, TREATMENT_CENTS);
    await tickAll(j.page);
    await click(j.page, 'Continue');
    // In the office the staff confirm they collected it; at home the patient promised to pay it there.
    const collected = j.page.getByRole('button', { name: /^I collected the/ });
    if (await collected.isVisible().catch(() => false)) await collected.click();
  },
  additionalContactInformation: async (j) => {
    await j.screen('additional-contact');
    await j.page.getByLabel('Their full name').fill('Rosa Díaz-Ortega');
    await j.page.getByLabel('How do you know them?').selectOption('sibling');
    await j.page.getByLabel('Their phone number').pressSequentially('3125550187');
    await click(j.page, 'Continue');
  },
  loanPayment: async (j) => {
    await j.screen('loan-payment');
    await j.page.getByLabel('A checking account').check();
    await j.page.getByLabel('Routing number').pressSequentially('011000015');
    await j.page.getByLabel('Account number').pressSequentially('000123456789');
    await j.page.getByLabel('Bank name').fill('First Test Bank');
    await click(j.page, /^Continue/);
  },
  agreement: async (j) => {
    await j.screen('agreement');
    await tickAll(j.page);
    await click(j.page, 'Continue');
  },
  completeAgreement: async (j) => {
    await j.screen('cardholder-agreement');
    await tickAll(j.page);
    await click(j.page, 'Open my account');
  },
  terms: async (j, _o, m) => {
    await j.screen('sign', 'Read and sign', { scan: 'once' });
    await checkSigning(j.page, m.chosen!);
    await tickAll(j.page);
    await drawSignature(j.page);
    await click(j.page, 'Sign and finish');
  },
  complete: async (j) => {
    await j.screen('complete', 'You’re all set', { scan: 'once' });
    await click(j.page, 'Finish');
  },
};
STEPS.preapproved = STEPS.prequalified!;
STEPS.approved = STEPS.prequalified!;

for (const o of OFFICES) {
  test(`${o.lender}: from its office, Approve, through its own screens to /finish/completed`, async ({ page }, info) => {
    const j = new Journey(page, info, `lender-${o.provider}`);
    await j.init();
    const money: Money = { seen: new PlansSeen(page), plans: [] };
    await page.goto(`/start/entity-keys/${o.key}`);
    await expect(page).toHaveURL(new RegExp(`/providers/${o.provider}/modes/prequalify/application$`));
    const seen: string[] = [];
    for (let i = 0; i < 30 && !/\/finish\/completed$/.test(page.url()); i++) {
      // A submit route (…Submit) is passed through, not a screen: it shows a skeleton while its call runs, which on a
      // loaded machine outlasts the checks below; wait for where it leads (a submit that never ends still fails here).
      await page.waitForURL((u) => !u.pathname.endsWith('Submit'), { timeout: 30_000 });
      await expect(page.locator('h1')).toBeVisible();
      await expect(page.locator('.progress')).toHaveCount(0);
      if (/\/finish\/completed$/.test(page.url())) break;
      const at = screenOf(page);
      const step = STEPS[at];
      expect(step, `no way through ${page.url()} (after ${seen.join(' → ')})`).toBeDefined();
      expect(new URL(page.url()).pathname.startsWith(`/providers/${o.provider}/`), `left ${o.lender}'s screens for ${page.url()}`).toBe(true);
      seen.push(at);
      const before = page.url();
      await step!(j, o, money);
      await page.waitForURL((u) => u.toString() !== before);
    }
    await expect(page).toHaveURL(/\/finish\/completed$/);
    expect(money.chosen, 'a plan was chosen and its money checked').toBeDefined();
    const after = seen.slice(seen.indexOf('paymentPlanReview') + 1);
    expect(
      after.filter((s) => o.own.includes(s)),
      `${o.lender}'s own screens`,
    ).toEqual(o.own);
  });
}

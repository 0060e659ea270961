import { expect, type Page } from '@playwright/test';
import { drawSignature, fillApplication, type Journey } from './helpers';
import {
  checkChoice,
  checkDownPaymentScreen,
  checkEarlyPurchaseNotice,
  checkPlansScreen,
  checkReview,
  checkSigning,
  eligible,
  PlansSeen,
  usd,
  type Plan,
} from './money';
import { say, type Language } from './spanish';

/*
 * The walk through a lender's screens, led by the address (lenders.spec.ts,
 * money.spec.ts): each screen a lender may show has one way through it here,
 * so a lender's own steps between accepting and signing (docs/behaviour.md,
 * "Signing" and "What each lender asks for") are gone through wherever they
 * come. On the way every money figure of the plans, review, down-payment and
 * signing screens is checked against the plans the server answered the page
 * and against each other (money.ts; issue 27). Every word clicked or looked
 * for is the walk's language's, from the app's own catalogues (spanish.ts say).
 */

/** The lenders that open the explanation of their suggested plan unasked (catalogue autoShowLearnHowDrawer). */
const EXPLAINS = ['genesis_aspen'];

export interface WalkOptions {
  /** The lender whose screens the walk stays on (its lender key). */
  lender: string;
  /** The treatment amount the plans are asked for. */
  treatmentCents: number;
  lang?: Language;
  /** Each screen scanned with axe and photographed (Journey.screen); without, the walk only waits for its heading. */
  shots?: boolean;
  /** Fills the application form (default: every field, helpers.ts fillApplication, with the Approve case). */
  fill?: (page: Page) => Promise<void>;
  /** Called on each screen once its own checks are done, before the patient leaves it (e.g. spanish.ts expectSpanish). */
  onScreen?: (screen: string) => Promise<void>;
}

/** Walk: a patient's way through a lender's screens, and what it learnt about money on the way. */
export class Walk {
  readonly page: Page;
  readonly lang: Language;
  /** The plans the server answered the page (from before the walk starts). */
  readonly seen: PlansSeen;
  /** Every plan the server answered, as the plans screen showed them. */
  plans: Plan[] = [];
  /** The plan chosen: none until then, nor when no plan can be chosen for the amount. */
  chosen?: Plan;
  /** The screens passed, by the last part of their address. */
  readonly screens: string[] = [];

  constructor(
    readonly j: Journey,
    readonly opts: WalkOptions,
  ) {
    this.page = j.page;
    this.lang = opts.lang ?? 'en';
    this.seen = new PlansSeen(j.page);
  }

  /** say: a message of the walk's language. */
  say(key: string, values: Record<string, string | number> = {}): string {
    return say(this.lang, key, values);
  }

  /** screen: Journey.screen when the walk takes shots; otherwise it waits for the heading. */
  async screen(name: string, heading?: string, opts: { scan?: 'always' | 'once' } = {}): Promise<void> {
    if (this.opts.shots ?? true) return this.j.screen(name, heading, opts);
    if (heading) await expect(this.page.locator('h1')).toHaveText(heading);
  }

  /** click presses a button named by a message of the walk's language (or a pattern). */
  click(name: string | RegExp): Promise<void> {
    return this.page.getByRole('button', { name }).click();
  }

  /** plan: the plan chosen, which the screens after the plans are checked against. */
  get plan(): Plan {
    expect(this.chosen, 'a plan was chosen').toBeDefined();
    return this.chosen!;
  }
}

/**
 * A screen's way through: what is checked on it when it shows (answering
 * 'end' when the walk cannot go on from it), then what the patient does to
 * leave it.
 */
interface Step {
  check?: (w: Walk) => Promise<void | 'end'>;
  go: (w: Walk) => Promise<void>;
}

/** The last part of a lender address: the screen's name. */
const screenOf = (page: Page) => new URL(page.url()).pathname.split('/').slice(3).join('/');

/** beginning: a pattern for a name that begins with a text. */
const beginning = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

/** tickAll ticks every box of a screen that is not ticked yet. */
async function tickAll(page: Page): Promise<void> {
  for (const box of await page.getByRole('checkbox').all()) if (!(await box.isChecked())) await box.check();
}

const result: Step = {
  check: (w) => w.screen('result', w.say('results.positive.title'), { scan: 'once' }),
  go: (w) => w.click(w.say('results.positive.seeOptions')),
};

/** The way through each screen a lender may show, by its address. */
const STEPS: Record<string, Step> = {
  'modes/prequalify/application': {
    go: async (w) => {
      await (w.opts.fill ?? ((page) => fillApplication(page, 'Approve')))(w.page);
      await w.screen('application');
      await w.click(w.say('common.actions.continue'));
      await w.click(w.say('application.review.confirm'));
    },
  },
  prequalifyAgree: {
    check: (w) => w.screen('prequalify-agree', w.say('application.agree.title'), { scan: 'once' }),
    go: async (w) => {
      await tickAll(w.page);
      await w.click(w.say('application.agree.button'));
    },
  },
  prequalified: result,
  preapproved: result,
  approved: result,
  paymentPlans: {
    check: async (w) => {
      const page = w.page;
      await expect(page.getByRole('radio').first()).toBeVisible();
      const drawer = page.getByRole('dialog');
      if (EXPLAINS.includes(w.opts.lender)) {
        await expect(drawer).toBeVisible();
        await w.screen('plans-explained');
        await drawer.getByRole('button', { name: w.say('offers.close') }).click();
      }
      await expect(drawer).toHaveCount(0);
      await w.screen('plans', w.say('offers.plans.title'));
      const shown = await checkPlansScreen(page, w.seen, w.opts.treatmentCents, w.lang);
      w.plans = await w.seen.plans();
      if (eligible(shown[0]!)) {
        w.chosen = shown[0];
        return;
      }
      // No plan covers the amount: each card says so (checkPlansScreen), and so do the words above them.
      await expect(page.getByText(w.say('offers.list.others'))).toBeVisible();
      // In plain words too: the amount, the least any plan finances, and whom to ask (the office's own word for its staff).
      const least = Math.min(...shown.map((p) => p.minAmountCents));
      const amount = usd(w.opts.treatmentCents, w.lang);
      const words = w.say('offers.list.tooSmall', { amount, least: usd(least, w.lang), staff: '\u0000' }).split('\u0000')[0]!;
      await expect(page.locator('main')).toContainText(words);
      return 'end';
    },
    go: async (w) => {
      const page = w.page;
      await page.getByRole('radio').first().click();
      await checkChoice(page, w.plan, w.lang);
      await w.click(w.say('offers.continue'));
      // A lease's early purchase option goes on once its notice is acknowledged (docs/behaviour.md, "Plans and offers").
      const notice = page.getByRole('dialog', { name: w.say('modals.sameAsCash.title') });
      await expect(notice.or(page.getByRole('heading', { level: 1, name: w.say('offers.review.title') }))).toBeVisible();
      if (await notice.isVisible()) {
        await checkEarlyPurchaseNotice(notice, w.plan, w.plans, w.lang);
        await notice.getByRole('button', { name: w.say('modals.sameAsCash.understand') }).click();
      }
    },
  },
  paymentPlanReview: {
    check: async (w) => {
      await w.screen('review', w.say('offers.review.title'), { scan: 'once' });
      await checkReview(w.page, w.plan, { treatmentCents: w.opts.treatmentCents, plans: w.plans, lang: w.lang });
    },
    go: (w) => w.click(w.say('offers.review.accept')),
  },
  addBankAccount: {
    check: (w) => w.screen('bank-account'),
    go: async (w) => {
      await w.page.getByLabel(w.say('payment.account.routing')).fill('011000015');
      await w.page.getByLabel(w.say('payment.account.number')).fill('000123456789');
      await w.page.getByLabel(w.say('payment.account.bank')).fill('First Test Bank');
      await w.click(w.say('payment.continue'));
    },
  },
  paymentSelection: {
    check: (w) => w.screen('payment-selection'),
    go: async (w) => {
      await w.page.getByLabel(w.say('payment.selection.checking')).check();
      await w.click(beginning(w.say('payment.continue')));
    },
  },
  downpayment: {
    check: async (w) => {
      await w.screen('down-payment');
      await checkDownPaymentScreen(w.page, w.plan, w.opts.treatmentCents, w.lang);
    },
    go: async (w) => {
      await tickAll(w.page);
      await w.click(w.say('offers.continue'));
      // In the office the staff confirm they collected it; at home the patient promised to pay it there.
      const collected = w.page.getByRole('button', {
        name: w.say('offers.downPayment.collected', { amount: usd(w.plan.downPaymentCents, w.lang) }),
      });
      if (await collected.isVisible().catch(() => false)) await collected.click();
    },
  },
  additionalContactInformation: {
    check: (w) => w.screen('additional-contact'),
    go: async (w) => {
      await w.page.getByLabel(w.say('lenderSteps.contact.name')).fill('Rosa Díaz-Ortega');
      await w.page.getByLabel(w.say('lenderSteps.contact.relationship')).selectOption('sibling');
      await w.page.getByLabel(w.say('lenderSteps.contact.phone')).pressSequentially('3125550187');
      await w.click(w.say('lenderSteps.continue'));
    },
  },
  loanPayment: {
    check: (w) => w.screen('loan-payment'),
    go: async (w) => {
      await w.page.getByLabel(w.say('payment.loan.checking')).check();
      await w.page.getByLabel(w.say('payment.account.routing')).pressSequentially('011000015');
      await w.page.getByLabel(w.say('payment.account.number')).pressSequentially('000123456789');
      await w.page.getByLabel(w.say('payment.account.bank')).fill('First Test Bank');
      await w.click(beginning(w.say('payment.continue')));
    },
  },
  agreement: {
    check: (w) => w.screen('agreement'),
    go: async (w) => {
      await tickAll(w.page);
      await w.click(w.say('signing.continue'));
    },
  },
  // The notice for patients of an office in California (Golden Gate Dental's AFF): acknowledged before signing.
  checkCalifornia: {
    check: (w) => w.screen('california', w.say('lenderSteps.california.title')),
    go: async (w) => {
      await tickAll(w.page);
      await w.click(w.say('lenderSteps.continue'));
    },
  },
  completeAgreement: {
    check: (w) => w.screen('cardholder-agreement'),
    go: async (w) => {
      await tickAll(w.page);
      await w.click(w.say('signing.agreement.openAccount'));
    },
  },
  terms: {
    check: async (w) => {
      await w.screen('sign', w.say('signing.sign.title'), { scan: 'once' });
      await checkSigning(w.page, w.plan, w.lang);
    },
    go: async (w) => {
      await tickAll(w.page);
      await drawSignature(w.page);
      await w.click(w.say('signing.sign.submit'));
    },
  },
  complete: {
    check: (w) => w.screen('complete', w.say('finish.complete.title'), { scan: 'once' }),
    go: (w) => w.click(w.say('finish.complete.finish')),
  },
};

/** Where a walk may end: on the signing screen (checked, not signed), or once the journey is finished. */
export type Destination = 'terms' | 'finish/completed';

/**
 * walk follows the address from the screen the page is on to `to`, through
 * whatever screens the lender shows, each by its way in STEPS; it fails on a
 * screen it has no way through or that is not the lender's. On the signing
 * screen (`to` 'terms') it checks the screen and stops there. It stops early
 * only on the plans screen when no plan can be chosen for the amount (then
 * `w.chosen` stays undefined).
 */
export async function walk(w: Walk, to: Destination): Promise<void> {
  const page = w.page;
  const done = () => new URL(page.url()).pathname.endsWith(`/${to}`);
  for (let i = 0; i < 30; i++) {
    // A submit route (…Submit) is passed through, not a screen: it shows a skeleton while its call runs, which on a
    // loaded machine outlasts the checks below; wait for where it leads (a submit that never ends still fails here).
    await page.waitForURL((u) => !u.pathname.endsWith('Submit'), { timeout: 30_000 });
    await expect(page.locator('h1')).toBeVisible();
    await expect(page.locator('.progress')).toHaveCount(0);
    if (to === 'finish/completed' && done()) return;
    const at = screenOf(page);
    const step = STEPS[at];
    expect(step, `no way through ${page.url()} (after ${w.screens.join(' → ')})`).toBeDefined();
    expect(new URL(page.url()).pathname.startsWith(`/providers/${w.opts.lender}/`), `left ${w.opts.lender}'s screens for ${page.url()}`).toBe(true);
    w.screens.push(at);
    const end = await step!.check?.(w);
    await w.opts.onScreen?.(at);
    if (end === 'end' || (to === 'terms' && done())) return;
    const before = page.url();
    await step!.go(w);
    await page.waitForURL((u) => u.toString() !== before);
  }
  await expect(page, `the walk reaches ${to} within 30 screens`).toHaveURL(new RegExp(`/${to}$`));
}

import { expect, type Locator, type Page } from '@playwright/test';
import { say, type Language } from './spanish';

/*
 * The money checks of the browser tests (issue 27; docs/money.md): the plans
 * the server answered, read from the page's own calls, and every money
 * figure of the plans, review, down-payment and signing screens checked
 * against them and against each other. The plans themselves must add up
 * (api/openapi.yaml, PaymentPlan): the schedule to its total of payments,
 * that and the down payment to the total cost. Words come from the app's
 * catalogues (spanish.ts say), so the checks hold in English and Spanish.
 */

export interface Plan {
  providerKey: string;
  providerPlanCode: string;
  typeId: string;
  productType?: string;
  durationMonths: number;
  paymentCount: number;
  monthlyAmountCents: number;
  finalPaymentCents: number;
  totalOfPaymentsCents: number;
  financeChargeCents: number;
  totalCostCents: number;
  amountFinancedCents: number;
  downPaymentCents: number;
  minAmountCents: number;
  maxAmountCents: number;
  apr: number;
}

const localeOf = (lang: Language) => (lang === 'es' ? 'es-US' : 'en-US');

/** usd shows cents as the app does (web/src/lib/money.ts formatCents: the same Intl options, es-US in Spanish). */
export function usd(cents: number, lang: Language = 'en'): string {
  return new Intl.NumberFormat(localeOf(lang), { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(cents / 100);
}

/** apr shows a rate as the app does (web/src/lib/money.ts formatApr). */
const apr = (rate: number, lang: Language) =>
  `${new Intl.NumberFormat(localeOf(lang), { minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(rate)}%`;

export const lease = (p: Plan) => p.productType === 'lease';
const deferred = (p: Plan) => !lease(p) && p.typeId === 'deferred_interest';
/** A lease's cost of ownership: what its payments cost beyond the cash price. */
const leaseCost = (p: Plan) => p.totalOfPaymentsCents - p.amountFinancedCents;

/** eligible: a plan can be chosen when what it finances is more than nothing and within its own bounds (docs/behaviour.md, "Plans and offers"). */
export const eligible = (p: Plan) =>
  p.amountFinancedCents > 0 && p.amountFinancedCents >= p.minAmountCents && (!p.maxAmountCents || p.amountFinancedCents <= p.maxAmountCents);

/** paymentsLine: the plan's payments as every screen says them; in English in the test's own words, in Spanish from the catalogue. */
export function paymentsLine(p: Plan, lang: Language = 'en'): string {
  const [count, amount, final] =
    p.paymentCount <= 1
      ? [p.paymentCount, p.finalPaymentCents]
      : p.finalPaymentCents === p.monthlyAmountCents
        ? [p.paymentCount, p.monthlyAmountCents]
        : [p.paymentCount - 1, p.monthlyAmountCents, p.finalPaymentCents];
  if (lang !== 'en') {
    const values = { count: count!, amount: usd(amount!, lang), final: final === undefined ? '' : usd(final, lang) };
    return say(lang, final === undefined ? 'offers.card.payments' : 'offers.card.paymentsAndFinal', values);
  }
  const many = `${count} payment${count === 1 ? '' : 's'} of ${usd(amount!)}`;
  return final === undefined ? many : `${many} and a final payment of ${usd(final)}`;
}

/** addsUp: the identities every plan shown must satisfy. */
export function addsUp(p: Plan): void {
  const at = `${p.providerKey} ${p.providerPlanCode}`;
  expect(p.paymentCount, `${at}: the server states its schedule (paymentCount 0: the money engine has not landed)`).toBeGreaterThan(0);
  expect(p.monthlyAmountCents * (p.paymentCount - 1) + p.finalPaymentCents, `${at}: schedule`).toBe(p.totalOfPaymentsCents);
  expect(p.downPaymentCents + p.totalOfPaymentsCents, `${at}: total cost`).toBe(p.totalCostCents);
  expect(p.financeChargeCents, `${at}: finance charge`).toBe(lease(p) ? 0 : p.totalOfPaymentsCents - p.amountFinancedCents);
  expect(p.paymentCount, `${at}: no more payments than its term`).toBeLessThanOrEqual(p.durationMonths);
}

/** The lender's documents and anything else a screen shows besides its own money (another plan to change to). */
const NOT_OURS = '.doc, [role="region"], .change-plan';

/** moneyIn: every "$1,234.56" in a part of a screen, in its own words (the lender's documents aside). */
export async function moneyIn(where: Locator, skip = NOT_OURS): Promise<string[]> {
  const text = await where.evaluate((m, s) => {
    const copy = m.cloneNode(true) as HTMLElement;
    copy.querySelectorAll(s).forEach((d) => d.remove());
    return copy.textContent ?? '';
  }, skip);
  return moneyOf(text);
}

/** moneyOf: every "$1,234.56" in a text. */
const moneyOf = (text: string) => text.match(/\$[\d,]+\.\d{2}/g) ?? [];

/** moneyOn: every figure of a screen's main part. */
export const moneyOn = (page: Page) => moneyIn(page.locator('main'));

/** figuresOf: every amount a plan states, as shown. */
export const figuresOf = (p: Plan, lang: Language = 'en') =>
  [
    p.monthlyAmountCents,
    p.finalPaymentCents,
    p.totalOfPaymentsCents,
    p.financeChargeCents,
    p.totalCostCents,
    p.amountFinancedCents,
    p.downPaymentCents,
    ...(lease(p) ? [leaseCost(p)] : []),
  ].map((c) => usd(c, lang));

/** The lender's rule for sizing an offer with a down payment (web/src/features/offers/plans.ts lenderSizingRows): its limit and the rest. */
function sizing(treatmentCents: number): [number, number] {
  const limit = Math.min(200_000, Math.floor(treatmentCents / 2));
  return [limit, Math.max(0, treatmentCents - limit)];
}

/** tableFigures: the figures of a plan's down-payment table besides the plan's own: the treatment, what is not financed, and the sizing rule's. */
const tableFigures = (p: Plan, treatmentCents: number, lang: Language) =>
  [
    treatmentCents,
    treatmentCents - p.downPaymentCents - p.amountFinancedCents,
    p.downPaymentCents + p.amountFinancedCents,
    ...sizing(treatmentCents),
  ].map((c) => usd(c, lang));

/** expectOnly fails when a part of a screen shows a figure that is not among those allowed. */
async function expectOnly(where: Locator, allowed: string[], what: string): Promise<void> {
  const shown = await moneyIn(where);
  for (const f of shown) expect(allowed, `${what} shows ${f}`).toContain(f);
}

/**
 * PlansSeen records the plans the server answered the page (every POST
 * …/payment/plans), the latest answer of each lender, as the plans screen
 * shows them.
 */
export class PlansSeen {
  private answers = new Map<string, { amountCents: number; plans: Promise<Plan[]> }>();

  constructor(page: Page) {
    page.on('response', (r) => {
      const m = /\/providers\/([^/]+)\/payment\/plans$/.exec(new URL(r.url()).pathname);
      if (!m || r.request().method() !== 'POST' || !r.ok()) return;
      const key = m[1]!;
      const plans = r.json().then((b: { paymentPlans: Plan[] }) => b.paymentPlans.map((p) => ({ ...p, providerKey: p.providerKey || key })));
      plans.catch(() => undefined);
      this.answers.set(key, { amountCents: (r.request().postDataJSON() as { amountCents: number }).amountCents, plans });
    });
  }

  /** plans: the latest answer of every lender that was asked. */
  async plans(): Promise<Plan[]> {
    await expect.poll(() => this.answers.size, { message: 'the page asked the server for plans' }).toBeGreaterThan(0);
    return (await Promise.all([...this.answers.values()].map((a) => a.plans))).flat();
  }

  /** amounts: what each lender's latest plans were asked for. */
  amounts(): number[] {
    return [...this.answers.values()].map((a) => a.amountCents);
  }
}

/** A card as the screen shows it: its id (the plan's lender and code) and its words. */
interface Card {
  id: string;
  text: string;
}

/** cardsIn: every plan card in a part of a screen, read at once. */
const cardsIn = (where: Locator): Promise<Card[]> =>
  where.locator('[role="radio"]').evaluateAll((els) => els.map((e) => ({ id: e.id, text: (e.textContent ?? '').replace(/\s+/g, ' ') })));

/** planOf: the plan of a card. */
function planOf(card: Card, plans: Plan[]): Plan {
  const plan = plans.find((p) => card.id === `plan-${p.providerKey}-${p.providerPlanCode}`);
  expect(plan, `the card ${card.id} is a plan the server answered`).toBeDefined();
  return plan!;
}

/** deferredPaysOff: how a promotion's suggested payment pays it off (web/src/features/offers/PlanCard.tsx). */
function paysOff(p: Plan, lang: Language): string {
  const monthly = usd(p.monthlyAmountCents, lang);
  return p.paymentCount < p.durationMonths
    ? say(lang, 'offers.card.paysOffIn', { count: p.paymentCount, monthly })
    : say(lang, 'offers.card.paysOffInTime', { monthly });
}

/** checkCard: a plan's card says its payment, payments, total and every other figure as the plan states it, and no other. */
export function checkCard(card: Card, p: Plan, lang: Language = 'en'): void {
  addsUp(p);
  const c = (key: string, values: Record<string, string | number>) => say(lang, `offers.card.${key}`, values);
  const $ = (cents: number) => usd(cents, lang);
  const down = p.downPaymentCents > 0;
  const says = [$(p.monthlyAmountCents), paymentsLine(p, lang)];
  if (lease(p)) {
    says.push(c('cashPrice', { amount: $(p.amountFinancedCents) }), c('totalOfPayments', { amount: $(p.totalOfPaymentsCents) }));
    says.push(c('costOfOwnership', { amount: $(leaseCost(p)) }));
    if (down) says.push(c('initialPayment', { amount: $(p.downPaymentCents) }));
    if (down) says.push(c('totalWithInitial', { amount: $(p.totalCostCents), down: $(p.downPaymentCents) }));
  } else {
    says.push(
      down ? c('totalWithDown', { amount: $(p.totalCostCents), down: $(p.downPaymentCents) }) : c('totalCost', { amount: $(p.totalCostCents) }),
    );
    if (down) says.push(c('dueToday', { amount: $(p.downPaymentCents) }), c('amountFinanced', { amount: $(p.amountFinancedCents) }));
    if (!deferred(p)) says.push(c('apr', { apr: apr(p.apr, lang) }));
    else says.push(c('deferredExample', { count: p.durationMonths, financed: $(p.amountFinancedCents), apr: apr(p.apr, lang) }), paysOff(p, lang));
    // A lender that shows a loan's full cost on its cards (showPaymentPlanDetails).
    if (card.text.includes(c('financeCharge', { amount: '' }).trim())) {
      says.push(c('financeCharge', { amount: $(p.financeChargeCents) }), c('totalOfPayments', { amount: $(p.totalOfPaymentsCents) }));
    }
  }
  for (const s of says) expect(card.text, `the card of ${p.providerPlanCode}`).toContain(s);
  const allowed = figuresOf(p, lang);
  for (const f of moneyOf(card.text)) expect(allowed, `the card of ${p.providerPlanCode} shows ${f}`).toContain(f);
  // A plan that cannot be chosen for this amount says so; one that can does not.
  expect(card.text.includes(say(lang, 'offers.card.notCovered')), `${p.providerPlanCode} says whether it covers the amount`).toBe(!eligible(p));
}

/**
 * checkPlansScreen: the heading says the amount the plans were asked for;
 * every plan the server answered adds up and was priced for that amount;
 * every card is one of them and agrees with it. It answers the plans of the
 * cards, in the screen's order.
 */
export async function checkPlansScreen(page: Page, seen: PlansSeen, amountCents: number, lang: Language = 'en'): Promise<Plan[]> {
  await expect(page.getByRole('radio').first()).toBeVisible();
  await expect(page.getByRole('heading', { level: 2, name: say(lang, 'offers.plans.plansFor', { amount: usd(amountCents, lang) }) })).toBeVisible();
  const plans = await seen.plans();
  expect(seen.amounts(), 'the plans were asked for the amount the heading says').toEqual(seen.amounts().map(() => amountCents));
  for (const p of plans) {
    addsUp(p);
    expect(p.downPaymentCents + p.amountFinancedCents, `${p.providerPlanCode} is priced for the amount asked`).toBe(amountCents);
  }
  const shown: Plan[] = [];
  for (const card of await cardsIn(page.locator('main .plans'))) {
    const p = planOf(card, plans);
    checkCard(card, p, lang);
    shown.push(p);
  }
  expect(shown.length, 'plans shown').toBeGreaterThan(0);
  // The plans that can be chosen come first; those that cannot follow, after words saying they do not match.
  const first = shown.findIndex((p) => !eligible(p));
  if (first >= 0)
    expect(
      shown.slice(first).every((p) => !eligible(p)),
      'the plans that cannot be chosen come last',
    ).toBe(true);
  await expect(page.getByText(say(lang, 'offers.list.others'))).toHaveCount(first >= 0 ? 1 : 0);
  // With a down payment, the plans screen's table adds up to the amount financed.
  const table = page.getByRole('table', { name: say(lang, 'offers.downPaymentTable.label') });
  if ((await table.count()) > 0) await expectTableAddsUp(table, lang);
  return shown;
}

/** checkChoice: once a plan is chosen, the line under the plans says its payments (and what is due today). */
export async function checkChoice(page: Page, p: Plan, lang: Language = 'en'): Promise<void> {
  const line = page.locator('main .lead').last();
  await expect(line).toContainText(paymentsLine(p, lang));
  await expectOnly(line, figuresOf(p, lang), 'the chosen plan’s line');
  if (p.downPaymentCents > 0) await expect(line).toContainText(usd(p.downPaymentCents, lang));
}

/** checkEarlyPurchaseNotice: the lease's early purchase notice states the option's figures and the full lease's, and no other. */
export async function checkEarlyPurchaseNotice(notice: Locator, p: Plan, plans: Plan[], lang: Language = 'en'): Promise<void> {
  await expect(notice).toContainText(paymentsLine(p, lang));
  await expect(notice).toContainText(usd(p.amountFinancedCents, lang));
  const leases = plans.filter((l) => l !== p && lease(l) && l.providerKey === p.providerKey && l.amountFinancedCents === p.amountFinancedCents);
  await expectOnly(notice, [...figuresOf(p, lang), ...leases.flatMap((l) => figuresOf(l, lang))], 'the early purchase notice');
}

/** reviewOf: the review's figures, each label with its value. */
async function reviewOf(page: Page): Promise<Record<string, string>> {
  const shown = await page.locator('.review dt').evaluateAll((dts) => dts.map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]));
  return Object.fromEntries(shown) as Record<string, string>;
}

/** planRows: the chosen plan's figures as the review lists them (web/src/components/PlanFigures.tsx), each label with its value. */
function planRows(p: Plan, lang: Language): [string, string][] {
  const r = (key: string, values: Record<string, string | number> = {}) => say(lang, `offers.review.${key}`, values);
  const $ = (cents: number) => usd(cents, lang);
  const down = p.downPaymentCents > 0;
  return [
    [r(deferred(p) ? 'suggestedMonthly' : 'monthly'), $(p.monthlyAmountCents)],
    ...(down ? [[r(lease(p) ? 'initialPayment' : 'dueToday'), $(p.downPaymentCents)] as [string, string]] : []),
    [r(lease(p) ? 'cashPrice' : 'amountFinanced'), $(p.amountFinancedCents)],
    [r(deferred(p) ? 'suggestedPayments' : 'payments'), paymentsLine(p, lang)],
    ...(lease(p) ? [] : [[r('financeCharge'), $(p.financeChargeCents)] as [string, string]]),
    [r('totalOfPayments'), $(p.totalOfPaymentsCents)],
    ...(lease(p) ? [[r('costOfOwnership'), $(leaseCost(p))] as [string, string]] : []),
    ...(lease(p) && !down
      ? []
      : [
          [down ? r(lease(p) ? 'totalWithInitial' : 'totalWithDown', { down: $(p.downPaymentCents) }) : r('totalCost'), $(p.totalCostCents)] as [
            string,
            string,
          ],
        ]),
  ];
}

/**
 * checkReview: the review states every figure of the chosen plan, each under
 * its label; a down payment's table adds up; and nothing else on the screen
 * is money but the plan's, its table's and the lender's sizing rule's. A
 * lender that lets the plan be changed there shows the other plans as cards,
 * each checked against its plan.
 */
export async function checkReview(page: Page, p: Plan, opts: { treatmentCents: number; plans: Plan[]; lang?: Language }): Promise<void> {
  const lang = opts.lang ?? 'en';
  const r = (key: string, values: Record<string, string | number> = {}) => say(lang, `offers.review.${key}`, values);
  const $ = (cents: number) => usd(cents, lang);
  const down = p.downPaymentCents > 0;
  await expect(page.locator('h1')).toHaveText(r('title'));
  const want = planRows(p, lang);
  const review = await reviewOf(page);
  for (const [label, value] of want) expect(review[label], `review: ${label}`).toBe(value);
  if (deferred(p)) {
    await expect(page.locator('main')).toContainText(
      r('deferredBody', { count: p.durationMonths, amount: $(p.amountFinancedCents), apr: apr(p.apr, lang) }),
    );
    await expect(page.locator('main')).toContainText(paysOff(p, lang));
  }
  const table = page.getByRole('table', { name: say(lang, 'offers.downPaymentTable.label') });
  await expect(table).toHaveCount(down && !lease(p) ? 1 : 0);
  if (down && !lease(p)) await checkDownPaymentTable(table, p, opts.treatmentCents, lang);
  await expectOnly(page.locator('main'), [...figuresOf(p, lang), ...tableFigures(p, opts.treatmentCents, lang)], 'the review');
  for (const card of await cardsIn(page.locator('main .change-plan'))) checkCard(card, planOf(card, opts.plans), lang);
}

/** cents reads "$1,234.56" (or "−$1,234.56") back into cents. */
const cents = (text: string) => Number(text.replace(/[^\d]/g, ''));

/** rowsOf: a table's rows, each its label and its value. */
const rowsOf = (table: Locator) =>
  table.locator('tr').evaluateAll((trs) => trs.map((tr) => [tr.querySelector('th')?.textContent ?? '', tr.querySelector('td')?.textContent ?? '']));

/** expectTableAddsUp: a down-payment table's first amount, less each deduction, is its amount financed. */
async function expectTableAddsUp(table: Locator, lang: Language): Promise<void> {
  const rows = await rowsOf(table);
  const financed = rows.findIndex(([label]) => label === say(lang, 'offers.downPaymentTable.financed'));
  expect(financed, 'the table has an amount financed').toBeGreaterThan(0);
  const less = rows.slice(1, financed).map(([label, value]) => {
    expect(value, `${label} is taken off`).toMatch(/^\u2212\$/);
    return cents(value!);
  });
  expect(cents(rows[0]![1]!) - less.reduce((a, b) => a + b, 0), 'the table adds up to its amount financed').toBe(cents(rows[financed]![1]!));
}

/**
 * checkDownPaymentTable: the down-payment table of a plan (docs/decisions.md,
 * "Down-payment table"): the treatment less the down payment (and what is
 * not financed) is the plan's amount financed, then the plan's payments and
 * everything the patient pays.
 */
export async function checkDownPaymentTable(table: Locator, p: Plan, treatmentCents: number, lang: Language = 'en'): Promise<void> {
  const d = (key: string, values: Record<string, string | number> = {}) => say(lang, `offers.downPaymentTable.${key}`, values);
  const $ = (c: number) => usd(c, lang);
  const other = treatmentCents - p.downPaymentCents - p.amountFinancedCents;
  const top =
    other >= 0
      ? [[d('treatment'), $(treatmentCents)], ...(other > 0 ? [[d('notFinanced'), `\u2212${$(other)}`]] : [])]
      : [[d('asked'), $(p.downPaymentCents + p.amountFinancedCents)]];
  expect(await rowsOf(table)).toEqual([
    ...top,
    [d('dueToday'), `\u2212${$(p.downPaymentCents)}`],
    [d('financed'), $(p.amountFinancedCents)],
    [d('payments'), paymentsLine(p, lang)],
    [d('total', { count: p.paymentCount }), $(p.totalCostCents)],
  ]);
  await expectTableAddsUp(table, lang);
}

/** checkDownPaymentScreen: the down-payment screen's table is the chosen plan's, its words name the plan's down payment, and it shows no other money. */
export async function checkDownPaymentScreen(page: Page, p: Plan, treatmentCents: number, lang: Language = 'en'): Promise<void> {
  expect(p.downPaymentCents, 'a plan with a down payment').toBeGreaterThan(0);
  await checkDownPaymentTable(page.getByRole('table', { name: say(lang, 'offers.downPaymentTable.label') }), p, treatmentCents, lang);
  // In the office or at home, the screen says how the plan's down payment is paid.
  const how = ['inOffice', 'atHome'].map((k) => say(lang, `offers.downPayment.${k}`, { amount: usd(p.downPaymentCents, lang) }));
  const text = (await page.locator('main').textContent()) ?? '';
  expect(
    how.some((h) => text.includes(h)),
    `the screen says how the ${usd(p.downPaymentCents, lang)} down payment is paid`,
  ).toBe(true);
  await expectOnly(page.locator('main'), [...figuresOf(p, lang), ...tableFigures(p, treatmentCents, lang)], 'the down-payment screen');
}

/**
 * checkSigning: the signing screen lists the chosen plan's figures as the
 * review did, and every other figure it shows in its own words (the
 * lender's documents aside) is one of the plan's.
 */
export async function checkSigning(page: Page, p: Plan, lang: Language = 'en'): Promise<void> {
  const summary = page.getByRole('region', { name: say(lang, 'signing.sign.planTitle') });
  await expect(summary).toHaveCount(1);
  const shown = await reviewOf(page);
  for (const [label, value] of planRows(p, lang)) expect(shown[label], `signing: ${label}`).toBe(value);
  await expectOnly(page.locator('main'), figuresOf(p, lang), 'the signing screen');
}

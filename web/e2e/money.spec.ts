import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fillRequired, Journey } from './helpers';
import { LENDER_OFFICES } from './offices';
import { expectSpanish, type Language } from './spanish';
import { Walk, walk } from './walk';

/*
 * Money that adds up (issue 27; docs/behaviour.md, "Plans and offers";
 * docs/money.md): the Approve case applies, and every amount of money on the
 * plans, review, down-payment and signing screens is checked against the
 * plans the server answered and against each other (money.ts), for every
 * lender and language of the demo offices at $4,500 and again at $600.
 * Here: each at $600, and at $4,500 those lenders.spec.ts does not walk
 * (offices.ts; it walks one office per lender at $4,500 to the end, with
 * the same checks), through
 * whatever screens its lender shows between accepting and signing, to the
 * signing screen (not signed); and two offices in Spanish on a phone, the
 * same way. Both specs walk the screens with walk.ts.
 */

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

/**
 * start opens an office's link, which carries no amount (so the form asks
 * it), in the office's language; with `switchTo`, the patient first switches
 * the form to that language.
 */
async function start(page: Page, key: string, lang: Language, switchTo = false): Promise<void> {
  await page.goto(`/start/entity-keys/${key}`);
  await expect(page).toHaveURL(/\/modes\/prequalify\/application$/);
  if (switchTo) await page.getByRole('button', { name: lang === 'es' ? 'Español' : 'English' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
}

/** fillFor fills what the form asks for an amount, as fast as it can be filled: the tests here are about what comes after it. */
const fillFor = (dollars: number) => async (page: Page) => {
  // The amount first: fillRequired leaves a field already filled as it is.
  await page.locator('#primary-purchaseAmountCents').fill(String(dollars));
  await fillRequired(page, 'Approve', 'primary', 'fill');
  // A mobile or a home phone: one of the two is asked for.
  await page.locator('#primary-mobilePhone').fill('6195550134');
};

/**
 * moneyWalk: a walk that checks money, not looks: the screens are the
 * lenders' own, scanned with axe and photographed in lenders.spec.ts.
 */
const moneyWalk = (j: Journey, lenderKey: string, dollars: number, lang: Language, onScreen?: (screen: string) => Promise<void>) =>
  new Walk(j, { lender: lenderKey, treatmentCents: dollars * 100, lang, shots: false, fill: fillFor(dollars), onScreen });

test('the demo offices are read from demo/offices.yaml', () => {
  expect(OFFICES.length).toBeGreaterThanOrEqual(15);
  expect(new Set(OFFICES.map((o) => o.key)).size).toBe(OFFICES.length);
});

/** The offices lenders.spec.ts walks at $4,500 to the end, with every money check of this spec. */
const WALKED_WHOLE = new Set(LENDER_OFFICES.map((o) => o.key));

test('every demo office is walked at $4,500: lenders.spec.ts walks each of its offices, with their first lender', () => {
  for (const l of LENDER_OFFICES) expect(OFFICES.find((o) => o.key === l.key)?.first, `office ${l.key}`).toBe(l.lenderKey);
});

/**
 * The plans and their money depend on the lender, the amount and the
 * language, never on the office's state (lender/sandbox/plans.go): one
 * office for each first lender and language is walked at each amount, the
 * office lenders.spec.ts walks first, and an amount it walks already
 * (every lender at $4,500 in English) is not walked again.
 */
const sameMoney = (o: DemoOffice) => `${o.first}|${o.lang}`;
const byMoney = new Map<string, DemoOffice>();
for (const o of [...OFFICES.filter((o) => WALKED_WHOLE.has(o.key)), ...OFFICES]) if (!byMoney.has(sameMoney(o))) byMoney.set(sameMoney(o), o);
const WALKED = [...byMoney.values()];

/**
 * The lenders with no plan for $600 (lender/sandbox/products.go): LendingClub's
 * and Proceed's loans start at $1,000. HFD has one: it asks a tenth of the
 * treatment down ($100) and finances $500, its plans' least.
 */
const NO_PLAN_AT_600 = ['lendingclub_standard', 'proceed_standard'];

/**
 * At every demo office, for the usual treatment and again for a small one:
 * the plans screen, the review of the first plan, the lender's down payment
 * if it asks one, and the signing screen agree with the plans the server
 * answered. Where no plan can be chosen, the plans screen says so.
 */
for (const o of WALKED) {
  for (const dollars of WALKED_WHOLE.has(o.key) ? [600] : [4500, 600]) {
    const none = dollars === 600 && NO_PLAN_AT_600.includes(o.first);
    const title = none
      ? 'no plan can be chosen, and the screen says so'
      : 'the plans, review, down-payment and signing screens agree with the plans the server answered';
    test(`${o.name} (${o.first}) at $${dollars.toLocaleString('en-US')}: ${title}`, async ({ page }, info) => {
      const j = new Journey(page, info, `money-${dollars}-${o.key}`);
      await j.init();
      const w = moneyWalk(j, o.first, dollars, o.lang);
      await start(page, o.key, o.lang);
      await walk(w, 'terms');
      expect(w.chosen === undefined, none ? `no plan of this lender can be chosen for $${dollars}` : `a plan can be chosen for $${dollars}`).toBe(
        none,
      );
      if (!none)
        expect(w.screens, 'the walk checked the review and the signing screen').toEqual(expect.arrayContaining(['paymentPlanReview', 'terms']));
      await j.assertClean();
    });
  }
}

/** In Spanish on a phone: the offices of Synchrony and HFD (lenders.spec.ts OFFICES), the patient switching to Spanish on the form. */
const SPANISH_PHONE = [
  { lender: 'Synchrony', key: '1000200030020000', lenderKey: 'synchrony_standard', names: [] },
  // Its office's and its product's names are English words, kept as they are in Spanish.
  { lender: 'HFD', key: '1000200030016000', lenderKey: 'hfd_standard', names: ['Bayou City Family Dentistry', 'HFD Direct Payment Plan'] },
];
for (const { lender, key, lenderKey, names } of SPANISH_PHONE) {
  test(`${lender}’s office in Spanish on a phone, $4,500: every screen to signing is in Spanish, and its money agrees with the plans the server answered @phone-only`, async ({
    page,
  }, info) => {
    const j = new Journey(page, info, `money-es-${lender.toLowerCase()}`);
    await j.init();
    const w = moneyWalk(j, lenderKey, 4500, 'es', (screen) => expectSpanish(page, screen, names));
    await start(page, key, 'es', true);
    await walk(w, 'terms');
    expect(w.chosen, 'a plan to review').toBeDefined();
    expect(w.screens, 'the walk checked the review and the signing screen').toEqual(expect.arrayContaining(['paymentPlanReview', 'terms']));
    await j.assertClean();
  });
}

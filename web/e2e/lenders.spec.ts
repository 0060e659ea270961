import { expect, test } from '@playwright/test';
import { Journey } from './helpers';
import { LENDER_OFFICES as OFFICES } from './offices';
import { Walk, walk } from './walk';

/*
 * Each lender's own journey, from its demo office (docs/demo.md, the demo offices):
 * the Approve case, on a tablet, through whatever screens that lender asks
 * for between accepting and signing, to /finish/completed. The walk is led by
 * the address: each screen a lender may show has one way through it (walk.ts,
 * shared with money.spec.ts), and the screens a lender must show are listed
 * per lender here, so a lender that skipped its own step fails as surely as
 * one that dead-ends. Every lender's form, plans and own screens are scanned
 * with axe; the screens all lenders share, once. On the way, every money
 * figure of the plans, review, down-payment and signing screens is checked
 * against the plans the server answered the page and against each other
 * (money.ts; issue 27).
 */

/** The treatment amount the form is given (helpers.ts VALUES). */
const TREATMENT_CENTS = 450_000;

for (const o of OFFICES) {
  test(`${o.lender}: from its office, Approve, through its own screens to /finish/completed`, async ({ page }, info) => {
    const j = new Journey(page, info, `lender-${o.lenderKey}`);
    await j.init();
    const w = new Walk(j, { lender: o.lenderKey, treatmentCents: TREATMENT_CENTS });
    await page.goto(`/start/entity-keys/${o.key}`);
    await expect(page).toHaveURL(new RegExp(`/providers/${o.lenderKey}/modes/prequalify/application$`));
    await walk(w, 'finish/completed');
    await expect(page).toHaveURL(/\/finish\/completed$/);
    expect(w.chosen, 'a plan was chosen and its money checked').toBeDefined();
    const after = w.screens.slice(w.screens.indexOf('paymentPlanReview') + 1);
    expect(
      after.filter((s) => o.own.includes(s)),
      `${o.lender}'s own screens`,
    ).toEqual(o.own);
  });
}

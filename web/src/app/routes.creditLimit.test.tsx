import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AccountTerms, CreditLimitChangeResponse, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { DEMO_LENDERS, lender } from '@/test/catalogue';
import { json, routes as serve, type Call } from '@/test/fetch';
import { decision, fixedRatePlan } from '@/test/fixtures';
import { canAskForHigherLimit, incomeProblem, limitProblem, suggestedLimitCents } from '@/features/results/api/creditLimit';
import { openApp } from './testing';

/*
 * A credit-limit change (docs/behaviour.md, "Credit-limit change") through
 * the real routes against a mocked API: from the existing-account screen to
 * the lender's answer, and on to the plans or the account as it was.
 */

const P = 'synchrony_standard';
const at = (rest: string) => `/providers/${P}/${rest}`;

const terms: AccountTerms = {
  providerKey: P,
  creditLimitCents: 100_000,
  availableCreditCents: 100_000,
  purchaseAmountCents: 450_000,
  maxLimitCents: 2_500_000,
  document: {
    id: 'synchrony-account-terms',
    version: '2',
    title: 'Account terms',
    contentType: 'text/html',
    content: '<p>When you ask for a higher limit, Synchrony looks at your yearly income and may check your credit report.</p>',
    language: 'en',
    sha256: 'sha',
  },
};

const answer = (
  responseCode: CreditLimitChangeResponse['responseCode'],
  over: Partial<CreditLimitChangeResponse> = {},
): CreditLimitChangeResponse => ({
  providerKey: P,
  responseCode,
  creditLimitCents: 100_000,
  availableCreditCents: 100_000,
  purchaseAmountCents: 450_000,
  coversPurchase: false,
  ...over,
});

function server(change: Response | Response[], extra: Record<string, Response[]> = {}): Call[] {
  return serve({
    [`/providers/${P}/account/terms`]: [json(terms)],
    [`/providers/${P}/account/change-credit-limit`]: Array.isArray(change) ? change : [change],
    [`/providers/${P}/payment/plans`]: [json({ paymentPlans: [fixedRatePlan(P)] })],
    '/locations/current': [json({ name: 'Bright Smile Dental', state: 'CA', groupId: 'g', waterfall: [] })],
    '/flow/finish/completed': [json({})],
    '/log': [new Response(null, { status: 204 })],
    ...extra,
  });
}

const posts = (calls: Call[]) => calls.filter((c) => c.method === 'POST' && c.path.endsWith('/change-credit-limit'));

/** The existing-account screen, then "Ask for a higher credit limit", then Continue to the form. */
async function toIncome() {
  const router = openApp(at('existingAccount'));
  expect(await screen.findByRole('heading', { level: 1, name: 'You already have an account' })).toBeTruthy();
  expect(screen.getByText(/It has \$1,000\.00 of credit available, and your treatment costs \$4,500\.00\./)).toBeTruthy();
  await userEvent.click(screen.getByRole('button', { name: 'Ask for a higher credit limit' }));

  expect(await screen.findByRole('heading', { level: 1, name: 'Ask for a higher credit limit' })).toBeTruthy();
  expect(router.state.location.pathname).toBe(at('credit_limit_change/start'));
  expect(await screen.findByText('$4,500.00')).toBeTruthy();
  expect(screen.getByRole('region', { name: 'Account terms' }).textContent).toContain('may check your credit report');
  // The step is the payment options'.
  expect(screen.getByRole('navigation', { name: 'Progress' }).querySelector('[aria-current="step"]')?.textContent).toContain('Payment options');
  await userEvent.click(screen.getByRole('button', { name: 'Continue' }));

  expect(await screen.findByRole('heading', { level: 1, name: 'Your request to Synchrony' })).toBeTruthy();
  expect(router.state.location.pathname).toBe(at('credit_limit_change/income'));
  return router;
}

beforeEach(() => {
  flow.reset();
  vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
  flow.set({
    session: { webSessionId: 's1', properties: { state: 'CA' }, warnCountdownMillis: 30_000, timeoutAfterMillis: 600_000 } as unknown as Session,
    providerKey: P,
    primaryLenderKey: P,
    applyMode: 'prequalify',
    purchaseAmountCents: 450_000,
    lenders: Object.fromEntries(DEMO_LENDERS.map((p) => [p.providerKey, p])),
  });
  flow.response(P, {
    preAuth: { ...decision(P, 'approved', { approvedAmountCents: 100_000, existingAccount: true }), operation: 'prequalify' },
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('asking for a higher limit, approved', () => {
  it('prefills the limit for the treatment, sends it with the income once, shows the new limit, and the plans are for the treatment', async () => {
    const calls = server(json(answer('approved', { creditLimitCents: 450_000, availableCreditCents: 450_000, coversPurchase: true })));
    const router = await toIncome();
    const limit = screen.getByLabelText('New credit limit') as HTMLInputElement;
    expect(limit.value).toBe('4,500.00');
    await userEvent.type(screen.getByLabelText('Yearly income before taxes'), '60000');
    const send = screen.getByRole('button', { name: 'Send my request' });
    // A double tap sends one request.
    await userEvent.dblClick(send);

    expect(await screen.findByRole('heading', { level: 1, name: 'Your credit limit is higher' })).toBeTruthy();
    expect(router.state.location.pathname).toBe(at('credit_limit_change/result'));
    expect(screen.getByText('Synchrony raised your credit limit to')).toBeTruthy();
    expect(screen.getByText('$4,500.00', { selector: '.offer-head__amount' })).toBeTruthy();
    expect(screen.getByText('You now have $4,500.00 available — enough for your $4,500.00 treatment.')).toBeTruthy();
    expect(posts(calls).map((c) => JSON.parse(c.body!) as unknown)).toEqual([{ requestedLimitCents: 450_000, annualGrossIncomeCents: 6_000_000 }]);
    // The offer now finances the new available credit.
    expect(flow.get().responses[P]?.preAuth?.approvedAmountCents).toBe(450_000);

    await userEvent.click(screen.getByRole('button', { name: 'See payment plans' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your payment plan' })).toBeTruthy();
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/payment/plans')).map((c) => JSON.parse(c.body!))).toEqual([
        { amountCents: 450_000, purchaseAmountCents: 450_000 },
      ]),
    );
    expect(await screen.findByRole('heading', { name: 'Payment plans for $4,500.00' })).toBeTruthy();
  });

  it('an approval that does not cover the treatment says how much it covers, and offers plans for that or finishing', async () => {
    server(json(answer('approved', { creditLimitCents: 300_000, availableCreditCents: 300_000, coversPurchase: false })));
    await toIncome();
    await userEvent.type(screen.getByLabelText('Yearly income before taxes'), '60000');
    await userEvent.click(screen.getByRole('button', { name: 'Send my request' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your credit limit is higher' })).toBeTruthy();
    expect(screen.getByText('You now have $3,000.00 available. That covers $3,000.00 of your $4,500.00 treatment.')).toBeTruthy();
    expect(screen.getByText('You can pay the other $1,500.00 to the dental practice another way.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'See payment plans for $3,000.00' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'No thanks, finish' })).toBeTruthy();
  });
});

describe('asking for a higher limit, not approved', () => {
  it('declined: kind words, the old limit still usable, the account for what it covers or finishing; asking again leads back here', async () => {
    const calls = server(json(answer('declined')));
    const router = await toIncome();
    await userEvent.type(screen.getByLabelText('Yearly income before taxes'), '20000');
    await userEvent.click(screen.getByRole('button', { name: 'Send my request' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Your credit limit stays the same' })).toBeTruthy();
    expect(screen.getByText(/Synchrony couldn’t raise your credit limit this time\./)).toBeTruthy();
    expect(screen.getByText(/your limit is still \$1,000\.00, with \$1,000\.00 available to use/)).toBeTruthy();
    expect(flow.get().responses[P]?.preAuth?.approvedAmountCents).toBe(100_000);
    expect(screen.getByRole('button', { name: 'No thanks, finish' })).toBeTruthy();

    // Back to the form: the answer is given, so the app shows it rather than asking again.
    await router.navigate(at('credit_limit_change/income'));
    // The form redirects as it renders (<Navigate>): wait for that navigation, or the next one races it.
    await waitFor(() => expect(router.state.location.pathname).toBe(at('credit_limit_change/result')));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your credit limit stays the same' })).toBeTruthy();
    await router.navigate(at('existingAccount'));
    expect(await screen.findByRole('heading', { level: 1, name: 'You already have an account' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Ask for a higher credit limit' })).toBeNull();
    await router.navigate(at('credit_limit_change/result'));

    await userEvent.click(await screen.findByRole('button', { name: 'Use my account for $1,000.00' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your payment plan' })).toBeTruthy();
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/payment/plans')).map((c) => JSON.parse(c.body!))).toEqual([
        { amountCents: 100_000, purchaseAmountCents: 450_000 },
      ]),
    );
    expect(posts(calls)).toHaveLength(1);
  });

  it('error: "we didn’t get an answer", do not ask again now, the account as it was or finishing', async () => {
    server(json(answer('error')));
    await toIncome();
    await userEvent.type(screen.getByLabelText('Yearly income before taxes'), '99999');
    await userEvent.click(screen.getByRole('button', { name: 'Send my request' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'We didn’t get an answer' })).toBeTruthy();
    expect(screen.getByText(/Please don’t ask again today/)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Use my account for $1,000.00' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'No thanks, finish' })).toBeTruthy();
  });
});

describe('the form', () => {
  it('checks both amounts in the patient’s words before sending anything, and shows the server’s field errors on the fields', async () => {
    const calls = server(
      json(
        {
          code: 'validation_error',
          message: 'Please review the fields below and correct any errors.',
          fieldErrors: [{ field: 'annualGrossIncomeCents', message: 'Please enter your yearly income before taxes, up to $10,000,000.00.' }],
        },
        400,
      ),
    );
    await toIncome();
    const limit = screen.getByLabelText('New credit limit');
    await userEvent.clear(limit);
    await userEvent.type(limit, '900');
    await userEvent.click(screen.getByRole('button', { name: 'Send my request' }));
    expect(screen.getByText('Please enter more than your current limit of $1,000.00.')).toBeTruthy();
    expect(screen.getByText('Please enter your yearly income before taxes.')).toBeTruthy();
    expect(document.activeElement).toBe(limit);
    expect(limit.getAttribute('aria-invalid')).toBe('true');
    expect(limit.getAttribute('aria-describedby')).toBe('cl-limit-hint cl-limit-error');
    expect(posts(calls)).toHaveLength(0);

    await userEvent.clear(limit);
    await userEvent.type(limit, '30000');
    await userEvent.type(screen.getByLabelText('Yearly income before taxes'), 'abc');
    await userEvent.click(screen.getByRole('button', { name: 'Send my request' }));
    expect(screen.getByText('Synchrony can raise this limit to $25,000.00 at most. Please enter that or less.')).toBeTruthy();
    expect(screen.getByText('Please enter an amount in dollars, for example 45,000.')).toBeTruthy();

    await userEvent.clear(limit);
    await userEvent.type(limit, '5000');
    const income = screen.getByLabelText('Yearly income before taxes');
    await userEvent.clear(income);
    await userEvent.type(income, '60,000');
    await userEvent.click(screen.getByRole('button', { name: 'Send my request' }));
    expect(await screen.findByText('Please enter your yearly income before taxes, up to $10,000,000.00.')).toBeTruthy();
    expect(document.activeElement).toBe(income);
    expect(posts(calls).map((c) => JSON.parse(c.body!) as unknown)).toEqual([{ requestedLimitCents: 500_000, annualGrossIncomeCents: 6_000_000 }]);
  });

  it('an account the lender cannot change (409) says so, with the way back', async () => {
    server(json(answer('approved')), {
      [`/providers/${P}/account/terms`]: [json({ code: 'conflict', message: 'There is no account to change.' }, 409)],
    });
    openApp(at('credit_limit_change/start'));
    expect(await screen.findByRole('heading', { level: 1, name: 'We can’t change this limit here' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Back to my account' })).toBeTruthy();
  });
});

describe('when the existing-account screen offers it', () => {
  const base = {
    lenders: { [P]: lender(P, 'Synchrony') },
    purchaseAmountCents: 450_000,
    responses: { [P]: { preAuth: { ...decision(P, 'approved', { approvedAmountCents: 100_000 }), operation: 'prequalify' as const } } },
  };
  it('a revolving account with less available than the treatment, not yet asked', () => {
    expect(canAskForHigherLimit(base, P)).toBe(true);
    expect(canAskForHigherLimit({ ...base, lenders: { [P]: lender(P, 'Synchrony', { creditType: 'loan' }) } }, P)).toBe(false);
    expect(canAskForHigherLimit({ ...base, purchaseAmountCents: 100_000 }, P)).toBe(false);
    expect(canAskForHigherLimit({ ...base, responses: { [P]: { ...base.responses[P], creditLimitChange: answer('declined') } } }, P)).toBe(false);
  });

  it('the form’s rules', () => {
    // Enough for what the account already carries plus the treatment, in whole hundreds, never above the lender's most.
    expect(suggestedLimitCents(terms)).toBe(450_000);
    expect(suggestedLimitCents({ ...terms, purchaseAmountCents: 450_050 })).toBe(460_000);
    expect(suggestedLimitCents({ ...terms, availableCreditCents: 40_000 })).toBe(510_000);
    expect(suggestedLimitCents({ ...terms, maxLimitCents: 300_000 })).toBe(300_000);
    expect(limitProblem('', terms, 'Synchrony')).toBe('Please enter the credit limit you’d like.');
    expect(limitProblem('$4,500', terms, 'Synchrony')).toBeNull();
    expect(incomeProblem('10000000')).toBe('Please enter an amount up to $9,999,999.00.');
    expect(incomeProblem('0')).toBeNull();
  });
});

describe('the result address opened on its own', () => {
  it('says there is no answer yet and leads back to the account', async () => {
    server(json(answer('approved')));
    openApp(at('credit_limit_change/result'));
    const h = await screen.findByRole('heading', { level: 1, name: 'There’s no answer to show yet' });
    expect(within(h.closest('.card') as HTMLElement).getByRole('button', { name: 'Back to my account' })).toBeTruthy();
  });
});

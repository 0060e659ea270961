import { api, lenderPath } from '@/lib/api/client';
import type { AccountTerms, CreditLimitChangeRequest, CreditLimitChangeResponse } from '@/lib/api/types';
import { withProgress } from '@/flow/progress';
import { isPositive } from '@/lib/decision';
import { t } from '@/lib/i18n';
import { formatCents, parseDollars } from '@/lib/money';
import { once } from '@/lib/once';
import { flow, type FlowState, type LenderResponses } from '@/stores/flow';

/*
 * A credit-limit change (docs/behaviour.md, "Credit-limit change"): a
 * patient whose existing revolving account cannot cover the treatment asks
 * the lender for a higher limit, once. initCreditLimitChange loads the
 * account's limits and terms; changeCreditLimit asks.
 */

/** The most yearly income the field takes: the application form's own bound ($9,999,999.00). */
export const MAX_INCOME_CENTS = 999_999_900;

/**
 * canAskForHigherLimit: the existing-account screen offers a higher limit
 * when the lender's card is revolving credit, the account can be used, its
 * available credit is below the treatment amount, and the patient has not
 * asked in this session.
 */
export function canAskForHigherLimit(s: Pick<FlowState, 'lenders' | 'responses' | 'purchaseAmountCents'>, providerKey: string): boolean {
  const r = s.responses[providerKey];
  const d = r?.apply ?? r?.preAuth;
  if (s.lenders[providerKey]?.creditType !== 'revolving_credit' || !isPositive(d?.responseCode) || r?.creditLimitChange) return false;
  return s.purchaseAmountCents > 0 && (d?.approvedAmountCents ?? 0) < s.purchaseAmountCents;
}

/** initCreditLimitChange loads the account's limits and terms once (GET …/account/terms). A 409 conflict means there is no account to change. */
export function initCreditLimitChange(providerKey: string): Promise<AccountTerms> {
  const kept = flow.get().responses[providerKey]?.accountTerms;
  if (kept) return Promise.resolve(kept);
  return once(`account-terms:${providerKey}`, async () => {
    const terms = await api.get<AccountTerms>(lenderPath(providerKey, 'account/terms'), { noErrorHandling: true });
    flow.response(providerKey, { accountTerms: terms });
    return terms;
  });
}

/**
 * changeCreditLimit asks the lender once (a lender step: retried on a
 * dropped connection with the same Idempotency-Key, never sent twice),
 * under its waiting words, and keeps the answer.
 */
export function changeCreditLimit(providerKey: string, body: CreditLimitChangeRequest, waiting: string): Promise<CreditLimitChangeResponse> {
  return once(`credit-limit-change:${providerKey}`, async () => {
    const res = await withProgress(waiting, () =>
      api.post<CreditLimitChangeResponse>(lenderPath(providerKey, 'account/change-credit-limit'), body, {
        lenderStep: true,
        noErrorHandling: true,
      }),
    );
    recordCreditLimitChange(providerKey, res);
    return res;
  });
}

/**
 * recordCreditLimitChange keeps the answer. An approval raises what the
 * account's offer can finance to the new available credit, and forgets the
 * plans priced for the old one, so the plans screen asks again for the
 * treatment (or for what the new limit covers).
 */
export function recordCreditLimitChange(providerKey: string, res: CreditLimitChangeResponse): void {
  const patch: Partial<LenderResponses> = { creditLimitChange: res };
  if (res.responseCode === 'approved') {
    const r = flow.get().responses[providerKey];
    patch.paymentPlans = undefined;
    patch.paymentPlansAmountCents = undefined;
    if (r?.apply) patch.apply = { ...r.apply, approvedAmountCents: res.availableCreditCents };
    else if (r?.preAuth) patch.preAuth = { ...r.preAuth, approvedAmountCents: res.availableCreditCents };
  }
  flow.response(providerKey, patch);
}

/**
 * suggestedLimitCents is the limit the form starts with: enough for what
 * the account already carries plus the treatment, rounded up to the next
 * $100, and never above the most the lender allows.
 */
export function suggestedLimitCents(
  t: Pick<AccountTerms, 'creditLimitCents' | 'availableCreditCents' | 'purchaseAmountCents' | 'maxLimitCents'>,
): number {
  const used = Math.max(0, t.creditLimitCents - t.availableCreditCents);
  const needed = Math.ceil((used + t.purchaseAmountCents) / 10_000) * 10_000;
  return t.maxLimitCents > 0 ? Math.min(needed, t.maxLimitCents) : needed;
}

/** dollarsText shows cents the way the money fields take them: 450000 → "4,500.00". */
export function dollarsText(cents: number): string {
  return formatCents(cents).replace('$', '');
}

/** limitProblem checks the limit asked for, in the patient's words (and language); null when it can be sent. */
export function limitProblem(typed: string, terms: Pick<AccountTerms, 'creditLimitCents' | 'maxLimitCents'>, lender: string): string | null {
  if (!typed.trim()) return t('creditLimit.problems.limitEmpty');
  const cents = parseDollars(typed);
  if (cents === null) return t('creditLimit.problems.limitNotAmount');
  if (cents <= terms.creditLimitCents) return t('creditLimit.problems.limitNotMore', { limit: formatCents(terms.creditLimitCents) });
  if (terms.maxLimitCents > 0 && cents > terms.maxLimitCents)
    return t('creditLimit.problems.limitTooHigh', { lender, max: formatCents(terms.maxLimitCents) });
  return null;
}

/** incomeProblem checks the yearly income, in the patient's words (and language); null when it can be sent. */
export function incomeProblem(typed: string): string | null {
  if (!typed.trim()) return t('creditLimit.problems.incomeEmpty');
  const cents = parseDollars(typed);
  if (cents === null) return t('creditLimit.problems.incomeNotAmount');
  if (cents > MAX_INCOME_CENTS) return t('creditLimit.problems.incomeTooHigh', { max: formatCents(MAX_INCOME_CENTS) });
  return null;
}

import { describe, expect, it } from 'vitest';
import type { ApplyMode, Decision, LenderConfig } from './api/types';
import { afterFullApplyDestination, decisionDestination, LENDER_ROUTING, type RoutedDecision } from './decision';
import { lender } from '@/test/catalogue';

/*
 * Every lender × apply mode × answer and where the browser goes
 * (docs/behaviour.md, "Decision routing"). Each lender is taken as the
 * office's primary lender, as in its own demo office, so the no-offer rule
 * reads that lender's catalogue flag (supportsFullAppMode), not its key.
 */

/** The catalogue as the server sends it: only the flags the routing reads differ from the defaults. */
const CATALOGUE: LenderConfig[] = [
  lender('ads_standard', 'ADS Health', { supportsFullAppMode: true }),
  lender('aff_standard', 'AFF'),
  lender('covered_care_standard', 'Covered Care'),
  lender('fortiva_standard', 'Fortiva'),
  lender('genesis_aspen', 'Genesis'),
  lender('hfd_standard', 'HFD'),
  lender('lendingclub_standard', 'LendingClub'),
  lender('proceed_standard', 'Proceed'),
  lender('snap_standard', 'Snap', { fetchPaymentPlansOnPreAuth: false, preauthExpireDays: 60 }),
  lender('synchrony_standard', 'Synchrony', { supportsFullAppMode: true }),
  lender('vive_standard', 'Vive'),
];

const MODES: ApplyMode[] = ['full', 'prequalify', 'prescreen'];
const CODES = [
  'approved',
  'declined',
  'error',
  'nooffer',
  'pending',
  'preapproved',
  'prequalified',
  'existing account',
  'unknown',
  // Pending for a fraud and identity review (pending reason red_flag), and pending on the patient's income (a stipulation of type income).
  'under review',
  'income asked',
] as const;
type Code = (typeof CODES)[number];
type Dest = string | null;

/** The general table, written out: a full application, and a quick check where the primary lender does or does not take a full one. */
const FULL: Record<Code, Dest> = {
  approved: 'paymentPlans',
  declined: 'declined',
  error: 'error',
  // A full application is never offered again: the declined screen says there was no offer.
  nooffer: 'declined',
  pending: 'pending',
  preapproved: 'preapproved',
  prequalified: 'prequalified',
  'existing account': 'existingAccount',
  unknown: null,
  'under review': 'under-review',
  'income asked': 'patch/income',
};
const QUICK_PRIMARY_FULL: Record<Code, Dest> = {
  approved: 'approved',
  declined: 'declined',
  error: 'nooffer',
  nooffer: 'nooffer',
  pending: 'nooffer',
  preapproved: 'preapproved',
  prequalified: 'prequalified',
  'existing account': 'existingAccount',
  unknown: null,
  // Before the soft-pull rule and any lender's override: at every lender, in every mode.
  'under review': 'under-review',
  'income asked': 'patch/income',
};
const QUICK_PRIMARY_NOT_FULL: Record<Code, Dest> = { ...QUICK_PRIMARY_FULL, error: 'declined', nooffer: 'declined', pending: 'declined' };

/** The lender overrides, written out (pending here carries no pending reason). */
const OVERRIDES: Record<string, Partial<Record<Code, Dest>>> = {
  lendingclub_standard: { pending: 'true-pending' },
};

function expected(p: LenderConfig, mode: ApplyMode, code: Code): Dest {
  const over = OVERRIDES[p.providerKey]?.[code];
  if (over !== undefined) return over;
  if (mode === 'full') return FULL[code];
  return p.supportsFullAppMode ? QUICK_PRIMARY_FULL[code] : QUICK_PRIMARY_NOT_FULL[code];
}

function answer(providerKey: string, code: Code, over: Partial<RoutedDecision> = {}): RoutedDecision {
  if (code === 'existing account') return { providerKey, responseCode: 'approved', existingAccount: true, pendingReasons: [], ...over };
  if (code === 'under review') return { providerKey, responseCode: 'pending', existingAccount: false, pendingReasons: ['red_flag'], ...over };
  if (code === 'income asked') {
    const stipulations = [{ id: 'STIP-income', type: 'income', description: 'Your verified income.', status: 'pending' }];
    return { providerKey, responseCode: 'pending', existingAccount: false, pendingReasons: ['income_verification'], stipulations, ...over };
  }
  const responseCode = (code === 'unknown' ? 'under_consideration' : code) as Decision['responseCode'];
  return { providerKey, responseCode, existingAccount: false, pendingReasons: [], ...over };
}

/** The context submit.ts builds: the lender is the office's primary, prescreen and prequalify are quick checks. */
const ctx = (p: LenderConfig, mode: ApplyMode, now = Date.parse('2026-06-01T12:00:00Z')) => ({
  mode,
  preAuth: mode !== 'full',
  primarySupportsFull: Boolean(p.supportsFullAppMode),
  now,
});

const ROWS = CATALOGUE.flatMap((p) => MODES.flatMap((mode) => CODES.map((code) => ({ p, mode, code, dest: expected(p, mode, code) }))));

describe('decision routing: every lender × mode × answer', () => {
  it('covers the eleven lenders, three modes and eleven answers', () => {
    expect(CATALOGUE).toHaveLength(11);
    expect(ROWS).toHaveLength(11 * 3 * 11);
  });

  it.each(ROWS.map((r) => [r.p.providerKey, r.mode, r.code, r.dest, r] as const))('%s %s %s → %s', (_k, _m, _c, dest, r) => {
    expect(decisionDestination(answer(r.p.providerKey, r.code), ctx(r.p, r.mode))).toBe(dest);
  });

  it('shows a prescreen as a prequalification: the same destination for every lender and answer', () => {
    for (const p of CATALOGUE) {
      for (const code of CODES) {
        expect(decisionDestination(answer(p.providerKey, code), ctx(p, 'prescreen'))).toBe(
          decisionDestination(answer(p.providerKey, code), ctx(p, 'prequalify')),
        );
      }
    }
  });

  it('an existing account wins over any code', () => {
    for (const code of ['declined', 'error', 'nooffer', 'pending'] as const) {
      expect(
        decisionDestination({ providerKey: 'lendingclub_standard', responseCode: code, existingAccount: true }, ctx(CATALOGUE[6]!, 'full')),
      ).toBe('existingAccount');
    }
  });

  it('the no-offer rule follows the office’s primary lender, not the lender that answered', () => {
    const fortiva = answer('fortiva_standard', 'nooffer');
    expect(decisionDestination(fortiva, { mode: 'prequalify', preAuth: true, primarySupportsFull: true })).toBe('nooffer');
    expect(decisionDestination(fortiva, { mode: 'prequalify', preAuth: true, primarySupportsFull: false })).toBe('declined');
    expect(decisionDestination(fortiva, { mode: 'full', preAuth: false, primarySupportsFull: true })).toBe('declined');
  });
});

describe('lender overrides', () => {
  const lc = CATALOGUE.find((p) => p.providerKey === 'lendingclub_standard')!;
  const past = '2026-05-01T00:00:00Z';
  const future = '2026-07-01T00:00:00Z';

  it('keeps every lender-specific rule in one table', () => {
    expect(Object.keys(LENDER_ROUTING).sort()).toEqual(['lendingclub_standard', 'proceed_standard']);
  });

  it.each(MODES)('lendingclub %s: pending with an email to confirm → approved, other reasons → true-pending', (mode) => {
    expect(decisionDestination(answer(lc.providerKey, 'pending', { pendingReasons: ['verify_email'] }), ctx(lc, mode))).toBe('approved');
    expect(decisionDestination(answer(lc.providerKey, 'pending', { pendingReasons: ['identity_verification'] }), ctx(lc, mode))).toBe('true-pending');
    expect(decisionDestination(answer(lc.providerKey, 'pending', { pendingReasons: null as unknown as string[] }), ctx(lc, mode))).toBe(
      'true-pending',
    );
  });

  it.each(MODES)('lendingclub %s: a positive answer whose offer has expired → expired; one still valid is not', (mode) => {
    for (const code of ['approved', 'preapproved', 'prequalified'] as const) {
      expect(decisionDestination(answer(lc.providerKey, code, { expiresAt: past }), ctx(lc, mode))).toBe('expired');
      expect(decisionDestination(answer(lc.providerKey, code, { expiresAt: future }), ctx(lc, mode))).toBe(expected(lc, mode, code));
    }
    // A decline is not an offer: it cannot expire.
    expect(decisionDestination(answer(lc.providerKey, 'declined', { expiresAt: past }), ctx(lc, mode))).toBe('declined');
  });

  it('other lenders ignore an expiry and read pending by the general table', () => {
    for (const p of CATALOGUE.filter((x) => x !== lc)) {
      expect(decisionDestination(answer(p.providerKey, 'approved', { expiresAt: past }), ctx(p, 'full'))).toBe('paymentPlans');
      expect(decisionDestination(answer(p.providerKey, 'pending', { pendingReasons: ['verify_email'] }), ctx(p, 'full'))).toBe('pending');
    }
  });

  it.each([
    [['esign'], 'terms'],
    [['additional_documents_needed'], 'terms'],
    [['identity_verification', 'esign'], 'terms'],
    [['identity_verification'], 'paymentPlans'],
    [[], 'paymentPlans'],
  ])('proceed resume/after-full-apply with pending reasons %j → %s', (reasons, dest) => {
    expect(afterFullApplyDestination('proceed_standard', { pendingReasons: reasons }, false)).toBe(dest);
    expect(afterFullApplyDestination('proceed_standard', { pendingReasons: reasons }, true)).toBe(dest);
  });

  it('resume/after-full-apply for a lender without a rule: its plans when it has some, otherwise the general resume', () => {
    for (const p of CATALOGUE.filter((x) => x.providerKey !== 'proceed_standard')) {
      expect(afterFullApplyDestination(p.providerKey, { pendingReasons: ['esign'] }, true)).toBe('paymentPlans');
      expect(afterFullApplyDestination(p.providerKey, { pendingReasons: ['esign'] }, false)).toBeNull();
    }
    expect(afterFullApplyDestination('proceed_standard', undefined, false)).toBe('paymentPlans');
  });
});

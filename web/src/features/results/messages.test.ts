import { beforeEach, describe, expect, it } from 'vitest';
import type { Decision } from '@/lib/api/types';
import { decision } from '@/test/fixtures';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { consentNotice, declineMessage, noFinancingSummary, noOfferScreen, outcomeOf, switchNotice } from './messages';

beforeEach(() => {
  flow.reset();
  withCatalogue();
});

describe('decline wording', () => {
  it('names every lender, never the lender’s own notice', () => {
    expect(declineMessage(['Synchrony'])).toBe(
      'Synchrony couldn’t approve this application. They will send you a letter explaining why within 7–10 business days.',
    );
    expect(declineMessage(['Synchrony', 'Fortiva', 'Snap', 'Proceed'])).toBe(
      'Synchrony, Fortiva, Snap and Proceed couldn’t approve this application. Each will send you a letter explaining why within 7–10 business days.',
    );
    expect(declineMessage([])).toBe('');
  });

  it('tells the patient why they are asked to agree again', () => {
    flow.set({ declinedBy: ['synchrony_standard'] });
    expect(consentNotice([decision('synchrony_standard', 'declined')], 'fortiva_standard')).toBe(
      'Synchrony couldn’t approve this application. They will send you a letter explaining why within 7–10 business days. You can still check your options with Fortiva. First, please read what you agree to with Fortiva below.',
    );
  });
});

describe('lender names', () => {
  it('come from the server’s catalogue, and read “the lender” while it is not loaded', () => {
    flow.set({ declinedBy: ['synchrony_standard'] });
    flow.set({ lenders: {} });
    expect(consentNotice([decision('synchrony_standard', 'declined')], 'fortiva_standard')).toBe(
      'the lender couldn’t approve this application. They will send you a letter explaining why within 7–10 business days. You can still check your options with the lender. First, please read what you agree to with the lender below.',
    );
  });
});

describe('a pending or failed lender never reads as a decline', () => {
  const names: Record<string, string> = { lendingclub_standard: 'LendingClub', covered_care_standard: 'Covered Care', hfd_standard: 'HFD' };
  const name = (k: string) => names[k] ?? k;
  const answered = (...answers: [string, Decision['responseCode']][]) => {
    for (const [k, code] of answers) flow.response(k, { preAuth: { ...decision(k, code), operation: 'prequalify' } });
    flow.set({ declinedBy: answers.filter(([, c]) => c === 'declined').map(([k]) => k) });
    return flow.get();
  };

  it('a lender still reviewing (verify_email) is said to be reviewing, with no letter promised', () => {
    const s = answered(['lendingclub_standard', 'pending']);
    expect(noFinancingSummary(s, name, 'lendingclub_standard')).toEqual({
      title: 'No offer yet',
      lines: ['LendingClub is still reviewing your application, so there is no offer yet.', 'You don’t need to apply again.'],
    });
  });

  it('when no lender decided, the patient is told we could not reach them, not that they declined', () => {
    const s = answered(['lendingclub_standard', 'error'], ['covered_care_standard', 'error'], ['hfd_standard', 'error']);
    const { title, lines } = noFinancingSummary(s, name, 'hfd_standard');
    expect(title).toBe('We didn’t get an answer');
    expect(lines).toEqual([
      'We didn’t get an answer from LendingClub, Covered Care and HFD.',
      'Please don’t apply again — ask the office manager to check the status of your application.',
    ]);
    expect(lines.join(' ')).not.toMatch(/approve|letter/);
  });

  it('each lender is told as it answered: the letter only for the one that declined', () => {
    const s = answered(['lendingclub_standard', 'pending'], ['covered_care_standard', 'declined'], ['hfd_standard', 'error']);
    expect(noFinancingSummary(s, name, 'hfd_standard')).toEqual({
      title: 'This application wasn’t approved',
      lines: [
        'Covered Care couldn’t approve this application. They will send you a letter explaining why within 7–10 business days.',
        'LendingClub is still reviewing your application, so there is no offer yet.',
        'We didn’t get an answer from HFD.',
        'Please don’t apply again — ask the office manager to check the status of your application.',
      ],
    });
  });

  it('no offer from the quick check is said so; a screen with nothing known claims nothing', () => {
    expect(noFinancingSummary(answered(['hfd_standard', 'nooffer']), name, 'hfd_standard')).toEqual({
      title: 'No offer this time',
      lines: ['HFD couldn’t make an offer.'],
    });
    flow.reset();
    expect(noFinancingSummary(flow.get(), name, 'hfd_standard')).toEqual({ title: 'No offer this time', lines: ['There is no offer from HFD.'] });
  });

  it('the no-offer screen says why there is no offer from the quick check', () => {
    const s = answered(['lendingclub_standard', 'pending'], ['hfd_standard', 'error']);
    expect(noOfferScreen(outcomeOf(s, 'lendingclub_standard'), 'LendingClub')).toEqual({
      title: 'No offer yet',
      lead: 'LendingClub is still reviewing your quick check, so there is no offer from it yet.',
    });
    expect(noOfferScreen(outcomeOf(s, 'hfd_standard'), 'HFD').title).toBe('We didn’t get an answer');
    expect(noOfferScreen(null, 'Synchrony')).toEqual({
      title: 'No offer from the quick check',
      lead: 'Synchrony couldn’t make you an offer from the quick check.',
    });
  });

  it('the notice before the next lender names a lender still reviewing as reviewing', () => {
    expect(switchNotice([decision('synchrony_standard', 'pending'), decision('fortiva_standard', 'error')], 'snap_standard')).toBe(
      'Synchrony is still reviewing your application, so there is no offer yet. We didn’t get an answer from Fortiva. You can still check your options with Snap. Your details are already filled in.',
    );
  });
});

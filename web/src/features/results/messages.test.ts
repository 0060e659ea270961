import { beforeEach, describe, expect, it } from 'vitest';
import { decision } from '@/test/fixtures';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { consentNotice, declineMessage } from './messages';

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
    flow.set({ providers: {} });
    expect(consentNotice([decision('synchrony_standard', 'declined')], 'fortiva_standard')).toBe(
      'the lender couldn’t approve this application. They will send you a letter explaining why within 7–10 business days. You can still check your options with the lender. First, please read what you agree to with the lender below.',
    );
  });
});

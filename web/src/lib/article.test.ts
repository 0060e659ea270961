import { describe, expect, it } from 'vitest';
import { indefiniteArticle, withArticles } from './article';
import { t } from './i18n';

describe('the article before a lender’s or product’s name', () => {
  it('follows how the first word is said', () => {
    for (const an of [
      'HFD Direct Payment Plan',
      'AFF Treatment Loan',
      'ADS Health Card',
      'F',
      'installment loan',
      'hour',
      '18-month plan',
      '8-month plan',
    ])
      expect(indefiniteArticle(an), an).toBe('an');
    for (const a of [
      'Synchrony Health Card',
      'Snap Lease-to-Own',
      'LendingClub Patient Loan',
      'Proceed Patient Loan',
      'Vive Care Card',
      'unit',
      'one-time fee',
      '12-month plan',
      'CareCredit card',
    ])
      expect(indefiniteArticle(a), a).toBe('a');
  });

  it('puts the right article before a placeholder, keeping its capital, and leaves other words alone', () => {
    expect(withArticles('approved you for a {{product}} of up to', { product: 'HFD Direct Payment Plan' })).toBe(
      'approved you for an {{product}} of up to',
    );
    expect(withArticles('A {{product}} is credit', { product: 'AFF Treatment Loan' })).toBe('An {{product}} is credit');
    expect(withArticles('a {{product}}', { product: 'Synchrony Health Card' })).toBe('a {{product}}');
    expect(withArticles('pizza {{x}} and a {{missing}}', { x: 'AFF' })).toBe('pizza {{x}} and a {{missing}}');
  });

  it('is applied when an English message is filled', () => {
    expect(t('offers.heads.approvedFor', { who: 'HFD', product: 'HFD Direct Payment Plan' })).toBe(
      'Congratulations! HFD approved you for an HFD Direct Payment Plan of up to',
    );
    expect(t('offers.heads.prequalifiedFor', { who: 'AFF', product: 'AFF Treatment Loan' })).toContain('for an AFF Treatment Loan');
    expect(t('offers.heads.approvedFor', { who: 'Synchrony', product: 'Synchrony Health Card' })).toContain('for a Synchrony Health Card');
  });
});

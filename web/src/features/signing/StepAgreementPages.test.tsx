import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Document } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender } from '@/test/catalogue';
import { textDocument } from '@/test/fixtures';
import { AgreementPage, CompleteAgreementPage } from './StepAgreementPages';

const post = vi.hoisted(() => vi.fn());
const get = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post, get } };
});

const consentTo = (d: Document) => ({ documentId: d.id, documentVersion: d.version, documentSha256: d.sha256, agreed: true });

function show(key: string, page: string, Component: () => React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path: `/providers/:providerKey/${page}`, Component },
      { path: '/providers/:providerKey/:next', Component: () => <h1>Next screen</h1> },
    ],
    { initialEntries: [`/providers/${key}/${page}`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('the agreement on its own screen', () => {
  const agreement = textDocument('aff/agreement', 'Credit agreement');
  beforeEach(() => {
    post.mockReset();
    flow.reset();
    flow.set({ providerKey: 'aff_standard', lenders: { aff_standard: lender('aff_standard', 'AFF', { kind: 'installment_loan' }) } });
    post.mockImplementation(async (path: string) => {
      if (path.endsWith('/agreement') && !path.includes('application/')) return agreement;
      return { providerKey: 'aff_standard', status: 'offer_accepted', openSteps: ['checkCalifornia'] };
    });
  });

  it('needs its box ticked, then sends the consent naming exactly the document shown and goes to the next open step', async () => {
    const router = show('aff_standard', 'agreement', AgreementPage);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your loan agreement' })).toBeTruthy();
    await screen.findByText('Credit agreement text');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please check the box to continue')).toBeTruthy();
    expect(post.mock.calls.filter((c) => String(c[0]).includes('application/agreement'))).toHaveLength(0);
    await userEvent.click(screen.getByLabelText('I have read the AFF loan agreement and I agree to its terms.'));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/aff_standard/checkCalifornia'));
    const sent = post.mock.calls.find((c) => String(c[0]).endsWith('application/agreement'));
    expect(sent?.[1]).toEqual({ consent: consentTo(agreement) });
  });

  it('calls a lease a lease', async () => {
    flow.set({ providerKey: 'snap_standard', lenders: { snap_standard: lender('snap_standard', 'Snap', { kind: 'lease_to_own' }) } });
    show('snap_standard', 'agreement', AgreementPage);
    expect(await screen.findByRole('heading', { level: 1, name: 'Your lease agreement' })).toBeTruthy();
    expect(screen.getByLabelText('I have read the Snap lease agreement and I agree to its terms.')).toBeTruthy();
  });
});

describe('the cardholder agreement after signing', () => {
  const cardholder = textDocument('fortiva/cardholder_agreement', 'Cardholder agreement');
  beforeEach(() => {
    post.mockReset();
    get.mockReset();
    get.mockResolvedValue(cardholder);
    flow.reset();
    flow.set({ providerKey: 'fortiva_standard', lenders: { fortiva_standard: lender('fortiva_standard', 'Fortiva') } });
    post.mockResolvedValue({ providerKey: 'fortiva_standard', status: 'signed' });
  });

  it('"Open my account" sends the consent, then completes, then shows the completion screen', async () => {
    const router = show('fortiva_standard', 'completeAgreement', CompleteAgreementPage);
    await screen.findByText('Cardholder agreement text');
    expect(get.mock.calls[0]?.[1]).toMatchObject({ query: { kind: 'cardholder_agreement' } });
    await userEvent.click(screen.getByLabelText('I have read the Fortiva cardholder agreement and I agree to it.'));
    await userEvent.click(screen.getByRole('button', { name: 'Open my account' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/providers/fortiva_standard/complete'));
    expect(post.mock.calls.map((c) => String(c[0]).split('/').slice(-2).join('/'))).toEqual([
      'application/cardholder-agreement',
      'application/complete',
    ]);
    expect(post.mock.calls[0]?.[1]).toEqual({ consent: consentTo(cardholder) });
  });
});

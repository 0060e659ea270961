import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Document } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender } from '@/test/catalogue';
import { CaliforniaPage } from './CaliforniaPage';
import { spouseErrors } from './rules';
import { WisconsinPage } from './WisconsinPage';

const post = vi.hoisted(() => vi.fn());
const get = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post, get } };
});

const AFF = 'aff_standard';

function show(page: string, Component: () => React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path: `/providers/:providerKey/${page}`, Component },
      { path: '/providers/:providerKey/:next', Component: () => <h1>Next screen</h1> },
    ],
    { initialEntries: [`/providers/${AFF}/${page}`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

beforeEach(() => {
  post.mockReset();
  get.mockReset();
  flow.reset();
  flow.set({ providerKey: AFF, lenders: { [AFF]: lender(AFF, 'AFF', { kind: 'installment_loan' }) } });
});

describe('Wisconsin spouse screen', () => {
  it('asks first whether the patient is married; unmarried sends just that', async () => {
    post.mockResolvedValue({ providerKey: AFF, status: 'offer_accepted', openSteps: ['checkCalifornia'] });
    const router = show('checkWisconsin', WisconsinPage);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Required Field')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    expect(screen.queryByLabelText('First name')).toBeNull();
    await userEvent.click(screen.getByLabelText('No'));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${AFF}/checkCalifornia`));
    expect(post.mock.calls[0]?.[1]).toEqual({ married: false });
  });

  it('married: the spouse’s name and address, checked in the patient’s words, then sent', async () => {
    post.mockResolvedValue({ providerKey: AFF, status: 'offer_accepted' });
    const router = show('checkWisconsin', WisconsinPage);
    await userEvent.click(screen.getByLabelText('Yes'));
    await userEvent.type(screen.getByLabelText('First name'), 'Sam');
    await userEvent.type(screen.getByLabelText('Last name'), 'Approve');
    await userEvent.type(screen.getByLabelText(/Street address/), 'PO Box 12');
    await userEvent.type(screen.getByLabelText('City'), 'Madison');
    await userEvent.type(screen.getByLabelText('ZIP code'), '77002');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('P.O. Box Not Allowed')).toBeTruthy();
    expect(screen.getByText('Zip Code not valid for state')).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    await userEvent.clear(screen.getByLabelText(/Street address/));
    await userEvent.type(screen.getByLabelText(/Street address/), '22 State St');
    await userEvent.clear(screen.getByLabelText('ZIP code'));
    await userEvent.type(screen.getByLabelText('ZIP code'), '53703');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${AFF}/terms`));
    expect(post.mock.calls[0]?.[1]).toEqual({
      married: true,
      spouse: {
        firstName: 'Sam',
        lastName: 'Approve',
        addressLine1: '22 State St',
        addressLine2: undefined,
        city: 'Madison',
        state: 'WI',
        zipCode: '53703',
      },
    });
    expect(JSON.stringify(flow.get())).not.toContain('22 State St');
  });

  it('spouse rules match the server’s words', () => {
    const ok = {
      firstName: 'Zoë',
      lastName: 'O’Hara',
      addressLine1: '1 Main St #2',
      addressLine2: '',
      city: 'Madison',
      state: 'WI',
      zipCode: '53703',
    };
    expect(spouseErrors(ok)).toEqual({});
    expect(spouseErrors({ ...ok, firstName: 'S4m', state: '' })).toEqual({
      firstName: 'A name may use letters, spaces, apostrophes, periods and hyphens.',
      state: 'Required Field',
    });
  });
});

describe('California notice screen', () => {
  const notice: Document = {
    id: 'aff/california_notice',
    version: '1',
    title: 'Notice for patients in California',
    contentType: 'text/plain',
    content: 'refunds within 15 business days',
    language: 'en',
    sha256: 'sha-ca',
  };

  it('shows the notice, needs the acknowledgement, and records it naming the document', async () => {
    get.mockResolvedValue(notice);
    post.mockResolvedValue({ providerKey: AFF, status: 'offer_accepted' });
    const router = show('checkCalifornia', CaliforniaPage);
    await screen.findByText('refunds within 15 business days');
    expect(get.mock.calls[0]?.[1]).toMatchObject({ query: { kind: 'california_notice' } });
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please check the box to continue')).toBeTruthy();
    await userEvent.click(screen.getByLabelText(/I understand that AFF is credit for my dental treatment/));
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${AFF}/terms`));
    expect(post.mock.calls[0]?.[0]).toMatch(/application\/california-notice$/);
    expect(post.mock.calls[0]?.[1]).toEqual({ consent: { documentId: notice.id, documentVersion: '1', documentSha256: 'sha-ca', agreed: true } });
  });
});

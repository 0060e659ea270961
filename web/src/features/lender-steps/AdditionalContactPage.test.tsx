import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ApiError } from '@/lib/api/client';
import { flow } from '@/stores/flow';
import { lender } from '@/test/catalogue';
import { AdditionalContactPage } from './AdditionalContactPage';
import { contactErrors, maskPhone } from './rules';

const post = vi.hoisted(() => vi.fn());
vi.mock('@/lib/api/client', async (actual) => {
  const real = await actual<typeof import('@/lib/api/client')>();
  return { ...real, api: { ...real.api, post } };
});

const HFD = 'hfd_standard';

function show() {
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/additionalContactInformation', Component: AdditionalContactPage },
      { path: '/providers/:providerKey/loanPayment', Component: () => <h1>Loan payment screen</h1> },
    ],
    { initialEntries: [`/providers/${HFD}/additionalContactInformation`] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('additional contact screen', () => {
  beforeEach(() => {
    post.mockReset();
    flow.reset();
    flow.set({ providerKey: HFD, lenders: { [HFD]: lender(HFD, 'HFD') } });
  });

  it("checks in the patient's words, masks the phone, then sends the digits and goes to the next open step", async () => {
    post.mockResolvedValue({ providerKey: HFD, status: 'offer_accepted', openSteps: ['loanPayment'] });
    const router = show();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getAllByText('Required Field')).toHaveLength(3);
    expect(post).not.toHaveBeenCalled();
    await userEvent.type(screen.getByLabelText('Their full name'), 'R2 Smith');
    await userEvent.selectOptions(screen.getByLabelText('How do you know them?'), 'sibling');
    const phone = screen.getByLabelText('Their phone number') as HTMLInputElement;
    await userEvent.type(phone, '911555');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('A name may use letters, spaces, apostrophes, periods and hyphens.')).toBeTruthy();
    expect(screen.getByText('Please enter their 10-digit phone number.')).toBeTruthy();
    await userEvent.clear(screen.getByLabelText('Their full name'));
    await userEvent.type(screen.getByLabelText('Their full name'), 'Rosa Díaz-Ortega');
    await userEvent.clear(phone);
    await userEvent.type(phone, '3125550187');
    expect(phone.value).toBe('(312) 555-0187');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe(`/providers/${HFD}/loanPayment`));
    expect(post.mock.calls[0]?.[1]).toEqual({ name: 'Rosa Díaz-Ortega', relationship: 'sibling', phone: '3125550187' });
    expect(JSON.stringify(flow.get())).not.toContain('3125550187');
  });

  it("shows the server's field errors on their fields", async () => {
    post.mockRejectedValue(
      new ApiError(400, {
        code: 'validation_error',
        message: 'Please review the fields below and correct any errors.',
        fieldErrors: [{ field: 'contact.phone', message: 'Please enter their 10-digit phone number.' }],
      }),
    );
    show();
    await userEvent.type(screen.getByLabelText('Their full name'), 'Rosa Diaz');
    await userEvent.selectOptions(screen.getByLabelText('How do you know them?'), 'friend');
    await userEvent.type(screen.getByLabelText('Their phone number'), '3125550187');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Please enter their 10-digit phone number.')).toBeTruthy();
  });
});

describe("contact rules (the server's validate/lendersteps.go)", () => {
  it('answers the same words for the same input', () => {
    expect(contactErrors({ name: ' ', relationship: '', phone: '' })).toEqual({
      name: 'Required Field',
      relationship: 'Required Field',
      phone: 'Required Field',
    });
    expect(contactErrors({ name: 'Ana', relationship: 'landlord', phone: '2125550187' })).toEqual({
      relationship: 'Please choose how you know them.',
    });
    expect(contactErrors({ name: 'A', relationship: 'friend', phone: '1125550187' })).toEqual({
      name: 'Please enter their full name (2 to 60 characters).',
      phone: 'Please enter their 10-digit phone number.',
    });
    expect(contactErrors({ name: 'ねこ 田中', relationship: 'coworker', phone: '(212) 555-0187' })).toEqual({});
    expect(maskPhone('21255')).toBe('(212) 55');
  });
});

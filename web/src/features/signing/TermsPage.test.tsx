import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ApiError } from '@/lib/api/client';
import type { Document, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';

const doc: Document = { id: 'esign-doc', version: '1', title: 'E-sign consent', contentType: 'text/plain', content: 'You agree…', sha256: 'abc' };
const signed = 'data:image/png;base64,' + Buffer.alloc(4000, 3).toString('base64');

const esignAndComplete = vi.hoisted(() => vi.fn());
vi.mock('./api/esign', () => ({ esignAndComplete }));
vi.mock('@/lib/consent/documents', async (actual) => ({
  ...(await actual<typeof import('@/lib/consent/documents')>()),
  loadDisclosure: async () => doc,
}));
// The pad itself needs a canvas; here it hands over one valid black-and-white PNG.
vi.mock('./SignatureField', () => ({
  SignatureField: ({ onChange }: { onChange: (v: unknown) => void }) => (
    <button type="button" onClick={() => onChange({ valid: true, problem: null, png: signed })}>
      Sign here
    </button>
  ),
}));

const { TermsPage } = await import('./TermsPage');

afterEach(() => esignAndComplete.mockReset());

function stillWorking(): ApiError {
  const e = new ApiError(409, { code: 'in_flight' });
  e.stillWorking = true;
  return e;
}

describe('signing when the lender is still working on it', () => {
  it('shows the calm message, and Try again sends exactly the same signature', async () => {
    flow.reset();
    flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'synchrony_standard', applyMode: 'prequalify' });
    withCatalogue();
    esignAndComplete.mockRejectedValueOnce(stillWorking()).mockResolvedValueOnce('/providers/synchrony_standard/complete');
    const router = createMemoryRouter(
      [
        { path: '/providers/:providerKey/terms', Component: TermsPage },
        { path: '/providers/:providerKey/complete', element: <h1>Complete screen</h1> },
        { path: '/error', element: <h1>Error page</h1> },
      ],
      { initialEntries: ['/providers/synchrony_standard/terms'] },
    );
    render(<RouterProvider router={router} />);
    await userEvent.click(await screen.findByLabelText('I agree to sign electronically and to the terms above.'));
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByRole('heading', { name: 'Synchrony is still working on it' })).toBeTruthy();
    expect(screen.queryByText('Error page')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Complete screen')).toBeTruthy();
    expect(esignAndComplete.mock.calls).toEqual([[signed], [signed]]);
  });
});

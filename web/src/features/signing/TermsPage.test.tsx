import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ApiError } from '@/lib/api/client';
import type { Decision, DisclosureKind, Document, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { lender, withCatalogue } from '@/test/catalogue';
import { json, routes } from '@/test/fetch';
import { fixedRatePlan, textDocument } from '@/test/fixtures';

const docs: Record<DisclosureKind | 'agreement', Document> = {
  esign: textDocument('esign-doc', 'E-sign consent'),
  agreement: textDocument('agreement-doc', 'Credit agreement'),
  application: textDocument('application-doc', 'Important disclosures'),
  prequalification: textDocument('prequal-doc', 'Prequalification terms'),
};
const signed = 'data:image/png;base64,' + Buffer.alloc(4000, 3).toString('base64');
const signature = { valid: true, problem: null, png: signed, method: 'drawn' as const };
const consentTo = (d: Document) => ({ documentId: d.id, documentVersion: d.version, documentSha256: d.sha256, agreed: true });

const esignAndComplete = vi.hoisted(() => vi.fn());
vi.mock('./api/esign', async (actual) => ({
  ...(await actual<typeof import('./api/esign')>()),
  esignAndComplete,
  loadAgreement: async () => docs.agreement,
}));
vi.mock('@/lib/consent/documents', async (actual) => ({
  ...(await actual<typeof import('@/lib/consent/documents')>()),
  loadDisclosure: async (_: string, kind: DisclosureKind) => docs[kind],
}));
// The pad itself needs a canvas; here it hands over one valid black-and-white PNG.
vi.mock('./SignatureField', () => ({
  SignatureField: ({ onChange }: { onChange: (v: unknown) => void }) => (
    <button type="button" onClick={() => onChange(signature)}>
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

const decision = (operation: string, responseCode: string): Decision =>
  ({ providerKey: 'synchrony_standard', operation, responseCode, approvedAmountCents: 500000, stipulations: [] }) as unknown as Decision;

/** An accepted offer from a soft pull (prequalify) or from a full application. */
function accepted(from: 'prequalify' | 'full'): void {
  flow.reset();
  flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'synchrony_standard', applyMode: from });
  withCatalogue();
  flow.response(
    'synchrony_standard',
    from === 'full' ? { apply: decision('apply', 'approved'), accepted: true } : { preAuth: decision('prequalify', 'prequalified'), accepted: true },
  );
}

function renderTerms(): void {
  const router = createMemoryRouter(
    [
      { path: '/providers/:providerKey/terms', Component: TermsPage },
      { path: '/providers/:providerKey/complete', element: <h1>Complete screen</h1> },
      { path: '/error', element: <h1>Error page</h1> },
    ],
    { initialEntries: ['/providers/synchrony_standard/terms'] },
  );
  render(<RouterProvider router={router} />);
}

const ESIGN = 'I agree to receive and sign my documents from Synchrony electronically.';
const AGREEMENT = 'I have read the Synchrony agreement and I agree to its terms.';
const HARD_PULL = 'I allow Synchrony to get my full credit report (a hard credit check) to open my account.';

describe('signing after a quick check (soft pull)', () => {
  beforeEach(() => accepted('prequalify'));

  it('shows the agreement and the hard-pull authorisation, each with its own unticked box', async () => {
    renderTerms();
    expect(await screen.findByRole('heading', { name: 'Your agreement with Synchrony' })).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Permission for a full credit check' })).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Credit agreement' })).toBeTruthy();
    expect(await screen.findByRole('region', { name: 'Important disclosures' })).toBeTruthy();
    for (const label of [ESIGN, AGREEMENT, HARD_PULL]) expect((screen.getByLabelText(label) as HTMLInputElement).checked).toBe(false);
  });

  it('signs nothing until every box is ticked, then sends a consent naming each document shown', async () => {
    esignAndComplete.mockResolvedValueOnce('/providers/synchrony_standard/complete');
    renderTerms();
    await screen.findByRole('region', { name: 'Important disclosures' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    await userEvent.click(screen.getByLabelText(ESIGN));
    await userEvent.click(screen.getByLabelText(AGREEMENT));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    // The hard pull was not agreed to: nothing is sent, and its box says so.
    expect(esignAndComplete).not.toHaveBeenCalled();
    expect(screen.getAllByText('Please check the box to continue')).toHaveLength(1);
    expect(document.activeElement?.id).toBe('hard-pull-consent');
    await userEvent.click(screen.getByLabelText(HARD_PULL));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByText('Complete screen')).toBeTruthy();
    expect(esignAndComplete.mock.calls).toEqual([
      [signature, { consent: consentTo(docs.esign), agreementConsent: consentTo(docs.agreement), hardPullConsent: consentTo(docs.application) }],
    ]);
  });

  it('when a document changed meanwhile, shows the current ones with the boxes unticked again', async () => {
    esignAndComplete.mockRejectedValueOnce(new ApiError(400, { code: 'consent_required' }));
    renderTerms();
    await screen.findByRole('region', { name: 'Important disclosures' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    for (const label of [ESIGN, AGREEMENT, HARD_PULL]) await userEvent.click(screen.getByLabelText(label));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByText('Synchrony has updated these documents. Please read them again and tick each box.')).toBeTruthy();
    for (const label of [ESIGN, AGREEMENT, HARD_PULL]) expect((screen.getByLabelText(label) as HTMLInputElement).checked).toBe(false);
    expect(screen.queryByText('Error page')).toBeNull();
  });
});

describe('signing while a lender step is still open', () => {
  it('goes to the step the server says is open (here the checking account)', async () => {
    routes({
      '/providers/snap_standard/application': [
        json({ providerKey: 'snap_standard', role: 'tertiary', applyMode: 'prequalify', status: 'offer_accepted', openSteps: ['addBankAccount'] }),
      ],
    });
    flow.reset();
    flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'snap_standard', applyMode: 'prequalify' });
    withCatalogue();
    flow.response('snap_standard', { preAuth: { ...decision('prequalify', 'prequalified'), providerKey: 'snap_standard' }, accepted: true });
    esignAndComplete.mockRejectedValueOnce(new ApiError(409, { code: 'conflict', message: 'Please add the checking account…' }));
    const router = createMemoryRouter(
      [
        { path: '/providers/:providerKey/terms', Component: TermsPage },
        { path: '/providers/:providerKey/addBankAccount', element: <h1>Bank account screen</h1> },
        { path: '/error', element: <h1>Error page</h1> },
      ],
      { initialEntries: ['/providers/snap_standard/terms'] },
    );
    render(<RouterProvider router={router} />);
    await screen.findByRole('region', { name: 'Important disclosures' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    for (const box of screen.getAllByRole('checkbox')) await userEvent.click(box);
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByText('Bank account screen')).toBeTruthy();
  });
});

describe('signing after a full application', () => {
  it('asks for the agreement but not a second hard-pull authorisation', async () => {
    accepted('full');
    esignAndComplete.mockResolvedValueOnce('/providers/synchrony_standard/complete');
    renderTerms();
    await screen.findByRole('region', { name: 'Credit agreement' });
    expect(screen.queryByRole('heading', { name: 'Permission for a full credit check' })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Terms of your application' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    await userEvent.click(screen.getByLabelText(ESIGN));
    await userEvent.click(screen.getByLabelText(AGREEMENT));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByText('Complete screen')).toBeTruthy();
    expect(esignAndComplete.mock.calls).toEqual([
      [signature, { consent: consentTo(docs.esign), agreementConsent: consentTo(docs.agreement), hardPullConsent: undefined }],
    ]);
  });
});

describe('signing with an account the patient already has', () => {
  it('says the account they have is used, with no new credit check and nothing opened', async () => {
    accepted('prequalify');
    flow.response('synchrony_standard', { preAuth: { ...decision('prequalify', 'approved'), existingAccount: true, operation: 'prequalify' } });
    esignAndComplete.mockResolvedValueOnce('/providers/synchrony_standard/complete');
    renderTerms();
    await screen.findByRole('region', { name: 'Credit agreement' });
    expect(
      screen.getByText('You are using the Synchrony account you already have: nothing new is opened, and there is no new credit check.'),
    ).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Permission for a full credit check' })).toBeNull();
    expect(document.body.textContent).not.toMatch(/open your account|open my account|hard credit check/i);
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    await userEvent.click(screen.getByLabelText(ESIGN));
    await userEvent.click(screen.getByLabelText(AGREEMENT));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByText('Complete screen')).toBeTruthy();
    expect(esignAndComplete.mock.calls[0]![1]).toEqual({
      consent: consentTo(docs.esign),
      agreementConsent: consentTo(docs.agreement),
      hardPullConsent: undefined,
    });
  });
});

describe('signing a lease (lease-to-own: Snap)', () => {
  it('asks only to verify what the patient gave and open the lease, never for a credit check', async () => {
    flow.reset();
    flow.set({ session: { webSessionId: 's1' } as Session, providerKey: 'snap_standard', applyMode: 'prequalify' });
    withCatalogue([lender('snap_standard', 'Snap', { kind: 'lease_to_own' })]);
    flow.response('snap_standard', { preAuth: { ...decision('prequalify', 'prequalified'), providerKey: 'snap_standard' }, accepted: true });
    esignAndComplete.mockResolvedValueOnce('/providers/snap_standard/complete');
    renderTerms();
    await screen.findByRole('region', { name: 'Important disclosures' });
    // Before, Snap's "no credit needed" lease was asked for "Permission for a full credit check".
    expect(screen.getByRole('heading', { name: 'Permission to open your lease' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Permission for a full credit check' })).toBeNull();
    // Our words on the screen, the lender's own documents aside.
    const ours = Array.from(document.querySelectorAll('h1, h2, p, label'))
      .filter((el) => !el.closest('[role="region"]'))
      .map((el) => el.textContent)
      .join(' ');
    expect(ours).not.toMatch(/credit check|credit report|credit score|inquiry/i);
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    await userEvent.click(screen.getByLabelText('I agree to receive and sign my documents from Snap electronically.'));
    await userEvent.click(screen.getByLabelText('I have read the Snap agreement and I agree to its terms.'));
    await userEvent.click(screen.getByLabelText('I allow Snap to verify the information I gave and to open my lease.'));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByText('Complete screen')).toBeTruthy();
    // The server still records the consent to the lender's application disclosures, now in the lease's words.
    expect(esignAndComplete.mock.calls[0]![1]).toEqual({
      consent: consentTo(docs.esign),
      agreementConsent: consentTo(docs.agreement),
      hardPullConsent: consentTo(docs.application),
    });
  });
});

describe('signing when the lender is still working on it', () => {
  it('shows the calm message, and Try again sends exactly the same signature and consents', async () => {
    accepted('prequalify');
    esignAndComplete.mockRejectedValueOnce(stillWorking()).mockResolvedValueOnce('/providers/synchrony_standard/complete');
    renderTerms();
    await screen.findByRole('region', { name: 'Important disclosures' });
    for (const label of [ESIGN, AGREEMENT, HARD_PULL]) await userEvent.click(screen.getByLabelText(label));
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByRole('heading', { name: 'Synchrony is still working on it' })).toBeTruthy();
    expect(screen.queryByText('Error page')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Complete screen')).toBeTruthy();
    expect(esignAndComplete.mock.calls).toHaveLength(2);
    expect(esignAndComplete.mock.calls[1]).toEqual(esignAndComplete.mock.calls[0]);
    expect(esignAndComplete.mock.calls[0]![0]).toEqual(signature);
  });
});

describe('signing after the agreement was agreed on its own screen', () => {
  it('says so, shows no second agreement box, and sends no agreement consent', async () => {
    accepted('prequalify');
    withCatalogue([lender('synchrony_standard', 'Synchrony', { stepsBeforeSigning: ['quiz', 'agreement'] })]);
    esignAndComplete.mockResolvedValueOnce('/providers/synchrony_standard/complete');
    renderTerms();
    expect(await screen.findByText(/You read and agreed to the Synchrony agreement on the screen before this one/)).toBeTruthy();
    expect(screen.queryByLabelText(AGREEMENT)).toBeNull();
    expect(screen.queryByRole('region', { name: 'Credit agreement' })).toBeNull();
    await screen.findByRole('region', { name: 'Important disclosures' });
    await userEvent.click(screen.getByRole('button', { name: 'Sign here' }));
    await userEvent.click(screen.getByLabelText(ESIGN));
    await userEvent.click(screen.getByLabelText(HARD_PULL));
    await userEvent.click(screen.getByRole('button', { name: 'Sign and finish' }));
    expect(await screen.findByText('Complete screen')).toBeTruthy();
    expect(esignAndComplete.mock.calls).toEqual([
      [signature, { consent: consentTo(docs.esign), agreementConsent: undefined, hardPullConsent: consentTo(docs.application) }],
    ]);
  });
});

describe('the plan being signed for', () => {
  it('lists the chosen plan’s figures as the review did, and none of another lender’s', async () => {
    accepted('prequalify');
    flow.set({ selectedPaymentPlan: fixedRatePlan('synchrony_standard') });
    renderTerms();
    const plan = await screen.findByRole('region', { name: 'The plan you are signing for' });
    // Before: the signing screen showed no money at all.
    const rows = [...plan.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(rows).toEqual([
      ['Monthly payment', '$224.44'],
      ['Amount financed', '$4,500.00'],
      ['Payments', '23 payments of $224.44 and a final payment of $224.47'],
      ['APR', '17.90%'],
      ['Finance charge', '$886.59'],
      ['Total of payments', '$5,386.59'],
      ['Total cost', '$5,386.59'],
    ]);
  });

  it('shows no plan when the plan chosen is another lender’s', async () => {
    accepted('prequalify');
    flow.set({ selectedPaymentPlan: fixedRatePlan('fortiva_standard') });
    renderTerms();
    await screen.findByRole('checkbox', { name: ESIGN });
    expect(screen.queryByRole('region', { name: 'The plan you are signing for' })).toBeNull();
  });
});

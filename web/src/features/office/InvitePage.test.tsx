import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import type { OfficeInvite } from './api/applications';
import { forgetOfficeSession } from './auth';
import { NOT_SENT_HINT } from './InviteForm';
import { OfficeInvitePage } from './InvitePage';
import { OfficePage } from './OfficePages';
import { session, signedOut401, stubOffice } from './testing';
import { untilOf } from './words';

const CONSENT_LABEL = 'The patient gave us this number and agreed to be texted this link.';

const invite: OfficeInvite = {
  id: 'inv-1',
  link: 'https://chairside.example/start/tokens/tok-abc',
  expiresAt: '2030-01-03T15:04:00Z',
  purchaseAmountCents: 320_000,
  firstName: 'Ann',
  lastName: 'Approve',
  experienceType: 'at_home',
  qr: { size: 3, rows: ['101', '010', '111'] },
  sentTo: [
    { channel: 'sms', to: '(•••) •••-4567' },
    { channel: 'email', to: 'a•••@example.com', held: true },
  ],
};

function open() {
  const router = createMemoryRouter(
    [
      { path: '/office', Component: OfficePage },
      { path: '/office/invite', Component: OfficeInvitePage },
    ],
    { initialEntries: ['/office/invite'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

function described(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  forgetOfficeSession();
});

describe('inviting a patient', () => {
  it('says what is wrong with the amount on its field and sends nothing', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)] });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Invite a patient' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    const amount = screen.getByLabelText('Treatment amount');
    expect(described(amount)).toBe('In dollars, for example 3,200 Error: Enter the treatment amount.');
    expect(document.activeElement).toBe(amount);
    await userEvent.type(amount, '100001');
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    expect(described(amount)).toContain('Enter an amount between $1.00 and $100,000.00.');
    expect(sent.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('sends the amount in cents with the CSRF token, then shows the QR code, the link, the expiry and where it is sent', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)], 'POST /office/invites': [json(invite, 201)] });
    open();
    await userEvent.type(await screen.findByLabelText('Treatment amount'), '$3,200.00');
    await userEvent.type(screen.getByLabelText('First name'), 'Ann');
    await userEvent.type(screen.getByLabelText('Last name'), 'Approve');
    expect(described(screen.getByLabelText('Email (optional)'))).toBe('We email the link to this address.');
    expect(screen.queryByLabelText(CONSENT_LABEL)).toBeNull();
    await userEvent.type(screen.getByLabelText('Mobile phone (optional)'), '(555) 234-5678');
    expect(described(screen.getByLabelText('Mobile phone (optional)'))).toBe('We text the link to this number.');
    // With a number, the email waits behind the text.
    expect(described(screen.getByLabelText('Email (optional)'))).toBe('We email the link only if the text does not arrive.');
    expect((screen.getByRole('radio', { name: 'Here in the office' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('radio', { name: 'At home, on their own phone' }));
    expect((screen.getByRole('radio', { name: 'English' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('radio', { name: 'Spanish (Español)' }));
    // No text without the patient's agreement, which the desk confirms.
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    const consent = screen.getByLabelText(CONSENT_LABEL);
    expect(described(consent)).toContain('Confirm that the patient gave you this number to be texted the link');
    expect(document.activeElement).toBe(consent);
    expect(sent.filter((c) => c.method === 'POST')).toHaveLength(0);
    await userEvent.click(consent);
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));

    const heading = await screen.findByRole('heading', { level: 1, name: 'Invitation ready' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    const post = sent.find((c) => c.method === 'POST')!;
    expect(post.path).toBe('/office/invites');
    expect(post.csrf).toBe('csrf-1');
    expect(JSON.parse(post.body!)).toEqual({
      purchaseAmountCents: 320_000,
      firstName: 'Ann',
      lastName: 'Approve',
      mobilePhone: '(555) 234-5678',
      textConsent: true,
      language: 'es',
      experienceType: 'at_home',
    });

    const qr = screen.getByRole('img', { name: 'QR code of the patient’s link' });
    expect(qr.tagName.toLowerCase()).toBe('svg');
    // 3 modules and a quiet zone of 4 on each side.
    expect(qr.getAttribute('viewBox')).toBe('0 0 11 11');
    expect(qr.querySelector('path')!.getAttribute('d')).toBe('M4 4h1v1h-1zM6 4h1v1h-1zM5 5h1v1h-1zM4 6h3v1h-3z');
    expect((screen.getByLabelText('Link') as HTMLInputElement).value).toBe(invite.link);
    expect((screen.getByLabelText('Link') as HTMLInputElement).readOnly).toBe(true);
    expect(screen.getByText(`Works once, until ${untilOf(invite.expiresAt)}.`)).toBeTruthy();
    expect(screen.getByText('By text message to (•••) •••-4567')).toBeTruthy();
    expect(screen.getByText('By email to a•••@example.com, only if the text does not arrive')).toBeTruthy();
    expect(screen.getByText('For Ann Approve: $3,200.00 of treatment, applying at home, on their own phone.')).toBeTruthy();
    // Nothing of the invitation is kept by the browser.
    expect(window.sessionStorage.length + window.localStorage.length).toBe(0);
  });

  it('says plainly when texts and emails only reach the server’s log', async () => {
    const logOnly = { ...session, office: { ...session.office, messagesDelivered: false, textsDelivered: false, emailsDelivered: false } };
    stubOffice({ 'GET /office/session': [json(logOnly)], 'POST /office/invites': [json(invite, 201)] });
    open();
    const phone = await screen.findByLabelText('Mobile phone (optional)');
    expect(described(phone)).toBe(NOT_SENT_HINT);
    expect(described(screen.getByLabelText('Email (optional)'))).toBe(NOT_SENT_HINT);
    await userEvent.type(screen.getByLabelText('Treatment amount'), '3200');
    await userEvent.type(phone, '5552345678');
    await userEvent.click(screen.getByLabelText(CONSENT_LABEL));
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    await screen.findByRole('heading', { level: 1, name: 'Invitation ready' });
    expect(
      screen.getByText(
        'Texts and emails are not set up for your office yet, so nothing was sent to (•••) •••-4567 or a•••@example.com. Show the QR code or copy the link for the patient.',
      ),
    ).toBeTruthy();
    expect(screen.queryByText(/^By text message to/)).toBeNull();
  });

  it('copies the link, or selects it where the clipboard is refused', async () => {
    stubOffice({ 'GET /office/session': [json(session)], 'POST /office/invites': [json({ ...invite, sentTo: [] }, 201)] });
    const writeText = vi.fn().mockResolvedValueOnce(undefined).mockRejectedValueOnce(new Error('denied'));
    open();
    await userEvent.type(await screen.findByLabelText('Treatment amount'), '3200');
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    await screen.findByRole('heading', { level: 1, name: 'Invitation ready' });
    // user-event installs its own clipboard; ours replaces it.
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    expect(screen.getByText('The link is not being sent anywhere: show the QR code or copy the link for the patient.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(writeText).toHaveBeenCalledWith(invite.link);
    expect(await screen.findByText('Link copied.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    expect(await screen.findByText(/We could not copy it here\. The link is selected/)).toBeTruthy();
  });

  it('prints with the browser’s print', async () => {
    stubOffice({ 'GET /office/session': [json(session)], 'POST /office/invites': [json(invite, 201)] });
    const print = vi.spyOn(window, 'print').mockImplementation(() => undefined);
    open();
    await userEvent.type(await screen.findByLabelText('Treatment amount'), '3200');
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Print' }));
    expect(print).toHaveBeenCalledOnce();
  });

  it('puts the server’s field errors on their fields, and other refusals under the form', async () => {
    stubOffice({
      'GET /office/session': [json(session)],
      'POST /office/invites': [
        json(
          {
            code: 'validation_error',
            message: 'Check the highlighted fields.',
            fieldErrors: [
              { field: 'mobilePhone', message: 'This is not a mobile number.' },
              { field: 'email', message: 'This address cannot receive email.' },
            ],
          },
          400,
        ),
        json({ code: 'rate_limited', message: 'Too many invitations. Try again in a minute.' }, 429),
      ],
    });
    open();
    await userEvent.type(await screen.findByLabelText('Treatment amount'), '3200');
    await userEvent.type(screen.getByLabelText('Mobile phone (optional)'), '555 234 5678');
    await userEvent.click(screen.getByLabelText(CONSENT_LABEL));
    await userEvent.type(screen.getByLabelText('Email (optional)'), 'ann@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    const phone = screen.getByLabelText('Mobile phone (optional)');
    await waitFor(() => expect(described(phone)).toBe('We text the link to this number. Error: This is not a mobile number.'));
    expect(described(screen.getByLabelText('Email (optional)'))).toContain('This address cannot receive email.');
    expect(document.activeElement).toBe(phone);
    expect(screen.queryByRole('alert')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Too many invitations. Try again in a minute.');
  });

  it('cancels the new invitation after asking, and says the link no longer works', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'POST /office/invites': [json(invite, 201)],
      'DELETE /office/invites/inv-1': [new Response(null, { status: 204 })],
    });
    const router = open();
    await userEvent.type(await screen.findByLabelText('Treatment amount'), '3200');
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel invitation' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel the invitation for Ann Approve?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep the invitation' }));
    expect(sent.filter((c) => c.method === 'DELETE')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Cancel invitation' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel it' }));
    const done = await screen.findByText('Invitation canceled. The link no longer works.');
    await waitFor(() => expect(document.activeElement).toBe(done));
    const del = sent.find((c) => c.method === 'DELETE')!;
    expect(del.path).toBe('/office/invites/inv-1');
    expect(del.csrf).toBe('csrf-1');
    expect(screen.queryByRole('img', { name: /QR code/ })).toBeNull();
    expect(screen.queryByLabelText('Link')).toBeNull();

    await userEvent.click(screen.getByRole('link', { name: 'Done' }));
    expect(router.state.location.pathname).toBe('/office');
  });

  it('shows the server’s words when the patient already opened the link', async () => {
    stubOffice({
      'GET /office/session': [json(session)],
      'POST /office/invites': [json(invite, 201)],
      'DELETE /office/invites/inv-1': [json({ code: 'conflict', message: 'The patient already opened this link; it cannot be canceled.' }, 409)],
    });
    open();
    await userEvent.type(await screen.findByLabelText('Treatment amount'), '3200');
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel invitation' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, cancel it' }));
    expect((await within(screen.getByRole('dialog')).findByRole('alert')).textContent).toBe(
      'The patient already opened this link; it cannot be canceled.',
    );
  });

  it('goes back to the sign-in form when the session has ended', async () => {
    stubOffice({ 'GET /office/session': [json(session)], 'POST /office/invites': [signedOut401()] });
    open();
    await userEvent.type(await screen.findByLabelText('Treatment amount'), '3200');
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Office sign-in' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('You are signed out. Please sign in again.');
  });
});

describe('inviting a patient found in Open Dental', () => {
  const maria = {
    id: '15',
    firstName: 'Maria',
    middleInitial: 'J',
    lastName: 'Lopez',
    birthdate: '1984-03-09',
    mobilePhone: '(503) 555-0142',
    email: 'maria.lopez@example.com',
    language: 'es' as const,
    textOk: true,
  };
  const plan = (id: string, heading: string, patientCents: number) => ({
    id,
    heading,
    signed: false,
    procedures: [],
    totals: { feeCents: 337_500, insuranceCents: 148_750, discountCents: 2_000, patientCents },
  });

  it('finds the patient, proposes the plan’s patient share, and prefills the invitation made for their chart', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(session)],
      'GET /office/records': [json({ available: true, connected: true, state: 'connected', postOn: 'signed', keyEnd: 'fghi' })],
      'GET /office/records/patients': [json({ patients: [maria, { ...maria, id: '17', firstName: 'Ana', middleInitial: '', birthdate: '' }] })],
      'GET /office/records/patients/15': [
        json({ patient: maria, plans: [plan('301', 'Crowns and root canal', 186_750), plan('302', 'Whitening', 45_000)] }),
      ],
      'POST /office/invites': [json(invite, 201)],
    });
    open();
    await userEvent.type(await screen.findByLabelText('Last name or chart number'), 'lopez');
    await userEvent.click(screen.getByRole('button', { name: 'Find' }));
    const found = await screen.findByRole('list', { name: 'Patients found' });
    expect(
      within(found)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Maria J. Lopez, born 03/09/1984, chart 15', 'Ana Lopez, no date of birth, chart 17']);
    expect(sent.find((c) => c.path === '/office/records/patients')!.query.get('lastName')).toBe('lopez');
    await userEvent.click(within(found).getByRole('button', { name: /Maria/ }));
    const first = await screen.findByRole('radio', {
      name: 'Crowns and root canal: $1,867.50 for the patient (treatment $3,375.00, insurance $1,487.50, discounts $20.00)',
    });
    expect((first as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByRole('button', { name: 'Use for the invitation' }));

    expect(await screen.findByText(/From Open Dental: Maria Lopez, chart 15, Crowns and root canal\./)).toBeTruthy();
    expect((screen.getByLabelText('Treatment amount') as HTMLInputElement).value).toBe('1867.50');
    expect((screen.getByLabelText('Last name') as HTMLInputElement).value).toBe('Lopez');
    expect((screen.getByLabelText('Mobile phone (optional)') as HTMLInputElement).value).toBe('(503) 555-0142');
    expect((screen.getByRole('radio', { name: 'Spanish (Español)' }) as HTMLInputElement).checked).toBe(true);
    await userEvent.click(screen.getByLabelText(CONSENT_LABEL));
    await userEvent.click(screen.getByRole('button', { name: 'Create invitation' }));
    await screen.findByRole('heading', { level: 1, name: 'Invitation ready' });
    expect(JSON.parse(sent.find((c) => c.method === 'POST')!.body!)).toEqual({
      purchaseAmountCents: 186_750,
      firstName: 'Maria',
      lastName: 'Lopez',
      mobilePhone: '(503) 555-0142',
      textConsent: true,
      email: 'maria.lopez@example.com',
      language: 'es',
      experienceType: 'in_store',
      recordPatientId: '15',
    });
  });

  it('offers no search when the office has not connected Open Dental', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)], 'GET /office/records': [json({ available: true, connected: false })] });
    open();
    expect(await screen.findByLabelText('Treatment amount')).toBeTruthy();
    await waitFor(() => expect(sent.some((c) => c.path === '/office/records')).toBe(true));
    await new Promise((r) => setTimeout(r, 0));
    expect(screen.queryByRole('heading', { name: 'Find the patient in Open Dental' })).toBeNull();
  });
});

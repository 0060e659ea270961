import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import { OfficePage } from './OfficePages';
import { OfficeTwoStepPage } from './TwoStepPage';
import { halfway, liveListsFaked, session, stubOffice } from './testing';

function open(path = '/office') {
  const router = createMemoryRouter(
    [
      { path: '/office', Component: OfficePage },
      { path: '/office/two-step', Component: OfficeTwoStepPage },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

const CODES = Array.from({ length: 10 }, (_, i) => `abcd-efgh-jkmn-pq${String(i).padStart(2, '0')}`);
const SETUP = {
  key: 'ABCD-EFGH-IJKL-MNOP',
  uri: 'otpauth://totp/Chairside:desk?secret=ABCDEFGHIJKLMNOP',
  qr: { size: 3, rows: ['101', '010', '101'] },
};
const wrongCode = () => json({ code: 'session_invalid', message: 'That code is not right. Check the app and try again.' }, 401);

liveListsFaked();

describe('two-step sign-in', () => {
  it('asks the code after the password; a wrong one says so and stays, a right one shows the day', async () => {
    const sent = stubOffice({
      'GET /office/session': [json({ code: 'session_invalid', message: 'You are signed out.' }, 401)],
      'POST /office/session': [json(halfway('second_factor'))],
      'POST /office/session/second-factor': [
        wrongCode(),
        json({ code: 'rate_limited', message: 'Too many tries. Try again in 15 minutes.' }, 429),
        json(session),
      ],
    });
    open();
    await userEvent.type(await screen.findByLabelText('Email'), 'desk@brightsmiles.example');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery staple');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));

    expect(await screen.findByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeTruthy();
    expect(screen.getByText(/6-digit code/).textContent).toMatch(/recovery codes/);
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeTruthy();
    const code = screen.getByLabelText('Code');
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');

    await userEvent.type(code, '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not right. Check the app and try again.');
    expect(screen.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeTruthy();
    expect((screen.getByLabelText('Code') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText('Code'));

    await userEvent.type(screen.getByLabelText('Code'), '654321');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Too many tries. Try again in 15 minutes.'));

    // A recovery code has letters and dashes: the field takes it as typed.
    await userEvent.type(screen.getByLabelText('Code'), ' abcd-efgh-jkmn-pqrs ');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeTruthy();
    const posts = sent.filter((c) => c.path === '/office/session/second-factor');
    expect(posts.map((c) => JSON.parse(c.body!))).toEqual([{ code: '123456' }, { code: '654321' }, { code: 'abcd-efgh-jkmn-pqrs' }]);
    expect(posts.every((c) => c.csrf === 'csrf-1')).toBe(true);
  });

  it('sets up the app where it is required: QR code and key, then 10 recovery codes, then the day', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(halfway('set_up_second_factor')), json(session)],
      'POST /office/second-factor/setup': [json(SETUP)],
      'POST /office/second-factor/confirm': [wrongCode(), json({ codes: CODES })],
    });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Set up two-step sign-in' })).toBeTruthy();
    expect(screen.getByText(/Google Authenticator, Microsoft Authenticator or 1Password/)).toBeTruthy();
    expect(await screen.findByRole('img', { name: 'QR code for your authenticator app' })).toBeTruthy();
    expect((screen.getByLabelText('Key') as HTMLInputElement).value).toBe('ABCD-EFGH-IJKL-MNOP');
    expect(screen.getByLabelText('Key').hasAttribute('readonly')).toBe(true);

    await userEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));
    expect(document.activeElement).toBe(screen.getByLabelText('6-digit code'));
    expect(sent.filter((c) => c.path === '/office/second-factor/confirm')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('6-digit code'), '111111');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));
    expect((await screen.findByRole('alert')).textContent).toBe('That code is not right. Check the app and try again.');
    expect(screen.getByRole('heading', { level: 1, name: 'Set up two-step sign-in' })).toBeTruthy();

    await userEvent.type(screen.getByLabelText('6-digit code'), '222 222');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Save your recovery codes' })).toBeTruthy();
    expect(
      within(screen.getByRole('list', { name: 'Recovery codes' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    expect(screen.getByText(/Each code works once/).textContent).toMatch(/will not be shown again/);

    await userEvent.click(screen.getByRole('button', { name: 'I saved my codes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeTruthy();
    expect(sent.filter((c) => c.path === '/office/second-factor/setup')).toHaveLength(1);
    expect(sent.filter((c) => c.method === 'GET' && c.path === '/office/session')).toHaveLength(2);
    expect(sent.filter((c) => c.path === '/office/second-factor/confirm').map((c) => JSON.parse(c.body!))).toEqual([
      { code: '111111' },
      { code: '222222' },
    ]);
  });

  it('offers the setup from the bar where it is optional, at /office/two-step', async () => {
    const optional = { ...session, staff: { ...session.staff, secondFactor: false } };
    const sent = stubOffice({
      'GET /office/session': [json(optional), json(session)],
      'POST /office/second-factor/setup': [json(SETUP)],
      'POST /office/second-factor/confirm': [json({ codes: CODES })],
    });
    const router = open();
    await userEvent.click(await screen.findByRole('link', { name: 'Set up two-step sign-in' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Set up two-step sign-in' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/office/two-step');
    await screen.findByLabelText('Key');
    await userEvent.type(screen.getByLabelText('6-digit code'), '222222');
    await userEvent.click(screen.getByRole('button', { name: 'Turn on two-step sign-in' }));
    await userEvent.click(await screen.findByRole('button', { name: 'I saved my codes' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/office');
    expect(screen.queryByRole('link', { name: 'Set up two-step sign-in' })).toBeNull();
    expect(sent.filter((c) => c.path === '/office/second-factor/setup')).toHaveLength(1);
  });

  it('tells an account that has it already instead of making a new key', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)] });
    open('/office/two-step');
    expect(await screen.findByRole('heading', { level: 1, name: 'Two-step sign-in is on' })).toBeTruthy();
    expect(sent.filter((c) => c.method === 'POST')).toHaveLength(0);
  });
});

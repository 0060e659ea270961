import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import { OfficePage } from './OfficePages';
import { halfway, liveListsFaked, session, stubOffice } from './testing';

function open() {
  render(<RouterProvider router={createMemoryRouter([{ path: '/office', Component: OfficePage }], { initialEntries: ['/office'] })} />);
}

const signedOut = () => json({ code: 'session_invalid', message: 'You are signed out.' }, 401);
const OPTIONS = { ceremonyId: 'c1', options: { challenge: 'abc', rpId: 'localhost' } };

/** browserWithPasskeys stands in for a browser's WebAuthn: get answers the credential, or the error given. */
function browserWithPasskeys(get: () => Promise<unknown>) {
  vi.stubGlobal('PublicKeyCredential', {
    parseRequestOptionsFromJSON: (o: unknown) => ({ parsed: o }),
    parseCreationOptionsFromJSON: (o: unknown) => ({ parsed: o }),
  });
  const credentials = { get: vi.fn(get), create: vi.fn() };
  vi.stubGlobal('navigator', { ...navigator, credentials });
  return credentials;
}

liveListsFaked();

describe('passkeys', () => {
  it('offers no passkey where the browser has none', async () => {
    stubOffice({ 'GET /office/session': [signedOut()] });
    open();
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with a passkey' })).toBeNull();
  });

  it('signs in with a passkey alone: the browser answers the server’s options, and the day follows', async () => {
    const credentials = browserWithPasskeys(async () => ({ toJSON: () => ({ id: 'cred-1', type: 'public-key' }) }));
    const sent = stubOffice({
      'GET /office/session': [signedOut()],
      'POST /office/session/passkey/begin': [json(OPTIONS)],
      'POST /office/session/passkey': [json(session)],
      'GET /office/applications': [json({ day: '2026-11-28', applications: [] })],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with a passkey' }));
    expect(await screen.findByText(/Signed in as/)).toBeTruthy();
    expect(credentials.get).toHaveBeenCalledWith({ publicKey: { parsed: OPTIONS.options } });
    const finish = sent.find((s) => s.path === '/office/session/passkey')!;
    expect(JSON.parse(finish.body!)).toEqual({ ceremonyId: 'c1', credential: { id: 'cred-1', type: 'public-key' } });
  });

  it('says so when the person closes the browser’s passkey window, and answers the second step with one', async () => {
    browserWithPasskeys(async () => {
      throw new DOMException('closed', 'NotAllowedError');
    });
    stubOffice({
      'GET /office/session': [json({ ...halfway('second_factor'), passkeys: true })],
      'POST /office/session/second-factor/passkey/begin': [json(OPTIONS)],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Use a passkey instead' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No passkey was used. Try again, or use your password and code.');
    expect(screen.getByRole('heading', { level: 1, name: 'Two-step sign-in' })).toBeTruthy();
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import { OfficePage, OfficeSetupPage } from './OfficePages';
import { session, signedOut401 as signedOut, stubOffice as stub } from './testing';

function open(path: string) {
  const router = createMemoryRouter(
    [
      { path: '/office', Component: OfficePage },
      { path: '/office/setup/:token', Component: OfficeSetupPage },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

/** described is the text an input's aria-describedby points at. */
function described(el: HTMLElement): string {
  const ids = (el.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean);
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('office sign-in', () => {
  it('says what is missing, in words, on the field', async () => {
    const sent = stub({ 'GET /office/session': [signedOut()] });
    open('/office');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(described(screen.getByLabelText('Email'))).toBe('Error: Enter your email address.');
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(described(screen.getByLabelText('Password'))).toBe('Error: Enter your password.');
    expect(sent.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('announces the server’s words for a wrong password and for a lock, and clears the password', async () => {
    stub({
      'GET /office/session': [signedOut()],
      'POST /office/session': [
        json({ code: 'session_invalid', message: 'That email and password do not match. Check them and try again.' }, 401),
        json({ code: 'rate_limited', message: 'Too many tries. Try again in 15 minutes or ask your office manager.' }, 429),
      ],
    });
    open('/office');
    await userEvent.type(await screen.findByLabelText('Email'), 'desk@brightsmiles.example');
    await userEvent.type(screen.getByLabelText('Password'), 'not the password');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    expect((await screen.findByRole('alert')).textContent).toContain('That email and password do not match. Check them and try again.');
    expect((screen.getByLabelText('Password') as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));

    await userEvent.type(screen.getByLabelText('Password'), 'still not it');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('Too many tries. Try again in 15 minutes or ask your office manager.'),
    );
  });

  it('signs in, shows who and where, and signs out with the CSRF token', async () => {
    const sent = stub({
      'GET /office/session': [signedOut()],
      'POST /office/session': [json(session)],
      'DELETE /office/session': [new Response(null, { status: 204 })],
    });
    open('/office');
    await userEvent.type(await screen.findByLabelText('Email'), '  desk@brightsmiles.example ');
    await userEvent.type(screen.getByLabelText('Password'), 'correct horse battery staple');
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
    const heading = await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Dental' });
    // Focus moves to the new heading once the screen has rendered: wait for it rather than race it.
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(screen.getByText(/Signed in as/).textContent).toContain('Signed in as desk@brightsmiles.example at Bright Smiles Dental.');
    const post = sent.find((c) => c.method === 'POST')!;
    expect(JSON.parse(post.body!)).toEqual({ email: 'desk@brightsmiles.example', password: 'correct horse battery staple' });
    expect(window.sessionStorage.length + window.localStorage.length).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(sent.find((c) => c.method === 'DELETE')?.csrf).toBe('csrf-1');
  });

  it('shows who is signed in after a reload', async () => {
    stub({ 'GET /office/session': [json({ ...session, csrfToken: 'csrf-2' })] });
    open('/office');
    expect((await screen.findByText(/Signed in as/)).textContent).toContain('at Bright Smiles Dental');
  });
});

describe('office setup link', () => {
  it('refuses a short password before sending, then sets it once', async () => {
    const sent = stub({ 'POST /office/setup/tok123': [new Response(null, { status: 204 })] });
    open('/office/setup/tok123');
    await userEvent.type(await screen.findByLabelText(/New password/), 'short');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(described(screen.getByLabelText(/New password/))).toBe('At least 12 characters Error: Use at least 12 characters.');
    expect(sent).toHaveLength(0);
    await userEvent.type(screen.getByLabelText(/New password/), 'a long enough password');
    await userEvent.click(screen.getByRole('button', { name: 'Set password' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Your password is set' })).toBeTruthy();
    expect(JSON.parse(sent[0]!.body!)).toEqual({ password: 'shorta long enough password' });
  });
});

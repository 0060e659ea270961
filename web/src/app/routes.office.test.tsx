import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import { json, routes as serve } from '@/test/fetch';
import { forgetOfficeSession } from '@/features/office/auth';
import { routes } from './routes';
import { openApp } from './testing';

/*
 * The office's addresses of the route table (docs/behaviour.md, "Routes"):
 * public, outside the patient's journey, each its own screen; signed out,
 * each shows the sign-in form rather than falling through to the root.
 */

const OFFICE = [
  '/office',
  '/office/invite',
  '/office/applications/app-1',
  '/office/setup/tok',
  '/office/staff',
  '/office/audit',
  '/office/funding',
  '/office/records',
  '/office/two-step',
];

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('the office’s addresses', () => {
  it('the table has exactly the documented office addresses', () => {
    const inTable = routes[0]!.children!.map((r) => r.path ?? '').filter((p) => p.startsWith('office'));
    expect(inTable.sort()).toEqual([
      'office',
      'office/applications/:id',
      'office/audit',
      'office/funding',
      'office/invite',
      'office/records',
      'office/setup/:token',
      'office/staff',
      'office/two-step',
    ]);
  });

  it.each(OFFICE)('%s shows its own screen without a patient session', async (path) => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => undefined);
    serve({
      '/office/session': [json({ code: 'session_invalid', message: 'You are signed out. Please sign in again.' }, 401)],
      '/log': [new Response(null, { status: 204 })],
    });
    const router = openApp(path);
    await waitFor(() => expect(router.state.navigation.state).toBe('idle'));
    const heading = await screen.findByRole('heading', { level: 1 });
    expect(heading.textContent).toBe(path.startsWith('/office/setup') ? 'Choose your password' : 'Office sign-in');
    expect(router.state.location.pathname).toBe(path);
    // A staff screen: no patients' help or footer words, and the brand leads back to the office.
    expect(screen.queryByRole('button', { name: /Help|common questions/ })).toBeNull();
    expect(screen.queryByText(/Questions\? Ask the office/)).toBeNull();
    expect(screen.getByRole('link', { name: /Chairside home/ }).getAttribute('href')).toBe('/office');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import { today, toIso } from '@/lib/dates';
import type { OfficeAuditRow } from './api/staff';
import { OfficeAuditPage } from './AuditPage';
import { forgetOfficeSession } from './auth';
import { manager, session, stubOffice } from './testing';
import { timeOf } from './words';

const TZ = Intl.DateTimeFormat().resolvedOptions().timeZone;

function open() {
  const router = createMemoryRouter([{ path: '/office/audit', Component: OfficeAuditPage }], { initialEntries: ['/office/audit'] });
  render(<RouterProvider router={router} />);
}

const entry = (over: Partial<OfficeAuditRow>): OfficeAuditRow => ({
  at: '2030-01-02T16:00:00Z',
  email: 'maria@brightsmiles.example',
  action: 'sign_in',
  ip: '203.0.113.7',
  details: '',
  ...over,
});

afterEach(() => {
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('the audit log', () => {
  it('shows the day’s rows in words, with the CSV of the same day and zone', async () => {
    const entries = [
      entry({ at: '2030-01-02T17:00:00Z', action: 'staff_disabled', details: 'staff st-desk' }),
      entry({ at: '2030-01-02T16:30:00Z', action: 'second_factor_reset' }),
      entry({ at: '2030-01-02T16:10:00Z', email: '', action: 'sign_in_failed', ip: '198.51.100.2' }),
      entry({ at: '2030-01-02T16:00:00Z', action: 'something_new' }),
    ];
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/audit': [json({ day: '2030-01-02', entries }), json({ day: '2030-01-01', entries: [] })],
    });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Audit log' })).toBeTruthy();
    const day = screen.getByLabelText('Day') as HTMLInputElement;
    const todayIso = toIso(today());
    expect(day.value).toBe(todayIso);

    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Time', 'Who', 'Action', 'Address', 'Details']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(rows).toEqual([
      [timeOf('2030-01-02T17:00:00Z'), 'maria@brightsmiles.example', 'Disabled a colleague', '203.0.113.7', 'staff st-desk'],
      [timeOf('2030-01-02T16:30:00Z'), 'maria@brightsmiles.example', 'Reset a colleague’s two-step sign-in', '203.0.113.7', ''],
      [timeOf('2030-01-02T16:10:00Z'), 'Unknown email', 'Sign-in failed', '198.51.100.2', ''],
      [timeOf('2030-01-02T16:00:00Z'), 'maria@brightsmiles.example', 'something_new', '203.0.113.7', ''],
    ]);
    const q = sent.find((c) => c.path === '/office/audit')!.query;
    expect(q.get('day')).toBe(todayIso);
    expect(q.get('tz')).toBe(TZ);
    const csv = new URL(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')!, 'http://x');
    expect(csv.pathname).toBe('/api/v1/office/audit.csv');
    expect(csv.searchParams.get('day')).toBe(todayIso);
    expect(csv.searchParams.get('tz')).toBe(TZ);

    fireEvent.change(day, { target: { value: '2030-01-01' } });
    expect(await screen.findByText(/Nothing recorded on/)).toBeTruthy();
    await waitFor(() =>
      expect(
        sent
          .filter((c) => c.path === '/office/audit')
          .at(-1)!
          .query.get('day'),
      ).toBe('2030-01-01'),
    );
    expect(new URL(screen.getByRole('link', { name: 'Download CSV' }).getAttribute('href')!, 'http://x').searchParams.get('day')).toBe('2030-01-01');
  });

  it('tells a front desk their role does not allow it', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)] });
    open();
    expect(await screen.findByText('Your role does not allow this. Ask your office manager.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Download CSV' })).toBeNull();
    expect(sent.filter((c) => c.path === '/office/audit')).toHaveLength(0);
  });

  it('says so too when the server refuses', async () => {
    stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/audit': [json({ code: 'forbidden', message: 'Your role does not allow this.' }, 403)],
    });
    open();
    expect(await screen.findByText('Your role does not allow this. Ask your office manager.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});

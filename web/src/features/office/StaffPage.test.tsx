import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import type { OfficeMember } from './api/staff';
import { forgetOfficeSession } from './auth';
import { OfficeStaffPage } from './StaffPage';
import { groupAdmin, manager, session, stubOffice } from './testing';
import { untilOf } from './words';

function open() {
  const router = createMemoryRouter([{ path: '/office/staff', Component: OfficeStaffPage }], { initialEntries: ['/office/staff'] });
  render(<RouterProvider router={router} />);
}

const member = (over: Partial<OfficeMember>): OfficeMember => ({
  id: 'st-1',
  email: 'x@brightsmiles.example',
  role: 'front_desk',
  status: 'active',
  secondFactor: false,
  createdAt: '2030-01-01T10:00:00Z',
  ...over,
});

const STAFF = [
  member({ id: 'st-desk', email: 'desk@brightsmiles.example', secondFactor: true }),
  member({ id: 'st-me', email: 'maria@brightsmiles.example', role: 'manager', secondFactor: true }),
  member({ id: 'st-new', email: 'new@brightsmiles.example', status: 'invited' }),
  member({ id: 'st-old', email: 'old@brightsmiles.example', status: 'disabled' }),
];

const INVITE = {
  member: member({ id: 'st-pat', email: 'pat@brightsmiles.example', role: 'manager', status: 'invited' }),
  setupLink: 'https://chairside.example/office/setup/tok-pat',
  expiresAt: '2030-01-03T10:00:00Z',
};

afterEach(() => {
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('the staff screen', () => {
  it('lists the staff in words, with actions on colleagues only', async () => {
    stubOffice({ 'GET /office/session': [json(manager)], 'GET /office/staff': [json({ staff: STAFF })] });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Staff' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Staff of Bright Smiles Dental' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Email', 'Role', 'Status', 'Two-step sign-in', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(
      rows.map((r) =>
        within(r)
          .getAllByRole('cell')
          .slice(0, 3)
          .map((c) => c.textContent),
      ),
    ).toEqual([
      ['Front desk', 'Active', 'On'],
      ['Office manager', 'Active', 'On'],
      ['Front desk', 'Invited', 'Off'],
      ['Front desk', 'Disabled', 'Off'],
    ]);
    expect(within(rows[0]!).getByRole('button', { name: 'Disable desk@brightsmiles.example' })).toBeTruthy();
    expect(within(rows[0]!).getByRole('button', { name: 'Reset two-step sign-in for desk@brightsmiles.example' })).toBeTruthy();
    expect(within(rows[0]!).queryByRole('button', { name: /New setup link/ })).toBeNull();
    expect(within(rows[1]!).queryAllByRole('button')).toHaveLength(0); // one's own account
    expect(within(rows[2]!).getByRole('button', { name: 'New setup link for new@brightsmiles.example' })).toBeTruthy();
    expect(within(rows[3]!).queryAllByRole('button')).toHaveLength(0); // disabled
    // Only a group administrator may make another.
    const role = screen.getByLabelText('Role');
    expect(
      within(role)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Front desk', 'Office manager']);
  });

  it('offers a group administrator the group administrator role', async () => {
    stubOffice({ 'GET /office/session': [json(groupAdmin)], 'GET /office/staff': [json({ staff: [] })] });
    open();
    const role = await screen.findByLabelText('Role');
    expect(
      within(role)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Front desk', 'Office manager', 'Group administrator']);
  });

  it('invites a colleague and shows their setup link, then the new row', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/staff': [json({ staff: STAFF }), json({ staff: [...STAFF, INVITE.member] })],
      'POST /office/staff': [
        json({ code: 'conflict', message: 'This email already has an account.' }, 409),
        json({ code: 'validation_error', message: 'Check the form.', fieldErrors: [{ field: 'email', message: 'Enter a valid email.' }] }, 400),
        json(INVITE, 201),
      ],
    });
    open();
    await screen.findByRole('table');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(sent.filter((c) => c.method === 'POST')).toHaveLength(0);

    await userEvent.type(screen.getByLabelText('Email'), 'desk@brightsmiles.example');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    expect((await screen.findByRole('alert')).textContent).toBe('This email already has an account.');

    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true'));
    expect(document.getElementById('staff-email-error')!.textContent).toContain('Enter a valid email.');

    await userEvent.clear(screen.getByLabelText('Email'));
    await userEvent.type(screen.getByLabelText('Email'), 'pat@brightsmiles.example');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'Office manager');
    await userEvent.click(screen.getByRole('button', { name: 'Send invitation' }));
    const heading = await screen.findByRole('heading', { level: 2, name: 'Setup link for pat@brightsmiles.example' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect((screen.getByLabelText('Setup link') as HTMLInputElement).value).toBe('https://chairside.example/office/setup/tok-pat');
    expect(screen.getByText(new RegExp(`until ${untilOf(INVITE.expiresAt)}`))).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy link' })).toBeTruthy();
    const post = sent.filter((c) => c.method === 'POST').at(-1)!;
    expect(JSON.parse(post.body!)).toEqual({ email: 'pat@brightsmiles.example', role: 'manager' });
    expect(post.csrf).toBe('csrf-1');
    expect(await screen.findByRole('rowheader', { name: 'pat@brightsmiles.example' })).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('');
  });

  it('makes a new setup link for an invited colleague', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/staff': [json({ staff: STAFF })],
      'POST /office/staff/st-new/setup-link': [json({ ...INVITE, member: STAFF[2], setupLink: 'https://chairside.example/office/setup/tok-2' })],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'New setup link for new@brightsmiles.example' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Setup link for new@brightsmiles.example' })).toBeTruthy();
    expect((screen.getByLabelText('Setup link') as HTMLInputElement).value).toBe('https://chairside.example/office/setup/tok-2');
    expect(sent.find((c) => c.method === 'POST')?.csrf).toBe('csrf-1');
  });

  it('asks before disabling a colleague, then disables them', async () => {
    const disabled = STAFF.map((m) => (m.id === 'st-desk' ? { ...m, status: 'disabled' as const } : m));
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/staff': [json({ staff: STAFF }), json({ staff: disabled })],
      'POST /office/staff/st-desk/disable': [new Response(null, { status: 204 })],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Disable desk@brightsmiles.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Disable desk@brightsmiles.example?' });
    expect(dialog.textContent).toMatch(/sessions end at once/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Keep' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent.filter((c) => c.method === 'POST')).toHaveLength(0);

    await userEvent.click(screen.getByRole('button', { name: 'Disable desk@brightsmiles.example' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Yes, disable' }));
    const notice = await screen.findByText('desk@brightsmiles.example is disabled. Their sessions have ended.');
    await waitFor(() => expect(document.activeElement).toBe(notice));
    expect(sent.find((c) => c.path === '/office/staff/st-desk/disable')?.csrf).toBe('csrf-1');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Disable desk@brightsmiles.example' })).toBeNull());
  });

  it('asks before resetting a colleague’s two-step sign-in, and shows a refusal', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/staff': [json({ staff: STAFF })],
      'POST /office/staff/st-desk/reset-second-factor': [
        json({ code: 'forbidden', message: 'Your role does not allow changing this account.' }, 403),
        new Response(null, { status: 204 }),
      ],
    });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Reset two-step sign-in for desk@brightsmiles.example' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset two-step sign-in for desk@brightsmiles.example?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, reset' }));
    expect((await within(dialog).findByRole('alert')).textContent).toBe('Your role does not allow changing this account.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, reset' }));
    expect(await screen.findByText(/Two-step sign-in for desk@brightsmiles.example is reset/)).toBeTruthy();
    expect(sent.filter((c) => c.path === '/office/staff/st-desk/reset-second-factor')).toHaveLength(2);
  });

  it('tells a front desk their role does not allow it', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)] });
    open();
    expect(await screen.findByText('Your role does not allow this. Ask your office manager.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Send invitation' })).toBeNull();
    expect(sent.filter((c) => c.path === '/office/staff')).toHaveLength(0);
  });

  it('says so too when the server refuses the list', async () => {
    stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/staff': [json({ code: 'forbidden', message: 'Your role does not allow this.' }, 403)],
    });
    open();
    expect(await screen.findByText('Your role does not allow this. Ask your office manager.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send invitation' })).toBeNull();
  });
});

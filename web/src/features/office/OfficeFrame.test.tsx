import { describe, expect, it } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import { OfficePage } from './OfficePages';
import { FakeEventSource, groupAdmin, list, liveListsFaked, manager, row, session, stubOffice } from './testing';

function open() {
  const router = createMemoryRouter([{ path: '/office', Component: OfficePage }], { initialEntries: ['/office'] });
  render(<RouterProvider router={router} />);
  return router;
}

liveListsFaked();

describe('the office’s bar', () => {
  it('links a manager to the staff and the audit log', async () => {
    stubOffice({ 'GET /office/session': [json(manager)] });
    open();
    const nav = await screen.findByRole('navigation', { name: 'Menu' });
    expect(within(nav).getByRole('link', { name: 'Staff' }).getAttribute('href')).toBe('/office/staff');
    expect(within(nav).getByRole('link', { name: 'Audit log' }).getAttribute('href')).toBe('/office/audit');
    expect(screen.queryByLabelText('Office')).toBeNull();
  });

  it('shows the front desk neither', async () => {
    stubOffice({ 'GET /office/session': [json(session)] });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Staff' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Audit log' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Set up two-step sign-in' })).toBeNull();
    expect(screen.queryByLabelText('Office')).toBeNull();
  });

  it('lets a group administrator switch office, and the day’s list follows', async () => {
    const uptown = { ...groupAdmin, office: { ...groupAdmin.office, name: 'Bright Smiles Uptown', entityKey: '6543210987654321' } };
    const sent = stubOffice({ 'GET /office/session': [json(groupAdmin)], 'PUT /office/session/office': [json(uptown)] });
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Dental' })).toBeTruthy();
    FakeEventSource.latest().send(list([row({ firstName: 'Ann', lastName: 'Downtown' })]));
    expect(await screen.findByText('Ann Downtown')).toBeTruthy();
    const select = screen.getByLabelText('Office') as HTMLSelectElement;
    expect(select.value).toBe('1234567890123456');
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Bright Smiles Dental', 'Bright Smiles Uptown']);

    const streams = FakeEventSource.all.length;
    await userEvent.selectOptions(select, 'Bright Smiles Uptown');
    expect(await screen.findByRole('heading', { level: 1, name: 'Bright Smiles Uptown' })).toBeTruthy();
    const put = sent.find((c) => c.method === 'PUT')!;
    expect(JSON.parse(put.body!)).toEqual({ entityKey: '6543210987654321' });
    expect(put.csrf).toBe('csrf-1');
    expect((screen.getByLabelText('Office') as HTMLSelectElement).value).toBe('6543210987654321');
    expect(screen.getByText(/Signed in as/).textContent).toContain('at Bright Smiles Uptown.');
    // The old office's stream is closed and a new one asks again: the list is the new office's.
    await waitFor(() => expect(FakeEventSource.all.length).toBe(streams + 1));
    expect(FakeEventSource.all[streams - 1]!.readyState).toBe(FakeEventSource.CLOSED);
    expect(screen.queryByText('Ann Downtown')).toBeNull();
  });

  it('says why a switch was refused and stays', async () => {
    stubOffice({
      'GET /office/session': [json(groupAdmin)],
      'PUT /office/session/office': [json({ code: 'forbidden', message: 'Your role does not allow this.' }, 403)],
    });
    open();
    await userEvent.selectOptions(await screen.findByLabelText('Office'), 'Bright Smiles Uptown');
    expect((await screen.findByRole('alert')).textContent).toBe('Your role does not allow this.');
    expect((screen.getByLabelText('Office') as HTMLSelectElement).value).toBe('1234567890123456');
  });
});

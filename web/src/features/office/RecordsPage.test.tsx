import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { json } from '@/test/fetch';
import { forgetOfficeSession } from './auth';
import { OfficeRecordsPage } from './RecordsPage';
import { manager, session, stubOffice } from './testing';
import { NOT_ALLOWED } from './staffWords';

function open() {
  render(
    <RouterProvider
      router={createMemoryRouter([{ path: '/office/records', Component: OfficeRecordsPage }], { initialEntries: ['/office/records'] })}
    />,
  );
}

afterEach(() => {
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('practice records', () => {
  it('connects Open Dental with the practice’s key, checked first, and shows only its end', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/records': [json({ available: true, connected: false })],
      'PUT /office/records': [
        json(
          {
            code: 'validation_error',
            message: 'Open Dental refused this key.',
            fieldErrors: [{ field: 'customerKey', message: 'Open Dental refused this key. Check that the API is enabled.' }],
          },
          400,
        ),
        json({
          available: true,
          connected: true,
          system: 'opendental',
          postOn: 'funded',
          state: 'connected',
          keyEnd: 'GHIJ',
          checkedAt: '2030-01-02T16:00:00Z',
        }),
      ],
    });
    open();
    const key = await screen.findByLabelText('Customer key');
    await userEvent.click(screen.getByRole('button', { name: 'Check and connect' }));
    expect(document.activeElement).toBe(key);
    expect(screen.getByText('Enter the customer key Open Dental made for Chairside.')).toBeTruthy();
    await userEvent.type(key, 'WRONGKEY');
    await userEvent.click(screen.getByRole('button', { name: 'Check and connect' }));
    expect(await screen.findByText('Open Dental refused this key. Check that the API is enabled.')).toBeTruthy();
    await userEvent.clear(key);
    await userEvent.type(key, 'ABCDEFGHIJ');
    await userEvent.click(screen.getByRole('radio', { name: 'When the lender funds the case' }));
    await userEvent.click(screen.getByRole('button', { name: 'Check and connect' }));
    expect(await screen.findByText('Open Dental is connected. The front desk can now find patients when inviting them.')).toBeTruthy();
    const puts = sent.filter((c) => c.method === 'PUT');
    expect(JSON.parse(puts[1]!.body!)).toEqual({ customerKey: 'ABCDEFGHIJ', postOn: 'funded' });
    expect(puts[1]!.csrf).toBe('csrf-1');
    const facts = screen.getByRole('heading', { name: 'Open Dental' }).parentElement!;
    expect(within(facts).getByText('Ending in GHIJ')).toBeTruthy();
    expect(within(facts).getByText('When the lender funds the case')).toBeTruthy();
    expect(screen.queryByDisplayValue('ABCDEFGHIJ')).toBeNull();
  });

  it('tells a front desk their role does not allow it, and asks nothing', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)] });
    open();
    expect(await screen.findByText(NOT_ALLOWED)).toBeTruthy();
    expect(sent.some((c) => c.path === '/office/records')).toBe(false);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { json } from '@/test/fetch';
import type { OfficeBackup } from './api/backup';
import { forgetOfficeSession } from './auth';
import { BACKUP_POLL_MS } from './BackupBanner';
import { SignedInOnly } from './OfficeFrame';
import { manager, session, stubOffice, type Sent } from './testing';
import { dateTimeOf } from './words';

/* The manager's backup banner, shown by the office's frame on every screen (OfficeFrame.tsx). */

const ok: OfficeBackup = { state: 'ok', replica: 's3://brightsmiles-backup/chairside', lagSeconds: 0, lastShipped: '2030-01-02T15:04:00Z' };
const behind: OfficeBackup = { ...ok, state: 'behind', lagSeconds: 840, lastShipped: '2030-01-02T14:50:00Z' };

const BEHIND = /backup of this office’s records is behind/;

function open() {
  render(
    <MemoryRouter>
      <SignedInOnly>{() => <h1>The screen</h1>}</SignedInOnly>
    </MemoryRouter>,
  );
}

const backupCalls = (sent: Sent[]) => sent.filter((c) => c.path === '/office/backup').length;

/** shown opens the frame and waits for the first answer of the backup. */
async function shown(sent: Sent[]) {
  open();
  await screen.findByRole('heading', { name: 'The screen' });
  await waitFor(() => expect(backupCalls(sent)).toBe(1));
}

beforeEach(() => forgetOfficeSession());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  forgetOfficeSession();
});

describe('the backup banner', () => {
  it.each([
    ['ok', ok],
    ['off', { state: 'off', lagSeconds: 0 } satisfies OfficeBackup],
  ])('says nothing while the backup is %s', async (_, answer) => {
    const sent = stubOffice({ 'GET /office/session': [json(manager)], 'GET /office/backup': [json(answer)] });
    await shown(sent);
    await act(() => Promise.resolve());
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('tells a manager where the last copy went and when, politely', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(manager)], 'GET /office/backup': [json(behind)] });
    await shown(sent);
    const banner = await screen.findByRole('status');
    expect(banner.textContent).toMatch(BEHIND);
    expect(banner.textContent).toContain(`The last copy reached s3://brightsmiles-backup/chairside on ${dateTimeOf('2030-01-02T14:50:00Z')}.`);
    expect(banner.textContent).toContain('Tell whoever looks after this computer');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(banner.classList).toContain('notice--warn');
    expect(banner.querySelector('details')).toBeNull();
  });

  it('says when no copy ever reached the backup', async () => {
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/backup': [json({ ...behind, lastShipped: undefined })],
    });
    await shown(sent);
    expect(await screen.findByText(/No copy has reached s3:\/\/brightsmiles-backup\/chairside yet\./)).toBeTruthy();
  });

  it('keeps what the server says folded away', async () => {
    const failing = 'PutObject: AccessDenied: Access Denied (status code: 403)';
    const sent = stubOffice({
      'GET /office/session': [json(manager)],
      'GET /office/backup': [json({ ...behind, failing, failingSince: '2030-01-02T14:51:00Z' })],
    });
    await shown(sent);
    const summary = await screen.findByText('What the server says');
    const details = summary.closest('details')!;
    expect(details.open).toBe(false);
    expect(details.textContent).toContain(failing);
    expect(details.textContent).toContain(`Failing since ${dateTimeOf('2030-01-02T14:51:00Z')}`);
  });

  it.each([
    ['refused', () => json({ code: 'forbidden', message: 'Your role does not allow this.' }, 403)],
    ['failing', () => json({ code: 'internal', message: 'Something went wrong.' }, 500)],
    [
      'unreachable',
      () => {
        throw new TypeError('Failed to fetch');
      },
    ],
  ])('says nothing when the call is %s', async (_, answer) => {
    const sent = stubOffice({ 'GET /office/session': [json(manager)], 'GET /office/backup': [answer] });
    await shown(sent);
    await act(() => Promise.resolve());
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('heading', { name: 'The screen' })).toBeTruthy();
  });

  it('is not asked for by the front desk', async () => {
    const sent = stubOffice({ 'GET /office/session': [json(session)], 'GET /office/backup': [json(behind)] });
    open();
    await screen.findByRole('heading', { name: 'The screen' });
    await act(() => Promise.resolve());
    expect(backupCalls(sent)).toBe(0);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('asks again every minute, and shows when the backup falls behind', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const sent = stubOffice({ 'GET /office/session': [json(manager)], 'GET /office/backup': [json(ok), json(behind)] });
    await shown(sent);
    await act(() => Promise.resolve());
    expect(screen.queryByRole('status')).toBeNull();

    act(() => vi.advanceTimersByTime(BACKUP_POLL_MS - 1));
    expect(backupCalls(sent)).toBe(1);
    act(() => vi.advanceTimersByTime(1));
    expect(backupCalls(sent)).toBe(2);
    expect((await screen.findByRole('status')).textContent).toMatch(BEHIND);
  });

  it('does not ask while the tab is hidden', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
    try {
      const sent = stubOffice({ 'GET /office/session': [json(manager)], 'GET /office/backup': [json(ok)] });
      await shown(sent);
      act(() => vi.advanceTimersByTime(BACKUP_POLL_MS * 2));
      expect(backupCalls(sent)).toBe(1);
      hidden.mockReturnValue(false);
      act(() => vi.advanceTimersByTime(BACKUP_POLL_MS));
      expect(backupCalls(sent)).toBe(2);
    } finally {
      hidden.mockRestore();
    }
  });
});

import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { configureApi } from '@/lib/api/client';
import type { Decision, Session } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { decision } from '@/test/fixtures';
import { NoOfferPage } from './ResultPages';

/*
 * The no-offer screen (docs/behaviour.md, "Decision routing"): it offers
 * the office's first lender's standard application and names that lender
 * in its words and its offer alike; after a lender we could not reach it
 * offers none (a communication error is told not to apply again).
 */

const BEGIN = { name: 'Begin standard application' };

beforeEach(() => {
  flow.reset();
  configureApi({ getSessionId: () => 's1', navigate: vi.fn(), onValidation: vi.fn(), currentPath: () => '/p' });
  withCatalogue();
  flow.set({ session: { webSessionId: 's1' } as Session, primaryLenderKey: 'synchrony_standard', applyMode: 'prequalify' });
});

function answered(...answers: [string, Decision['responseCode']][]) {
  for (const [k, code] of answers) flow.response(k, { preAuth: { ...decision(k, code), operation: 'prequalify' } });
}

function renderAt(providerKey: string) {
  const router = createMemoryRouter([{ path: '/providers/:providerKey/nooffer', element: <NoOfferPage /> }], {
    initialEntries: [`/providers/${providerKey}/nooffer`],
  });
  render(<RouterProvider router={router} />);
}

describe('the no-offer screen', () => {
  it('after every lender failed to answer, offers no standard application and says not to apply again', () => {
    answered(['synchrony_standard', 'error'], ['fortiva_standard', 'error'], ['snap_standard', 'error'], ['proceed_standard', 'error']);
    renderAt('proceed_standard');
    expect(screen.getByRole('heading', { level: 1, name: 'We didn’t get an answer' })).toBeTruthy();
    expect(screen.getByText('Please don’t apply again — ask the office manager to check the status of your application.')).toBeTruthy();
    expect(screen.queryByRole('button', BEGIN)).toBeNull();
    expect(document.body.textContent).not.toMatch(/standard application|hard credit check/);
    expect(screen.getByRole('button', { name: 'Finish' })).toBeTruthy();
  });

  it('one lender we could not reach is enough to offer no standard application', () => {
    answered(['synchrony_standard', 'nooffer'], ['fortiva_standard', 'error'], ['snap_standard', 'nooffer']);
    renderAt('snap_standard');
    expect(screen.queryByRole('button', BEGIN)).toBeNull();
    expect(screen.getByText('We didn’t get an answer from Fortiva.')).toBeTruthy();
  });

  it('names the lender it offers in its first words and in the offer, then what the others did', () => {
    answered(['synchrony_standard', 'nooffer'], ['fortiva_standard', 'declined'], ['snap_standard', 'nooffer']);
    flow.set({ declinedBy: ['fortiva_standard'] });
    renderAt('snap_standard');
    const lead = document.querySelector('p.lead')!;
    expect(lead.textContent).toBe('Synchrony couldn’t make you an offer from the quick check.');
    expect(screen.getByText(/You can still apply with Synchrony’s standard application/)).toBeTruthy();
    expect(screen.getByText('Snap couldn’t make an offer.')).toBeTruthy();
    expect(screen.getByText(/^Fortiva couldn’t approve this application/)).toBeTruthy();
    expect(screen.getByRole('button', BEGIN)).toBeTruthy();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { FieldDefinition, Session, StartFlowResponse } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { json } from '@/test/fetch';
import { ApplicationPage } from './ApplicationPage';

/*
 * A switch to the standard application keeps the patient on the same
 * screen while the standard form's fields are fetched: the quick check's
 * form must not stay on it meanwhile, or what the patient types there is
 * lost when the new form replaces it.
 */

const text = (id: string, label: string): FieldDefinition => ({ id, path: id, name: id, label, type: 'text', rules: {} });
const quick = [text('firstName', 'First name'), text('lastName', 'Last name')];
const standard = [...quick, text('employerName', 'Employer name')];
const form = (applyMode: string, fields: FieldDefinition[]) =>
  ({ providerKey: 'synchrony_standard', applyMode, fields, fieldGroupRules: [], providers: [] }) as never;

beforeEach(() => flow.reset());
afterEach(() => vi.unstubAllGlobals());

describe('a switch of apply mode on the application screen', () => {
  it('shows no form until the new mode’s fields are here, then the new form', async () => {
    flow.started(
      {
        session: { webSessionId: 's1', experienceType: 'at_home', dynamicProviderKey: 'synchrony_standard' } as Session,
        application: {},
      } as StartFlowResponse,
      'prequalify',
    );
    withCatalogue();
    flow.fieldsLoaded('synchrony_standard:prequalify', form('prequalify', quick));
    // The standard form's fields are on their way until the test answers them.
    let answer: (r: Response) => void = () => {};
    const fetchMock = vi.fn(() => new Promise<Response>((resolve) => (answer = resolve)));
    vi.stubGlobal('fetch', fetchMock);
    const router = createMemoryRouter([{ path: '/providers/:providerKey/modes/:mode/application', Component: ApplicationPage }], {
      initialEntries: ['/providers/synchrony_standard/modes/prequalify/application'],
    });
    render(<RouterProvider router={router} />);
    expect(await screen.findByLabelText(/^First name/)).toBeTruthy();

    // The standard application: the quick check's form goes in the very first render after the switch (a
    // deferred render would come a task later), and no form shows while the new fields are asked for.
    flow.set({ applyMode: 'full' });
    await new Promise((r) => queueMicrotask(() => r(null)));
    expect(screen.queryByLabelText(/^First name/)).toBeNull();
    expect(screen.getByRole('status')).toBeTruthy();

    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(1));
    await act(async () => answer(json(form('full', standard))));
    expect(await screen.findByLabelText(/^Employer name/)).toBeTruthy();
    expect(screen.getByLabelText(/^First name/)).toBeTruthy();
  });
});

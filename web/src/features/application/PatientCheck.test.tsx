import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { FieldDefinition, Session, StartFlowResponse } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { ApplicationPage } from './ApplicationPage';

/*
 * The patient check (docs/behaviour.md, "The patient check"): on the office
 * tablet, before the form, "Are you the patient?" — answered with the
 * keyboard, once per session, never at home; someone who pays for the
 * patient gives the patient's name where the office allows it, and is
 * otherwise told who may apply and can hand the tablet back.
 */

const fields: FieldDefinition[] = [
  { id: 'firstName', path: 'firstName', name: 'firstName', label: 'First name', type: 'text', rules: { required: {} } },
  { id: 'lastName', path: 'lastName', name: 'lastName', label: 'Last name', type: 'text', rules: { required: {} } },
];

function session(experienceType: 'in_store' | 'at_home', purchaserEnabled = false) {
  flow.set({
    session: { webSessionId: 's1', experienceType } as Session,
    experienceType,
    purchaserEnabled,
    providerKey: 'synchrony_standard',
    applyMode: 'prequalify',
    purchaseAmountCents: 450_000,
    // What the office typed on the invitation: the patient's name.
    prefill: { firstName: 'Ana', lastName: 'Lopez', mobilePhone: '5035550142' },
  });
  withCatalogue();
  flow.fieldsLoaded('synchrony_standard:prequalify', {
    providerKey: 'synchrony_standard',
    applyMode: 'prequalify',
    fields,
    fieldGroupRules: [],
    lenders: [],
  } as never);
}

function show() {
  const router = createMemoryRouter([{ path: '/providers/:providerKey/modes/:mode/application', Component: ApplicationPage }], {
    initialEntries: ['/providers/synchrony_standard/modes/prequalify/application'],
  });
  return render(<RouterProvider router={router} />);
}

const question = () => screen.queryByRole('dialog', { name: 'Are you the patient?' });
const firstName = () => screen.getByLabelText(/^First name/) as HTMLInputElement;

beforeEach(() => {
  flow.reset();
});

describe('the patient check', () => {
  it('asks on the office tablet before the form; “Yes” by keyboard goes on to the form with the office’s name, and it is not asked again', async () => {
    session('in_store');
    const view = show();
    expect(question()).toBeTruthy();
    // The first answer has the focus: Enter answers it.
    expect(document.activeElement?.textContent).toBe('Yes, I’m the patient');
    await userEvent.keyboard('{Enter}');
    expect(question()).toBeNull();
    expect(flow.get().patientCheck).toBe('patient');
    expect(firstName().value).toBe('Ana');
    view.unmount();
    show();
    expect(question()).toBeNull();
  });

  it('takes whether a purchaser may apply from the start’s application, false when it does not say', () => {
    const start = (application: object) =>
      flow.started({ session: { webSessionId: 's1', experienceType: 'in_store' }, application } as StartFlowResponse, 'prequalify');
    start({ purchaseAmountCents: 0, purchaserEnabled: true });
    expect(flow.get().purchaserEnabled).toBe(true);
    expect(flow.get().patientCheck).toBeNull();
    start({ purchaseAmountCents: 0 });
    expect(flow.get().purchaserEnabled).toBe(false);
  });

  it('is never asked at home', () => {
    session('at_home');
    show();
    expect(question()).toBeNull();
    expect(firstName().value).toBe('Ana');
  });

  it('someone who pays, where the office allows it: gives the patient’s name, then applies in their own name', async () => {
    session('in_store', true);
    show();
    await userEvent.click(screen.getByRole('button', { name: 'No, I’m applying for someone else (a parent or guardian paying)' }));
    expect(screen.getByRole('dialog', { name: 'Who is the patient?' })).toBeTruthy();
    const patientFirst = screen.getByLabelText('Patient’s first name') as HTMLInputElement;
    expect(document.activeElement).toBe(patientFirst);
    expect(patientFirst.value).toBe('Ana');
    await userEvent.clear(patientFirst);
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Continue' }));
    expect(screen.getByText('Please enter the patient’s first name.')).toBeTruthy();
    expect(document.activeElement).toBe(patientFirst);
    await userEvent.type(patientFirst, 'Sofia');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Continue' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(flow.get().patientName).toEqual({ firstName: 'Sofia', lastName: 'Lopez' });
    expect(
      screen.getByText(
        'You are applying as the person who will pay for Sofia Lopez’s treatment. Please enter your own details below, not the patient’s.',
      ),
    ).toBeTruthy();
    // The office typed the patient's name: the applicant's own is left to type; where the link went stays.
    expect(firstName().value).toBe('');
    expect(flow.get().prefill.mobilePhone).toBe('5035550142');
  });

  it('someone else, where the office does not allow a purchaser: says who may apply, and the tablet can go back to the office team', async () => {
    session('in_store', false);
    show();
    await userEvent.click(screen.getByRole('button', { name: /^No, I’m applying for someone else/ }));
    expect(screen.getByRole('dialog', { name: 'Only the patient or their responsible party can apply' })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Hand the tablet back' }));
    expect(screen.getByRole('dialog', { name: 'Please hand the tablet back' })).toBeTruthy();
    expect(screen.getByText(/Please give this tablet back to the office manager\. Nothing has been sent to a lender\./)).toBeTruthy();
    // The office team asks the next person again.
    await userEvent.click(screen.getByRole('button', { name: 'Ask who is applying again' }));
    expect(question()).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /^No, I’m applying for someone else/ }));
    await userEvent.click(screen.getByRole('button', { name: 'I’m the patient’s responsible party' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(flow.get().patientCheck).toBe('responsible');
    expect(screen.getByText('You are applying as the patient’s responsible party. Please enter your own details below.')).toBeTruthy();
    expect(firstName().value).toBe('');
  });

  it('asks in Spanish', async () => {
    await setLanguage('es');
    session('in_store');
    show();
    expect(screen.getByRole('dialog', { name: '¿Es usted el paciente?' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sí, soy el paciente' })).toBeTruthy();
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { FieldDefinition, Session, StartFlowResponse } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { withCatalogue } from '@/test/catalogue';
import { ApplicationPage } from './ApplicationPage';

/*
 * An invitation made from the office's own records (docs/practice-records.md)
 * starts the patient's form with the date of birth and address read from
 * them, as the form shows them, for the patient to confirm; never an SSN.
 */

const text = (id: string, label: string): FieldDefinition => ({ id, path: id, name: id, label, type: 'text', rules: {} });
const fields: FieldDefinition[] = [
  text('firstName', 'First name'),
  text('lastName', 'Last name'),
  { ...text('dateOfBirth', 'Date of birth'), type: 'date' },
  text('addressLine1', 'Street address'),
  text('addressCity', 'City'),
  text('addressZipCode', 'ZIP code'),
  text('ssn', 'Social Security number'),
];

beforeEach(() => flow.reset());

describe('the form from an invitation made from the records', () => {
  it('shows the record’s date of birth and address, and leaves the SSN to the patient', async () => {
    flow.started(
      {
        session: { webSessionId: 's1', experienceType: 'at_home', dynamicProviderKey: 'synchrony_standard' } as Session,
        application: {
          purchaseAmountCents: 186_750,
          primary: {
            firstName: 'Maria',
            lastName: 'Lopez',
            dateOfBirth: '1984-03-09',
            addressLine1: '1200 Maple Street',
            city: 'Portland',
            state: 'OR',
            zip: '97205',
          },
        },
      } as StartFlowResponse,
      'prequalify',
    );
    withCatalogue();
    flow.fieldsLoaded('synchrony_standard:prequalify', {
      providerKey: 'synchrony_standard',
      applyMode: 'prequalify',
      fields,
      fieldGroupRules: [],
      lenders: [],
    } as never);
    const router = createMemoryRouter([{ path: '/providers/:providerKey/modes/:mode/application', Component: ApplicationPage }], {
      initialEntries: ['/providers/synchrony_standard/modes/prequalify/application'],
    });
    render(<RouterProvider router={router} />);
    expect(((await screen.findByLabelText(/^Date of birth/)) as HTMLInputElement).value).toBe('03/09/1984');
    expect((screen.getByLabelText(/^Street address/) as HTMLInputElement).value).toBe('1200 Maple Street');
    expect((screen.getByLabelText(/^City/) as HTMLInputElement).value).toBe('Portland');
    expect((screen.getByLabelText(/^ZIP code/) as HTMLInputElement).value).toBe('97205');
    expect((screen.getByLabelText(/^Social Security number/) as HTMLInputElement).value).toBe('');
  });
});

import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FieldDefinition } from '@/lib/api/types';
import { setLanguage } from '@/lib/i18n';
import { json, routes } from '@/test/fetch';
import { ApplicationForm } from './ApplicationForm';

const field = (id: string, label: string, type: string): FieldDefinition => ({ id, path: id, name: id, label, type, group: 'address', rules: {} });
const fields = [field('addressCity', 'City', 'text'), field('addressState', 'State', 'state'), field('addressZipCode', 'ZIP code', 'zipCode')];

const sanDiego = () => json({ zipCode: '92101', city: 'San Diego', state: 'CA' });
const chicago = () => json({ zipCode: '60601', city: 'Chicago', state: 'IL' });

afterEach(() => vi.unstubAllGlobals());

describe('the ZIP code fills in the city and state', () => {
  it('fills both when empty, says so to a screen reader, and fills them again for a new ZIP', async () => {
    routes({ '/zipCodes/92101': [sanDiego], '/zipCodes/60601': [chicago], '/validate/zipCode': [() => json({ valid: true })] });
    render(<ApplicationForm applicant="primary" fields={fields} defaults={{}} onSubmit={vi.fn()} />);
    const zip = screen.getByLabelText(/ZIP code/);
    await userEvent.type(zip, '92101');
    await waitFor(() => expect((screen.getByLabelText(/City/) as HTMLInputElement).value).toBe('San Diego'));
    expect((screen.getByLabelText(/State/) as HTMLSelectElement).value).toBe('CA');
    expect(screen.getByRole('status').textContent).toBe('City and state filled in from the ZIP code: San Diego, CA. You can change them.');

    await userEvent.clear(zip);
    await userEvent.type(zip, '60601');
    await waitFor(() => expect((screen.getByLabelText(/City/) as HTMLInputElement).value).toBe('Chicago'));
    expect((screen.getByLabelText(/State/) as HTMLSelectElement).value).toBe('IL');
  });

  it('never replaces a city the patient typed', async () => {
    routes({ '/zipCodes/92101': [sanDiego] });
    render(<ApplicationForm applicant="primary" fields={fields} defaults={{}} onSubmit={vi.fn()} />);
    await userEvent.type(screen.getByLabelText(/City/), 'La Jolla');
    await userEvent.type(screen.getByLabelText(/ZIP code/), '92101');
    await waitFor(() => expect((screen.getByLabelText(/State/) as HTMLSelectElement).value).toBe('CA'));
    expect((screen.getByLabelText(/City/) as HTMLInputElement).value).toBe('La Jolla');
  });

  it('leaves both alone for a ZIP the list does not have', async () => {
    const calls = routes({});
    render(<ApplicationForm applicant="primary" fields={fields} defaults={{}} onSubmit={vi.fn()} />);
    await userEvent.type(screen.getByLabelText(/ZIP code/), '00601');
    await waitFor(() => expect(calls.map((c) => c.path)).toContain('/zipCodes/00601'));
    expect((screen.getByLabelText(/City/) as HTMLInputElement).value).toBe('');
    expect(screen.getByRole('status').textContent).toBe('');
  });

  it('says it in Spanish', async () => {
    await setLanguage('es');
    routes({ '/zipCodes/92101': [sanDiego] });
    render(<ApplicationForm applicant="primary" fields={fields} defaults={{}} onSubmit={vi.fn()} />);
    await userEvent.type(screen.getByLabelText(/Código postal/), '92101');
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('Ciudad y estado completados con el código postal: San Diego, CA. Puede cambiarlos.'),
    );
  });
});

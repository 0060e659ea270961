import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FieldDefinition } from '@/lib/api/types';
import { ApplicationForm } from './ApplicationForm';

const fields: FieldDefinition[] = [
  { id: 'firstName', path: 'firstName', name: 'firstName', label: 'First name', type: 'text', group: 'personal', rules: { required: {} } },
  { id: 'ssn', path: 'ssn', name: 'ssn', label: 'Social Security number', type: 'ssn', group: 'personal', rules: { required: {} } },
  {
    id: 'housingStatus',
    path: 'housingStatus',
    name: 'housingStatus',
    label: 'Do you rent or own?',
    type: 'select',
    group: 'housing',
    rules: {
      required: {},
      validOptions: {
        options: [
          { value: 'rent', label: 'Rent' },
          { value: 'own', label: 'Own' },
        ],
      },
    },
  },
  {
    id: 'nameSuffix',
    path: 'nameSuffix',
    name: 'nameSuffix',
    label: 'Suffix',
    type: 'select',
    group: 'personal',
    rules: { validOptions: { options: [{ value: 'JR', label: 'Jr.' }] } },
  },
  { id: 'nickname', path: 'nickname', name: 'nickname', label: 'Nickname', type: 'hologram', group: 'personal', rules: {} },
  { id: 'mobilePhone', path: 'mobilePhone', name: 'mobilePhone', label: 'Mobile phone', type: 'phone', group: 'contact', rules: {} },
  { id: 'homePhone', path: 'homePhone', name: 'homePhone', label: 'Home phone', type: 'phone', group: 'contact', rules: {} },
];

describe('ApplicationForm', () => {
  it('renders the server fields with stars, placeholders and a text fallback', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    render(<ApplicationForm applicant="primary" fields={fields} defaults={{}} onSubmit={vi.fn()} />);
    expect(screen.getByLabelText(/First name/)).toHaveProperty('required', false);
    expect(screen.getAllByText('*').length).toBeGreaterThan(0);
    expect(screen.getByRole('combobox', { name: /rent or own/ }).textContent).toContain('Select One');
    expect(screen.getByRole('combobox', { name: /Suffix/ }).textContent).toContain('None');
    expect((screen.getByLabelText(/Nickname/) as HTMLInputElement).type).toBe('text');
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('hologram'));
    expect(screen.getByLabelText(/First name/).getAttribute('autocomplete')).toBe('given-name');
    expect(screen.getByLabelText(/Social Security number/).getAttribute('inputmode')).toBe('numeric');
    warn.mockRestore();
  });

  it('shapes what it is given as it shapes what is typed: an office’s invitation shows the phone as the patient would type it', () => {
    render(
      <ApplicationForm
        applicant="primary"
        fields={fields}
        defaults={{ firstName: 'Maria', mobilePhone: '5035550142', homePhone: '(503) 555-0199', ssn: '123456789' }}
        onSubmit={vi.fn()}
      />,
    );
    expect((screen.getByLabelText(/Mobile phone/) as HTMLInputElement).value).toBe('(503) 555-0142');
    expect((screen.getByLabelText(/Home phone/) as HTMLInputElement).value).toBe('(503) 555-0199');
    expect((screen.getByLabelText(/Social Security number/) as HTMLInputElement).value).toBe('123-45-6789');
    expect((screen.getByLabelText(/First name/) as HTMLInputElement).value).toBe('Maria');
  });

  it('shows "There is a problem", focuses it and marks the fields', async () => {
    const onSubmit = vi.fn();
    render(
      <ApplicationForm
        applicant="primary"
        fields={fields}
        groupRules={[{ id: 'phone', rule: 'requireOne', fields: ['mobilePhone', 'homePhone'], message: 'Enter a mobile or a home phone number' }]}
        defaults={{}}
        onSubmit={onSubmit}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByRole('alert');
    expect(summary.textContent).toContain('There is a problem');
    expect(summary.textContent).toContain('First name: Required Field');
    expect(summary.textContent).toContain('Mobile phone: Enter a mobile or a home phone number');
    await waitFor(() => expect(document.activeElement).toBe(summary));
    const input = screen.getByLabelText(/First name/);
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(input.getAttribute('aria-describedby')!.split(' ').pop()!)?.textContent).toContain('Required Field');
    expect(onSubmit).not.toHaveBeenCalled();
  });

  it('checks the ZIP against the state before anything is sent, as the server does', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response('{"valid":true}', { status: 200, headers: { 'Content-Type': 'application/json' } })),
    );
    const address: FieldDefinition[] = [
      { id: 'addressState', path: 'addressState', name: 'addressState', label: 'State', type: 'state', group: 'address', rules: { required: {} } },
      {
        id: 'addressZipCode',
        path: 'addressZipCode',
        name: 'addressZipCode',
        label: 'ZIP code',
        type: 'zipCode',
        group: 'address',
        rules: { required: {} },
      },
    ];
    const onSubmit = vi.fn();
    render(
      <ApplicationForm
        applicant="primary"
        fields={address}
        groupRules={[{ id: 'zipState', rule: 'zipState', fields: ['addressZipCode', 'addressState'], message: 'Zip Code not valid for state' }]}
        defaults={{ addressState: 'CA', addressZipCode: '60601' }}
        onSubmit={onSubmit}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    const summary = await screen.findByRole('alert');
    expect(summary.textContent).toContain('ZIP code: Zip Code not valid for state');
    expect(onSubmit).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('asks to confirm the details, with the SSN masked', async () => {
    const onSubmit = vi.fn();
    render(
      <ApplicationForm
        applicant="primary"
        fields={fields.slice(0, 3)}
        defaults={{ firstName: 'Ann', ssn: '123-45-6789', housingStatus: 'own' }}
        onSubmit={onSubmit}
      />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Check your details')).toBeTruthy();
    expect(screen.getByText('xxx-xx-6789')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ firstName: 'Ann', housingStatus: 'own' }), false);
  });

  it('marks the fields the server refused', async () => {
    render(
      <ApplicationForm
        applicant="primary"
        fields={fields.slice(0, 2)}
        defaults={{ firstName: 'Ann', ssn: '123-45-6789' }}
        serverErrors={[{ field: 'primary.ssn', message: 'SSN does not match' }]}
        onSubmit={vi.fn()}
      />,
    );
    expect((await screen.findByRole('alert')).textContent).toContain('Social Security number: SSN does not match');
    expect(screen.getByLabelText(/Social Security number/).getAttribute('aria-invalid')).toBe('true');
  });

  it('a decimal in a whole-number field is an error in the patient’s words, and nothing is submitted', async () => {
    const onSubmit = vi.fn();
    const months: FieldDefinition = {
      id: 'monthsEmployed',
      path: 'monthsEmployed',
      name: 'monthsEmployed',
      label: 'Months with this employer',
      type: 'number',
      group: 'employment',
      inputMode: 'numeric',
      rules: { required: {}, min: { min: 0 }, max: { max: 720 } },
    };
    render(<ApplicationForm applicant="primary" fields={[months]} defaults={{}} onSubmit={onSubmit} />);
    const input = screen.getByLabelText(/Months with this employer/);
    await userEvent.type(input, '2.5');
    await userEvent.tab();
    expect(await screen.findByText('Please enter a whole number.')).toBeTruthy();
    expect(input.getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Months with this employer: Please enter a whole number.');
    expect(screen.queryByText('Check your details')).toBeNull();
    expect(onSubmit).not.toHaveBeenCalled();
    // The value stays as typed: it is not rounded or cut to a number.
    expect((input as HTMLInputElement).value).toBe('2.5');
  });
});

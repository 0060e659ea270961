import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { FieldDefinition } from '@/lib/api/types';
import { json, routes } from '@/test/fetch';
import { ApplicationForm } from './ApplicationForm';

const fields: FieldDefinition[] = [
  { id: 'email', path: 'email', name: 'email', label: 'Email address', type: 'email', group: 'contact', rules: {} },
  { id: 'mobilePhone', path: 'mobilePhone', name: 'mobilePhone', label: 'Mobile phone', type: 'phone', group: 'contact', rules: {} },
  { id: 'addressState', path: 'addressState', name: 'addressState', label: 'State', type: 'state', group: 'address', rules: {} },
  { id: 'addressZipCode', path: 'addressZipCode', name: 'addressZipCode', label: 'ZIP code', type: 'zipCode', group: 'address', rules: {} },
  { id: 'firstName', path: 'firstName', name: 'firstName', label: 'First name', type: 'text', group: 'personal', rules: {} },
];

const valid = (v: boolean) => () => json({ valid: v });

function form(onSubmit = vi.fn()) {
  render(<ApplicationForm applicant="primary" fields={fields} defaults={{}} onSubmit={onSubmit} />);
  return onSubmit;
}

const bodies = (calls: { path: string; body: string | undefined }[], path: string) =>
  calls.filter((c) => c.path === path).map((c) => JSON.parse(c.body ?? 'null') as unknown);

afterEach(() => vi.unstubAllGlobals());

describe('the server’s checks on blur', () => {
  it('email: the server’s verdict is the field’s error, kept on submit, gone once the address changes', async () => {
    const calls = routes({ '/validate/email': [valid(false), valid(true)] });
    const onSubmit = form();
    const email = screen.getByLabelText(/Email address/);
    await userEvent.type(email, 'ann@example.org');
    await userEvent.tab();
    expect(await screen.findByText('Email is invalid')).toBeTruthy();
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(bodies(calls, '/validate/email')).toEqual([{ email: 'ann@example.org' }]);
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Email address: Email is invalid');
    expect(onSubmit).not.toHaveBeenCalled();
    await userEvent.clear(email);
    await userEvent.type(email, 'ann@example.com');
    await waitFor(() => expect(email.getAttribute('aria-invalid')).toBeNull());
    await userEvent.tab();
    await waitFor(() => expect(bodies(calls, '/validate/email')).toEqual([{ email: 'ann@example.org' }, { email: 'ann@example.com' }]));
    expect(screen.queryByText('Email is invalid')).toBeNull();
  });

  it('phone: sends the 10 digits and names the field in the message', async () => {
    const calls = routes({ '/validate/phone': [valid(false)] });
    form();
    await userEvent.type(screen.getByLabelText(/Mobile phone/), '6195550134');
    await userEvent.tab();
    expect(await screen.findByText('Mobile phone is not a valid phone number')).toBeTruthy();
    expect(bodies(calls, '/validate/phone')).toEqual([{ phoneNumber: '6195550134' }]);
  });

  it('ZIP code: checked against the state chosen, only when both are there', async () => {
    const calls = routes({ '/validate/zipCode': [valid(false)] });
    form();
    const zip = screen.getByLabelText(/ZIP code/);
    await userEvent.type(zip, '92101');
    await userEvent.tab();
    await new Promise((r) => setTimeout(r, 400));
    // Only the look-up that fills in the state (it has no place here): no check without a state.
    expect(calls.map((c) => c.path)).toEqual(['/zipCodes/92101']);
    await userEvent.selectOptions(screen.getByLabelText(/State/), 'CA');
    await userEvent.tab();
    expect(await screen.findByText('Zip Code not valid for state')).toBeTruthy();
    expect(bodies(calls, '/validate/zipCode')).toEqual([{ zipCode: '92101', state: 'CA' }]);
  });

  it('nothing is asked while the field’s own checks fail', async () => {
    const calls = routes({});
    form();
    await userEvent.type(screen.getByLabelText(/Email address/), 'ann@');
    await userEvent.tab();
    expect(await screen.findByText('Email is invalid')).toBeTruthy();
    await new Promise((r) => setTimeout(r, 400));
    expect(calls).toEqual([]);
  });

  it('a call that fails is ignored: no error, and the form goes on', async () => {
    routes({ '/validate/email': [json({ code: 'internal', message: 'boom' }, 500)], '/validate/phone': [new TypeError('Failed to fetch')] });
    const onSubmit = form();
    await userEvent.type(screen.getByLabelText(/Email address/), 'ann@example.com');
    await userEvent.type(screen.getByLabelText(/Mobile phone/), '6195550134');
    await userEvent.tab();
    await new Promise((r) => setTimeout(r, 500));
    expect(screen.queryByText('Email is invalid')).toBeNull();
    expect(screen.queryByText(/is not a valid phone number/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByText('Check your details')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Confirm and continue' }));
    expect(onSubmit).toHaveBeenCalled();
  });

  it('leaving fields quickly asks only once per field, and a value changed meanwhile is not judged', async () => {
    const calls = routes({ '/validate/email': [valid(false)] });
    form();
    const email = screen.getByLabelText(/Email address/);
    await userEvent.type(email, 'ann@example.com');
    await userEvent.tab();
    // Back into the field before the check starts: the pending check is dropped, and the next blur asks for the new value.
    await userEvent.click(email);
    await userEvent.type(email, 'x');
    await userEvent.tab();
    await waitFor(() => expect(bodies(calls, '/validate/email')).toEqual([{ email: 'ann@example.comx' }]));
    expect(await screen.findByText('Email is invalid')).toBeTruthy();
  });
});

import { useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, providerPath } from '@/lib/api/client';
import type { ProviderApplicationState } from '@/lib/api/types';
import { afterStep } from '@/lib/lenderSteps';
import { useFlow, useProviderName } from '@/stores/flow';
import { contactErrors, maskPhone, phoneDigits, RELATIONSHIPS } from './rules';
import { Failure } from '@/components/Failure';

/*
 * One more way for the lender to reach the patient (docs/behaviour.md, "What
 * each lender asks for"): someone who does not live with them. It goes to
 * the lender as a lender step and is kept in this screen's state only.
 */

export function AdditionalContactPage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  const [name, setName] = useState('');
  const [relationship, setRelationship] = useState('');
  const [phone, setPhone] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  /** edited clears a field's error once the patient changes it. */
  const edited = (id: string) =>
    setErrors((e) => {
      if (!(id in e)) return e;
      const rest = { ...e };
      delete rest[id];
      return rest;
    });

  async function send() {
    const e = contactErrors({ name, relationship, phone });
    setErrors(e);
    setFailure('');
    const first = Object.keys(e)[0];
    if (first) {
      document.getElementById(`contact-${first}`)?.focus();
      return;
    }
    try {
      const body = { name: name.trim(), relationship, phone: phoneDigits(phone) };
      const pa = await withProgress(`Sending your contact to ${lender}…`, () =>
        api.post<ProviderApplicationState>(providerPath(providerKey, 'application/additional-contact'), body, {
          lenderStep: true,
          noErrorHandling: true,
        }),
      );
      navigate(await afterStep(providerKey, pa));
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors.length) {
        const out: Record<string, string> = {};
        for (const fe of err.fieldErrors) out[fe.field.replace('contact.', '')] = fe.message;
        setErrors(out);
      } else setFailure(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');
    }
  }

  const field = (id: string, label: string, control: React.ReactNode, hint?: string) => (
    <div className={`field${errors[id] ? ' field--error' : ''}`}>
      <label className="label" htmlFor={`contact-${id}`}>
        {label}
      </label>
      {hint ? (
        <span id={`contact-${id}-hint`} className="hint">
          {hint}
        </span>
      ) : null}
      {control}
      {errors[id] ? (
        <span id={`contact-${id}-error`} className="error-text">
          <span className="visually-hidden">Error: </span>
          {errors[id]}
        </span>
      ) : null}
    </div>
  );
  const described = (id: string, hint = false) =>
    [hint ? `contact-${id}-hint` : '', errors[id] ? `contact-${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div className="card">
      <Page
        title="One more way to reach you"
        lead={`${lender} asks for someone who can pass on a message if they cannot reach you — a relative or friend who does not live with you. ${lender} only contacts them if it cannot reach you, and never shares your loan details with them.`}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          {field(
            'name',
            'Their full name',
            <input
              id="contact-name"
              className="input"
              autoComplete="off"
              value={name}
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={described('name')}
              onChange={(e) => {
                setName(e.target.value.slice(0, 60));
                edited('name');
              }}
            />,
          )}
          {field(
            'relationship',
            'How do you know them?',
            <select
              id="contact-relationship"
              className="input"
              value={relationship}
              aria-invalid={errors.relationship ? true : undefined}
              aria-describedby={described('relationship')}
              onChange={(e) => {
                setRelationship(e.target.value);
                edited('relationship');
              }}
            >
              <option value="">Choose one</option>
              {RELATIONSHIPS.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>,
          )}
          {field(
            'phone',
            'Their phone number',
            <input
              id="contact-phone"
              className="input"
              inputMode="tel"
              autoComplete="off"
              value={maskPhone(phone)}
              aria-invalid={errors.phone ? true : undefined}
              aria-describedby={described('phone', true)}
              onChange={(e) => {
                setPhone(phoneDigits(e.target.value));
                edited('phone');
              }}
            />,
            '10 digits, US number',
          )}
          <Failure message={failure} />
          <div className="actions">
            <Button type="submit">Continue</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

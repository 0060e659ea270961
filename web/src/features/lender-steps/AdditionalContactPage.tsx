import { useState, type ReactNode } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, lenderPath } from '@/lib/api/client';
import type { ProviderApplicationState } from '@/lib/api/types';
import { afterStep } from '@/lib/lenderSteps';
import { useT } from '@/lib/i18n';
import { serverText } from '@/lib/serverText';
import { useFlow, useLenderName } from '@/stores/flow';
import { contactErrors, maskPhone, phoneDigits, relationshipLabel, RELATIONSHIPS } from './rules';
import { Failure } from '@/components/Failure';

/** Field is one labelled control of the contact form, with its hint and its error tied to it. */
function Field({ id, label, hint, error, children }: { id: string; label: string; hint?: string; error?: string; children: ReactNode }) {
  const t = useT();
  return (
    <div className={`field${error ? ' field--error' : ''}`}>
      <label className="label" htmlFor={`contact-${id}`}>
        {label}
      </label>
      {hint ? (
        <span id={`contact-${id}-hint`} className="hint">
          {hint}
        </span>
      ) : null}
      {children}
      {error ? (
        <span id={`contact-${id}-error`} className="error-text">
          <span className="visually-hidden">{t('common.errorPrefix')}</span>
          {serverText(error)}
        </span>
      ) : null}
    </div>
  );
}

/*
 * One more way for the lender to reach the patient (docs/behaviour.md, "What
 * each lender asks for"): someone who does not live with them. It goes to
 * the lender as a lender step and is kept in this screen's state only.
 */

export function AdditionalContactPage() {
  const t = useT();
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useLenderName(providerKey);
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
      const pa = await withProgress(t('lenderSteps.contact.progress', { lender }), () =>
        api.post<ProviderApplicationState>(lenderPath(providerKey, 'application/additional-contact'), body, {
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
      } else setFailure(err instanceof ApiError ? err.message : t('lenderSteps.failed'));
    }
  }

  const described = (id: string, hint = false) =>
    [hint ? `contact-${id}-hint` : '', errors[id] ? `contact-${id}-error` : ''].filter(Boolean).join(' ') || undefined;

  return (
    <div className="card">
      <Page title={t('lenderSteps.contact.title')} lead={t('lenderSteps.contact.lead', { lender })}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Field id="name" label={t('lenderSteps.contact.name')} error={errors.name}>
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
            />
          </Field>
          <Field id="relationship" label={t('lenderSteps.contact.relationship')} error={errors.relationship}>
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
              <option value="">{t('lenderSteps.contact.chooseOne')}</option>
              {RELATIONSHIPS.map((r) => (
                <option key={r} value={r}>
                  {relationshipLabel(r)}
                </option>
              ))}
            </select>
          </Field>
          <Field id="phone" label={t('lenderSteps.contact.phone')} hint={t('lenderSteps.contact.phoneHint')} error={errors.phone}>
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
            />
          </Field>
          <Failure message={failure} />
          <div className="actions">
            <Button type="submit">{t('lenderSteps.continue')}</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

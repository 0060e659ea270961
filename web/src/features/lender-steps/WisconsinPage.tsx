import { useState, type ReactNode } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError } from '@/lib/api/client';
import { sendLenderStep } from '@/lib/lenderSteps';
import { US_STATES } from '@/lib/validation';
import { useFlow, useProviderName } from '@/stores/flow';
import { spouseErrors, type SpouseForm } from './rules';
import { Failure } from '@/components/Failure';

/*
 * For an applicant living in Wisconsin (docs/behaviour.md, "What each lender
 * asks for"): Wisconsin's marital property law lets a spouse be told of
 * credit their partner takes, so the lender asks whether the patient is
 * married and, if so, the spouse's name and address. Asked here, and only of
 * Wisconsin residents, rather than on the form. Sent to the lender, kept in
 * this screen's state only.
 */

const EMPTY: SpouseForm = { firstName: '', lastName: '', addressLine1: '', addressLine2: '', city: '', state: 'WI', zipCode: '' };

function TextField(props: {
  id: keyof SpouseForm;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  onChange: (v: string) => void;
}): ReactNode {
  const id = `spouse-${props.id}`;
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${props.error ? ' field--error' : ''}`}>
      <label className="label" htmlFor={id}>
        {props.label}
      </label>
      {props.hint ? (
        <span id={`${id}-hint`} className="hint">
          {props.hint}
        </span>
      ) : null}
      <input
        id={id}
        className="input"
        autoComplete="off"
        value={props.value}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described}
        onChange={(e) => props.onChange(e.target.value.slice(0, 60))}
      />
      {props.error ? (
        <span id={`${id}-error`} className="error-text">
          <span className="visually-hidden">Error: </span>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

export function WisconsinPage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  const [married, setMarried] = useState<boolean | null>(null);
  const [spouse, setSpouse] = useState<SpouseForm>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState('');
  const set = (k: keyof SpouseForm) => (v: string) => {
    setSpouse((s) => ({ ...s, [k]: v }));
    setErrors((e) => {
      const rest = { ...e };
      delete rest[k];
      return rest;
    });
  };

  async function send() {
    setFailure('');
    const e: Record<string, string> = married === null ? { married: 'Required Field' } : married ? spouseErrors(spouse) : {};
    setErrors(e);
    const first = Object.keys(e)[0];
    if (first) {
      document.getElementById(first === 'married' ? 'married-yes' : `spouse-${first}`)?.focus();
      return;
    }
    const body = married ? { married, spouse: { ...spouse, addressLine2: spouse.addressLine2.trim() || undefined } } : { married };
    try {
      navigate(await sendLenderStep(providerKey, 'application/wisconsin', body, `Sending your answer to ${lender}…`));
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors.length) {
        const out: Record<string, string> = {};
        for (const fe of err.fieldErrors) out[fe.field.replace(/^(spouse|wisconsin)\./, '')] = fe.message;
        setErrors(out);
      } else setFailure(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');
    }
  }

  return (
    <div className="card">
      <Page
        title="A question for Wisconsin residents"
        lead={`Under Wisconsin law, a married person's credit can concern their spouse, so ${lender} may send your spouse a notice that this account was opened. It does not need your spouse's permission, and your answer does not change your offer.`}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <fieldset
            className={`field form-section${errors.married ? ' field--error' : ''}`}
            aria-describedby={errors.married ? 'married-error' : undefined}
          >
            <legend className="label">Are you married?</legend>
            {errors.married ? (
              <span id="married-error" className="error-text">
                <span className="visually-hidden">Error: </span>
                {errors.married}
              </span>
            ) : null}
            <div className="radios">
              <label htmlFor="married-yes">
                <input id="married-yes" type="radio" name="married" checked={married === true} onChange={() => setMarried(true)} /> Yes
              </label>
              <label htmlFor="married-no">
                <input id="married-no" type="radio" name="married" checked={married === false} onChange={() => setMarried(false)} /> No
              </label>
            </div>
          </fieldset>
          {married ? (
            <>
              <h2>Your spouse</h2>
              <TextField id="firstName" label="First name" value={spouse.firstName} error={errors.firstName} onChange={set('firstName')} />
              <TextField id="lastName" label="Last name" value={spouse.lastName} error={errors.lastName} onChange={set('lastName')} />
              <TextField
                id="addressLine1"
                label="Street address"
                hint="Where your spouse gets mail; no P.O. boxes"
                value={spouse.addressLine1}
                error={errors.addressLine1}
                onChange={set('addressLine1')}
              />
              <TextField
                id="addressLine2"
                label="Apartment or unit (optional)"
                value={spouse.addressLine2}
                error={errors.addressLine2}
                onChange={set('addressLine2')}
              />
              <TextField id="city" label="City" value={spouse.city} error={errors.city} onChange={set('city')} />
              <div className={`field${errors.state ? ' field--error' : ''}`}>
                <label className="label" htmlFor="spouse-state">
                  State
                </label>
                <select
                  id="spouse-state"
                  className="input"
                  value={spouse.state}
                  aria-invalid={errors.state ? true : undefined}
                  aria-describedby={errors.state ? 'spouse-state-error' : undefined}
                  onChange={(e) => set('state')(e.target.value)}
                >
                  {US_STATES.map(([value, label]) => (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  ))}
                </select>
                {errors.state ? (
                  <span id="spouse-state-error" className="error-text">
                    {errors.state}
                  </span>
                ) : null}
              </div>
              <TextField
                id="zipCode"
                label="ZIP code"
                value={spouse.zipCode}
                error={errors.zipCode}
                onChange={(v) => set('zipCode')(v.replace(/[^\d-]/g, '').slice(0, 10))}
              />
            </>
          ) : null}
          <Failure message={failure} />
          <div className="actions">
            <Button type="submit">Continue</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

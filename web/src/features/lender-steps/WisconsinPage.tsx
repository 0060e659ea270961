import { serverText } from '@/lib/serverText';
import { useState, type ReactNode } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError } from '@/lib/api/client';
import { sendLenderStep } from '@/lib/lenderSteps';
import { useT } from '@/lib/i18n';
import { US_STATES } from '@/lib/validation';
import { useFlow, useLenderName } from '@/stores/flow';
import { spouseErrors, type SpouseForm } from './rules';
import { Failure } from '@/components/Failure';
import { TextField, type TextFieldProps } from '@/components/TextField';

/*
 * For an applicant living in Wisconsin (docs/behaviour.md, "What each lender
 * asks for"): Wisconsin's marital property law lets a spouse be told of
 * credit their partner takes, so the lender asks whether the patient is
 * married and, if so, the spouse's name and address. Asked here, and only of
 * Wisconsin residents, rather than on the form. Sent to the lender, kept in
 * this screen's state only.
 */

const EMPTY: SpouseForm = { firstName: '', lastName: '', addressLine1: '', addressLine2: '', city: '', state: 'WI', zipCode: '' };

/** SpouseField is one of the spouse's fields: the shared TextField, its id under spouse-, at most 60 characters. */
function SpouseField(props: Omit<TextFieldProps, 'id' | 'maxLength'> & { id: keyof SpouseForm }): ReactNode {
  return <TextField {...props} id={`spouse-${props.id}`} maxLength={60} />;
}

export function WisconsinPage() {
  const t = useT();
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useLenderName(providerKey);
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
    const e: Record<string, string> = married === null ? { married: t('lenderSteps.errors.required') } : married ? spouseErrors(spouse) : {};
    setErrors(e);
    const first = Object.keys(e)[0];
    if (first) {
      document.getElementById(first === 'married' ? 'married-yes' : `spouse-${first}`)?.focus();
      return;
    }
    const body = married ? { married, spouse: { ...spouse, addressLine2: spouse.addressLine2.trim() || undefined } } : { married };
    try {
      navigate(await sendLenderStep(providerKey, 'application/wisconsin', body, t('lenderSteps.wisconsin.progress', { lender })));
    } catch (err) {
      if (err instanceof ApiError && err.fieldErrors.length) {
        const out: Record<string, string> = {};
        for (const fe of err.fieldErrors) out[fe.field.replace(/^(spouse|wisconsin)\./, '')] = fe.message;
        setErrors(out);
      } else setFailure(err instanceof ApiError ? err.message : t('lenderSteps.failed'));
    }
  }

  return (
    <div className="card">
      <Page title={t('lenderSteps.wisconsin.title')} lead={t('lenderSteps.wisconsin.lead', { lender })}>
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
            <legend className="label">{t('lenderSteps.wisconsin.married')}</legend>
            {errors.married ? (
              <span id="married-error" className="error-text">
                <span className="visually-hidden">{t('common.errorPrefix')}</span>
                {errors.married}
              </span>
            ) : null}
            <div className="radios">
              <label htmlFor="married-yes">
                <input id="married-yes" type="radio" name="married" checked={married === true} onChange={() => setMarried(true)} />{' '}
                {t('lenderSteps.wisconsin.yes')}
              </label>
              <label htmlFor="married-no">
                <input id="married-no" type="radio" name="married" checked={married === false} onChange={() => setMarried(false)} />{' '}
                {t('lenderSteps.wisconsin.no')}
              </label>
            </div>
          </fieldset>
          {married ? (
            <>
              <h2>{t('lenderSteps.wisconsin.spouse')}</h2>
              <SpouseField
                id="firstName"
                label={t('lenderSteps.wisconsin.firstName')}
                value={spouse.firstName}
                error={errors.firstName}
                onChange={set('firstName')}
              />
              <SpouseField
                id="lastName"
                label={t('lenderSteps.wisconsin.lastName')}
                value={spouse.lastName}
                error={errors.lastName}
                onChange={set('lastName')}
              />
              <SpouseField
                id="addressLine1"
                label={t('lenderSteps.wisconsin.street')}
                hint={t('lenderSteps.wisconsin.streetHint')}
                value={spouse.addressLine1}
                error={errors.addressLine1}
                onChange={set('addressLine1')}
              />
              <SpouseField
                id="addressLine2"
                label={t('lenderSteps.wisconsin.unit')}
                value={spouse.addressLine2}
                error={errors.addressLine2}
                onChange={set('addressLine2')}
              />
              <SpouseField id="city" label={t('lenderSteps.wisconsin.city')} value={spouse.city} error={errors.city} onChange={set('city')} />
              <div className={`field${errors.state ? ' field--error' : ''}`}>
                <label className="label" htmlFor="spouse-state">
                  {t('lenderSteps.wisconsin.state')}
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
                    {serverText(errors.state)}
                  </span>
                ) : null}
              </div>
              <SpouseField
                id="zipCode"
                label={t('lenderSteps.wisconsin.zip')}
                value={spouse.zipCode}
                error={errors.zipCode}
                onChange={(v) => set('zipCode')(v.replace(/[^\d-]/g, '').slice(0, 10))}
              />
            </>
          ) : null}
          <Failure message={failure} />
          <div className="actions">
            <Button type="submit">{t('lenderSteps.continue')}</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

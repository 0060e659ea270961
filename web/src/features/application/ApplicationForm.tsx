import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Controller, useForm, type FieldValues } from 'react-hook-form';
import { Button } from '@/components/Button';
import type { FieldDefinition, FieldError, FieldGroupRule } from '@/lib/api/types';
import { splitFieldName } from '@/lib/api/client';
import { fieldType, groupRuleErrors, validateField } from '@/lib/validation';
import { maskFor } from '@/lib/masks';
import { serverText } from '@/lib/serverText';
import type { ApplicantValues } from '@/stores/flow';
import { Trans, useT } from '@/lib/i18n';
import { FieldControl, domId } from './FieldControl';
import { isTitledGroup } from './autocomplete';
import { useRemoteChecks } from './useRemoteChecks';
import { useZipPlace } from './useZipPlace';

const HIDDEN_IDS = new Set(['jointEnabled']);

export interface ApplicationFormProps {
  applicant: 'primary' | 'joint';
  fields: FieldDefinition[];
  /** Rules over several fields; requireOne is checked here, the rest by the server. */
  groupRules?: FieldGroupRule[];
  defaults: ApplicantValues;
  /** Errors the server sent (correctErrors), already for this applicant. */
  serverErrors?: FieldError[];
  showJointToggle?: boolean;
  jointEnabled?: boolean;
  submitLabel?: string;
  onSubmit: (values: ApplicantValues, jointEnabled: boolean) => void;
}

function groupFields(fields: FieldDefinition[]): { group: string; fields: FieldDefinition[] }[] {
  const out: { group: string; fields: FieldDefinition[] }[] = [];
  for (const f of fields) {
    if (HIDDEN_IDS.has(f.id)) continue;
    const g = f.group ?? 'personal';
    const last = out.find((o) => o.group === g);
    if (last) last.fields.push(f);
    else out.push({ group: g, fields: [f] });
  }
  return out;
}

function displayValue(def: FieldDefinition, v: unknown, yesNo: (yes: boolean) => string): string {
  const type = fieldType(def, () => undefined);
  if (v === undefined || v === '' || v === null) return '—';
  if (type === 'checkbox') return yesNo(v === true);
  const s = String(v);
  if (type === 'ssn') return `xxx-xx-${s.replace(/\D/g, '').slice(-4)}`;
  if (type === 'select' || type === 'radio') return serverText(def.rules?.validOptions?.options?.find((o) => o.value === s)?.label) || s;
  if (type === 'currency') return `$${s}`;
  return s;
}

/**
 * ApplicationForm renders the server's field definitions, checks them on
 * blur and on submit, shows "There is a problem" with links to each field,
 * then asks the person to confirm their details.
 */
export function ApplicationForm(props: ApplicationFormProps) {
  const { applicant, fields, defaults, serverErrors, showJointToggle } = props;
  const t = useT();
  const submitLabel = props.submitLabel ?? t('common.actions.continue');
  const yesNo = (yes: boolean) => (yes ? t('application.review.yes') : t('application.review.no'));
  const [jointEnabled, setJointEnabled] = useState(Boolean(props.jointEnabled));
  const [confirming, setConfirming] = useState<ApplicantValues | null>(null);
  const [summary, setSummary] = useState<{ id: string; label: string; message: string }[]>([]);
  const summaryRef = useRef<HTMLDivElement>(null);
  const reviewRef = useRef<HTMLHeadingElement>(null);

  const defaultValues = useMemo(() => {
    const v: FieldValues = {};
    for (const f of fields) {
      const t = fieldType(f, () => undefined);
      const given = defaults[f.id];
      const mask = maskFor(t);
      v[f.id] = typeof given === 'string' && mask ? mask(given) : (given ?? (t === 'checkbox' ? false : ''));
      if (t === 'dynamicPhone') v[`${f.id}Type`] = defaults[`${f.id}Type`] ?? 'mobile';
    }
    return v;
  }, [fields, defaults]);

  const requireOneRules = (props.groupRules ?? []).filter((r) => r.rule === 'requireOne');
  const { control, handleSubmit, formState, setError, getValues, setValue, trigger } = useForm<FieldValues>({ mode: 'onTouched', defaultValues });
  const errors = formState.errors;
  const revalidate = useCallback((id: string) => void trigger(id), [trigger]);
  const remote = useRemoteChecks(fields, getValues, revalidate);
  const zipPlace = useZipPlace(fields, control, getValues, setValue);

  // Server field errors (400 → correctErrors) are marked on their fields.
  useEffect(() => {
    if (!serverErrors?.length) return;
    const list: { id: string; label: string; message: string }[] = [];
    for (const fe of serverErrors) {
      const { id } = splitFieldName(fe.field);
      const def = fields.find((f) => f.id === id || f.path === id);
      setError(def?.id ?? id, { type: 'server', message: fe.message });
      list.push({ id: domId(applicant, def?.id ?? id), label: def?.label ?? id, message: fe.message });
    }
    setSummary(list);
  }, [serverErrors, fields, setError, applicant]);

  useEffect(() => {
    if (summary.length) summaryRef.current?.focus();
  }, [summary]);

  useEffect(() => {
    if (confirming) reviewRef.current?.focus();
  }, [confirming]);

  // The rules over several fields (at least one phone, the ZIP in the state,
  // pay dates that fit the pay frequency), judged as the server judges them,
  // on the rules whose fields are all on this form.
  const groupErrors = (values: FieldValues) => {
    const here = (id: string) => fields.some((f) => f.id === id);
    const onForm = (props.groupRules ?? []).filter((r) => (r.rule === 'requireOne' ? r.fields.some(here) : r.fields.every(here)));
    const bad = new Set(fields.filter((f) => validateField(f, values[f.id])).map((f) => f.id));
    return groupRuleErrors(fields, onForm, values, bad).map((e) => {
      const def = fields.find((f) => f.id === e.field);
      return { id: domId(applicant, e.field), fieldId: e.field, label: def?.label || def?.name || e.field, message: e.message };
    });
  };
  const onValid = (values: FieldValues) => {
    const group = groupErrors(values);
    if (group.length) {
      for (const g of group) setError(g.fieldId, { type: 'group', message: g.message });
      setSummary(group);
      setTimeout(() => summaryRef.current?.focus(), 0);
      return;
    }
    setSummary([]);
    setConfirming(values as ApplicantValues);
  };
  const onInvalid = () => {
    const values = getValues();
    const list = fields
      .filter((f) => !HIDDEN_IDS.has(f.id))
      .map((f) => ({ f, msg: validateField(f, values[f.id]) ?? remote.errorFor(f.id, values) ?? (errors[f.id]?.message as string | undefined) }))
      .filter((x) => x.msg)
      .map(({ f, msg }) => ({ id: domId(applicant, f.id), label: f.label || f.name, message: msg! }));
    for (const g of groupErrors(values)) {
      if (!list.some((l) => l.id === g.id)) {
        setError(g.fieldId, { type: 'group', message: g.message });
        list.push(g);
      }
    }
    setSummary(list);
    // Focus moves to the summary, even when the list is unchanged.
    setTimeout(() => summaryRef.current?.focus(), 0);
  };

  if (confirming) {
    return (
      <section className="card review" aria-labelledby="review-title">
        <h2 id="review-title" ref={reviewRef} tabIndex={-1}>
          {t('application.review.title')}
        </h2>
        <p>{t('application.review.lead')}</p>
        <dl>
          {fields
            .filter((f) => !HIDDEN_IDS.has(f.id))
            .map((f) => (
              <div key={f.id} style={{ display: 'contents' }}>
                <dt>{serverText(f.label) || f.name}</dt>
                <dd>{displayValue(f, confirming[f.id], yesNo)}</dd>
              </div>
            ))}
          {showJointToggle ? (
            <div style={{ display: 'contents' }}>
              <dt>{t('application.review.jointApplicant')}</dt>
              <dd>{yesNo(jointEnabled)}</dd>
            </div>
          ) : null}
        </dl>
        <div className="actions">
          <Button onClick={() => props.onSubmit(confirming, jointEnabled)}>{t('application.review.confirm')}</Button>
          <Button variant="secondary" onClick={() => setConfirming(null)}>
            {t('application.review.change')}
          </Button>
        </div>
      </section>
    );
  }

  return (
    <form
      noValidate
      onSubmit={handleSubmit(onValid, onInvalid)}
      aria-label={applicant === 'joint' ? t('application.form.jointDetails') : t('application.form.yourDetails')}
    >
      {summary.length ? (
        <div className="error-summary" ref={summaryRef} tabIndex={-1} role="alert" aria-labelledby="error-summary-title">
          <h2 id="error-summary-title">{t('application.form.problem')}</h2>
          <ul>
            {summary.map((s) => (
              <li key={s.id}>
                <a
                  href={`#${s.id}`}
                  onClick={(e) => {
                    e.preventDefault();
                    const el = document.getElementById(s.id);
                    el?.scrollIntoView({ block: 'center' });
                    el?.focus();
                  }}
                >
                  {serverText(s.label)}: {serverText(s.message)}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <p className="visually-hidden" role="status">
        {zipPlace ? t('application.form.zipFilled', { city: zipPlace.city, state: zipPlace.state }) : ''}
      </p>
      <p className="muted">
        <Trans
          i18nKey="application.form.required"
          components={{ star: <span className="req" aria-hidden="true" />, hidden: <span className="visually-hidden" /> }}
        />
      </p>
      {groupFields(fields).map((g) => (
        <fieldset key={g.group} className="fields-card">
          <legend>{isTitledGroup(g.group) ? t(`application.form.groups.${g.group}`) : g.group}</legend>
          {g.fields.map((def) => (
            <div key={def.id}>
              {requireOneRules
                .filter((r) => r.fields[0] === def.id)
                .map((r) => (
                  <p key={r.id} className="hint group-hint">
                    {serverText(r.message)}
                  </p>
                ))}
              <FieldControl
                def={def}
                applicant={applicant}
                control={control}
                error={errors[def.id]?.message as string | undefined}
                inGroup={requireOneRules.some((r) => r.fields.includes(def.id))}
                remote={remote}
              />
              {fieldType(def, () => undefined) === 'dynamicPhone' ? (
                <Controller
                  name={`${def.id}Type`}
                  control={control}
                  render={({ field }) => (
                    <fieldset className="field form-section">
                      <legend className="label" style={{ fontSize: 'inherit', color: 'inherit', fontWeight: 600 }}>
                        {t('application.form.phoneType')}
                      </legend>
                      <div className="radios">
                        {(['mobile', 'home'] as const).map((kind) => (
                          <label key={kind} htmlFor={`${domId(applicant, def.id)}-type-${kind}`}>
                            <input
                              type="radio"
                              id={`${domId(applicant, def.id)}-type-${kind}`}
                              name={field.name}
                              value={kind}
                              checked={field.value === kind}
                              onChange={() => field.onChange(kind)}
                            />
                            {kind === 'mobile' ? t('application.form.mobilePhone') : t('application.form.homePhone')}
                          </label>
                        ))}
                      </div>
                    </fieldset>
                  )}
                />
              ) : null}
            </div>
          ))}
        </fieldset>
      ))}
      {showJointToggle ? (
        <div className="card">
          <label className="check" htmlFor="jointEnabled">
            <input id="jointEnabled" type="checkbox" checked={jointEnabled} onChange={(e) => setJointEnabled(e.target.checked)} />
            <span>
              <strong>{t('application.form.addJoint')}</strong>
              <br />
              <span className="muted">{t('application.form.addJointHint')}</span>
            </span>
          </label>
        </div>
      ) : null}
      <div className="actions">
        <Button type="submit">{submitLabel}</Button>
      </div>
    </form>
  );
}

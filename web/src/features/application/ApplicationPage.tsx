import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Page } from '@/components/Page';
import { Loading } from '@/components/Skeleton';
import { FlowNotice } from '@/components/FlowNotice';
import { useFlowNavigate } from '@/flow/navigation';
import { isHandled, splitFieldName } from '@/lib/api/client';
import type { StartLenderResponse } from '@/lib/api/types';
import { lenderRoute } from '@/lib/paths';
import { useShallow } from 'zustand/react/shallow';
import { fieldsKey, flow, useFlow, useLenderName, type ApplicantValues, type Prefill } from '@/stores/flow';
import { formFields } from './api/body';
import { loadFields } from './api/fields';
import { ApplicationForm } from './ApplicationForm';
import { PatientCheck, PatientCheckNotice } from './PatientCheck';
import { useLanguage, useT } from '@/lib/i18n';
import { applicationWords } from '@/lib/firstWords';

function useFields(): StartLenderResponse | null {
  const providerKey = useFlow((s) => s.providerKey);
  const mode = useFlow((s) => s.applyMode);
  const res = useFlow((s) => (s.providerKey ? s.fields[fieldsKey(s.providerKey, s.applyMode)] : undefined));
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!providerKey || res) return;
    loadFields(providerKey, mode).catch((e: unknown) => {
      if (!isHandled(e)) setFailed(true);
    });
  }, [providerKey, mode, res]);
  if (failed) throw new Error('fields could not be loaded');
  return res ?? null;
}

/** PREFILLED maps what an invitation may carry to the form's fields (the date of birth is rewritten as the form shows it). */
const PREFILLED: [keyof Prefill, string][] = [
  ['email', 'email'],
  ['mobilePhone', 'mobilePhone'],
  ['addressLine1', 'addressLine1'],
  ['addressLine2', 'addressLine2'],
  ['city', 'addressCity'],
  ['state', 'addressState'],
  ['zip', 'addressZipCode'],
];

/**
 * withPrefill starts the form with what the office entered on an
 * invitation (docs/behaviour.md, "The office side"): the name, and the
 * email address or mobile number it sent the link to, and from the
 * office's own records the date of birth and address
 * (docs/practice-records.md), for the patient to confirm rather than type
 * again. What the patient typed always wins. Never an SSN.
 */
function withPrefill(values: ApplicantValues, prefill: Prefill): ApplicantValues {
  const start: ApplicantValues = { firstName: prefill.firstName ?? '', lastName: prefill.lastName ?? '' };
  for (const [from, to] of PREFILLED) {
    const v = prefill[from];
    if (v) start[to] = v;
  }
  const dob = /^(\d{4})-(\d{2})-(\d{2})$/.exec(prefill.dateOfBirth ?? '');
  if (dob) start.dateOfBirth = `${dob[2]}/${dob[3]}/${dob[1]}`;
  return { ...start, ...values };
}

/** ApplicationPage: modes/{mode}/application, the patient's own details. */
export function ApplicationPage() {
  const navigate = useFlowNavigate();
  // Fields that arrive after the screen (asked again in the office's language) render the form as a
  // transition, in slices, rather than in one go as a change of the store would (docs/performance.md,
  // "The application screen"); fields already here render with the screen. While the deferred value
  // lags, it is the form this screen showed before (another mode's, after a switch to the standard
  // application): never shown, as the patient would type into a form about to be replaced.
  const current = useFields();
  const deferred = useDeferredValue(current);
  const res = deferred === current ? deferred : null;
  const s = useFlow(
    useShallow((x) => ({
      providerKey: x.providerKey,
      applyMode: x.applyMode,
      purchaseAmountCents: x.purchaseAmountCents,
      primary: x.primary,
      prefill: x.prefill,
      jointEnabled: x.jointEnabled,
      patientCheck: x.patientCheck,
    })),
  );
  const lender = useLenderName(s.providerKey);
  const t = useT();
  // The same words a link's page draws before the app has loaded (lib/firstWords.ts).
  const words = applicationWords(useLanguage(), s.purchaseAmountCents, lender);
  const defaults = useMemo(() => withPrefill(s.primary, s.prefill), [s.primary, s.prefill]);
  const fields = useMemo(() => formFields(res?.fields ?? [], 'primary', s.purchaseAmountCents), [res, s.purchaseAmountCents]);
  return (
    <>
      <Page title={words.title} lead={words.lead} />
      <FlowNotice />
      <PatientCheck />
      <PatientCheckNotice />
      {res ? (
        <ApplicationForm
          // The patient check's answer decides whose name the form starts with.
          key={s.patientCheck ?? 'unasked'}
          applicant="primary"
          fields={fields}
          groupRules={res.fieldGroupRules}
          defaults={defaults}
          showJointToggle
          jointEnabled={s.jointEnabled}
          onSubmit={(values, jointEnabled) => {
            // The notice explained why this lender: it has been read, and must not follow the patient on.
            flow.set({ primary: values, jointEnabled, notice: null });
            navigate(lenderRoute(s.providerKey!, `modes/${s.applyMode}/${jointEnabled ? 'jointApplication' : 'applicationNext'}`));
          }}
        />
      ) : (
        <Loading label={t('application.page.loading')} height={900} />
      )}
    </>
  );
}

/** JointApplicationPage: modes/{mode}/jointApplication. */
export function JointApplicationPage() {
  const navigate = useFlowNavigate();
  const res = useFields();
  const s = useFlow(useShallow((x) => ({ providerKey: x.providerKey, applyMode: x.applyMode, joint: x.joint })));
  const fields = useMemo(() => formFields(res?.fields ?? [], 'joint', 0), [res]);
  const t = useT();
  return (
    <>
      <Page title={t('application.joint.title')} lead={t('application.joint.lead')} />
      {res ? (
        <ApplicationForm
          applicant="joint"
          fields={fields}
          groupRules={res.fieldGroupRules}
          defaults={s.joint}
          onSubmit={(values) => {
            flow.set({ joint: values });
            navigate(lenderRoute(s.providerKey!, `modes/${s.applyMode}/applicationNext`));
          }}
        />
      ) : (
        <Loading label={t('application.page.loading')} height={900} />
      )}
    </>
  );
}

/** CorrectErrorsPage: correctErrors?applicantType= after a 400 with fieldErrors (docs/behaviour.md, "Validation"). */
export function CorrectErrorsPage() {
  const navigate = useFlowNavigate();
  const [q] = useSearchParams();
  const applicant = q.get('applicantType') === 'joint' ? 'joint' : 'primary';
  const res = useFields();
  const s = useFlow(
    useShallow((x) => ({
      providerKey: x.providerKey,
      applyMode: x.applyMode,
      purchaseAmountCents: x.purchaseAmountCents,
      primary: x.primary,
      joint: x.joint,
      validation: x.validation,
    })),
  );
  const errors = useMemo(
    () => (s.validation?.fieldErrors ?? []).filter((fe) => splitFieldName(fe.field).applicant === applicant),
    [s.validation, applicant],
  );
  const fields = useMemo(() => formFields(res?.fields ?? [], applicant, s.purchaseAmountCents), [res, applicant, s.purchaseAmountCents]);
  const t = useT();
  return (
    <>
      <Page title={t('application.correct.title')} lead={t('application.correct.lead')} />
      {res ? (
        <ApplicationForm
          applicant={applicant}
          fields={fields}
          groupRules={res.fieldGroupRules}
          defaults={applicant === 'joint' ? s.joint : s.primary}
          serverErrors={errors}
          submitLabel={t('application.correct.sendAgain')}
          onSubmit={(values) => {
            flow.set(applicant === 'joint' ? { joint: values } : { primary: values });
            const v = flow.get().validation;
            const others = v?.invalidApplicants.filter((a) => a !== applicant) ?? [];
            if (others.length) {
              navigate(`${lenderRoute(s.providerKey!, 'correctErrors')}?applicantType=${others[0]}`);
              flow.set({ validation: v ? { ...v, invalidApplicants: others } : null });
              return;
            }
            navigate(v?.resubmitRoute ?? lenderRoute(s.providerKey!, `modes/${s.applyMode}/applicationNext`));
          }}
        />
      ) : (
        <Loading height={900} />
      )}
    </>
  );
}

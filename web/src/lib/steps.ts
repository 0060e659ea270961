import { t } from './i18n';

/** Steps of the stepper (docs/behaviour.md, "Routes"). */
export type StepId =
  'patientInfo' | 'jointApplicantInfo' | 'termsAndConditions' | 'acceptOffer' | 'paymentOptions' | 'complete' | 'beginStandardApplication';

/** stepLabel names a step in the patient's language (the stepper messages of locales/en/lenderSteps.json); call it at render. */
export const stepLabel = (id: StepId): string => t(`lenderSteps.stepper.${id}`);

export type StepFlow = 'full' | 'prequalify' | 'prescreen' | 'nooffer';

export function stepList(flow: StepFlow, joint = false): StepId[] {
  switch (flow) {
    case 'full':
      return joint
        ? ['patientInfo', 'jointApplicantInfo', 'termsAndConditions', 'paymentOptions', 'complete']
        : ['patientInfo', 'termsAndConditions', 'paymentOptions', 'complete'];
    case 'prequalify':
    case 'prescreen':
      return ['patientInfo', 'paymentOptions', 'acceptOffer', 'complete'];
    case 'nooffer':
      return ['patientInfo', 'beginStandardApplication'];
  }
}

export type StepStatus = 'complete' | 'current' | 'upcoming';

export interface StepView {
  id: StepId;
  label: string;
  status: StepStatus;
  /** True when the step counts as done (before the current one, or the current complete step). */
  done: boolean;
}

/**
 * stepStates: steps before the current one are complete; the complete step is
 * complete when it is current. A current step missing from the list (e.g. the
 * joint step in a flow without it) counts as its nearest predecessor.
 */
export function stepStates(steps: StepId[], current: StepId | undefined): StepView[] {
  let idx = current ? steps.indexOf(current) : -1;
  if (current === 'jointApplicantInfo' && idx < 0) idx = steps.indexOf('patientInfo');
  return steps.map((id, i) => {
    const status: StepStatus = i < idx ? 'complete' : i === idx ? 'current' : 'upcoming';
    return { id, label: stepLabel(id), status, done: i < idx || (i === idx && id === 'complete') };
  });
}

/** Steps of the stepper (docs/behaviour.md, "Routes"). */
export type StepId =
  'patientInfo' | 'jointApplicantInfo' | 'termsAndConditions' | 'acceptOffer' | 'paymentOptions' | 'complete' | 'beginStandardApplication';

export const STEP_LABELS: Record<StepId, string> = {
  patientInfo: 'Patient info',
  jointApplicantInfo: 'Joint applicant info',
  termsAndConditions: 'Terms',
  acceptOffer: 'Accept offer',
  paymentOptions: 'Payment options',
  complete: 'Complete',
  beginStandardApplication: 'Begin standard application',
};

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
    return { id, label: STEP_LABELS[id], status, done: i < idx || (i === idx && id === 'complete') };
  });
}

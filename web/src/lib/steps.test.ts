import { describe, expect, it } from 'vitest';
import { stepList, stepStates } from './steps';

describe('step lists', () => {
  it('full', () => expect(stepList('full')).toEqual(['patientInfo', 'termsAndConditions', 'paymentOptions', 'complete']));
  it('full with joint', () =>
    expect(stepList('full', true)).toEqual(['patientInfo', 'jointApplicantInfo', 'termsAndConditions', 'paymentOptions', 'complete']));
  it('prequalify and prescreen', () => {
    expect(stepList('prequalify')).toEqual(['patientInfo', 'paymentOptions', 'acceptOffer', 'complete']);
    expect(stepList('prescreen')).toEqual(stepList('prequalify'));
  });
  it('no offer', () => expect(stepList('nooffer')).toEqual(['patientInfo', 'beginStandardApplication']));
});

describe('step completion', () => {
  it('marks steps before the current one complete', () => {
    const v = stepStates(stepList('prequalify'), 'acceptOffer');
    expect(v.map((s) => s.status)).toEqual(['complete', 'complete', 'current', 'upcoming']);
    expect(v.map((s) => s.done)).toEqual([true, true, false, false]);
  });
  it('marks the complete step complete when it is current', () => {
    const v = stepStates(stepList('full'), 'complete');
    expect(v.every((s) => s.done)).toBe(true);
    expect(v[3]!.status).toBe('current');
  });
  it('leaves everything upcoming without a current step', () => {
    expect(stepStates(stepList('full'), undefined).every((s) => s.status === 'upcoming')).toBe(true);
  });
  it('places the joint step at patient info in a flow without it', () => {
    const v = stepStates(stepList('prequalify'), 'jointApplicantInfo');
    expect(v[0]!.status).toBe('current');
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import { monthsEmployed, withMonthsField } from '@/test/fixtures';
import type { FieldDefinition } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { applicationBody, formFields, unsendableNumbers } from './body';

const months = monthsEmployed;

const withFields = withMonthsField;

beforeEach(() => flow.reset());

describe('whole numbers are never sent as something else', () => {
  it('a whole number is sent as a number', () => {
    withFields();
    flow.set({ primary: { monthsEmployed: '24' } });
    expect(applicationBody('a', 'prequalify')).toEqual({ primary: { monthsEmployed: 24 }, jointEnabled: false });
    expect(unsendableNumbers('a', 'prequalify')).toEqual([]);
  });

  it('"2.5" is left out of the body and reported in the server’s words', () => {
    withFields();
    flow.set({ primary: { monthsEmployed: '2.5' } });
    expect(applicationBody('a', 'prequalify')).toEqual({ primary: {}, jointEnabled: false });
    expect(unsendableNumbers('a', 'prequalify')).toEqual([{ field: 'primary.monthsEmployed', message: 'Please enter a whole number.' }]);
  });
});

describe('the treatment amount', () => {
  const amount: FieldDefinition = {
    id: 'purchaseAmountCents',
    path: 'purchaseAmountCents',
    name: 'purchaseAmountCents',
    label: 'Treatment amount',
    type: 'currency',
    rules: { required: {} },
  };

  it('is asked on the primary applicant’s form only, and only while the session has no amount', () => {
    expect(formFields([amount, months], 'primary', 0)).toEqual([amount, months]);
    expect(formFields([amount, months], 'primary', 450_000)).toEqual([months]);
    expect(formFields([amount, months], 'joint', 0)).toEqual([months]);
  });

  it('is sent in cents beside the applicants, never inside them', () => {
    flow.fieldsLoaded('a:prequalify', {
      providerKey: 'a',
      applyMode: 'prequalify',
      fields: [amount, months],
      fieldGroupRules: [],
      lenders: [],
    } as never);
    flow.set({ primary: { purchaseAmountCents: '$4,500.50', monthsEmployed: '24' } });
    expect(applicationBody('a', 'prequalify')).toEqual({ primary: { monthsEmployed: 24 }, jointEnabled: false, purchaseAmountCents: 450_050 });
    flow.set({ primary: { purchaseAmountCents: '' } });
    expect(applicationBody('a', 'prequalify')).toEqual({ primary: {}, jointEnabled: false });
  });
});

import { beforeEach, describe, expect, it } from 'vitest';
import type { FieldDefinition } from '@/lib/api/types';
import { flow } from '@/stores/flow';
import { applicationBody, unsendableNumbers } from './body';

const months: FieldDefinition = {
  id: 'monthsEmployed',
  path: 'monthsEmployed',
  name: 'monthsEmployed',
  label: 'Months with this employer',
  type: 'number',
  rules: { required: {} },
};
const withFields = () =>
  flow.fieldsLoaded('a:prequalify', { providerKey: 'a', applyMode: 'prequalify', fields: [months], fieldGroupRules: [], providers: [] } as never);

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

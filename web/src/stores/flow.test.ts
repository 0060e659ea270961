import { beforeEach, describe, expect, it } from 'vitest';
import type { StartFlowResponse } from '@/lib/api/types';
import { applicantTitle, flow } from './flow';

const started = {
  session: { webSessionId: 's', env: 'test', groupId: 'g', experienceType: 'in_store', dynamicProviderKey: 'synchrony_standard', properties: {} },
  application: { reference: '4F2A-91C0', purchaseAmountCents: 320_000, primary: { firstName: 'Ana', lastName: 'Núñez' } },
  location: { name: 'Maple Street Dental', state: 'OR', groupId: 'g' },
} as unknown as StartFlowResponse;

describe('the applicant title in the top bar', () => {
  beforeEach(() => flow.reset());

  it('is first name, last name and id joined by colons; the id is the application’s short reference', () => {
    flow.started(started, 'prequalify');
    expect(applicantTitle(flow.get())).toBe('Ana:Núñez:4F2A-91C0');
    // What the patient typed wins over what the office entered.
    flow.set({ primary: { firstName: 'Anna', lastName: 'Núñez' } });
    expect(applicantTitle(flow.get())).toBe('Anna:Núñez:4F2A-91C0');
  });

  it('is empty until there is a name, and the id is left out until the server gave one', () => {
    flow.started({ ...started, application: { ...started.application, primary: {} } } as StartFlowResponse, 'prequalify');
    expect(applicantTitle(flow.get())).toBe('');
    flow.set({ applicantId: null, primary: { firstName: 'Ana', lastName: 'Núñez' } });
    expect(applicantTitle(flow.get())).toBe('Ana:Núñez');
  });
});

describe('what the office entered on an invitation', () => {
  it('is kept to prefill the form: the name, the email address and the mobile number', () => {
    flow.reset();
    flow.started(
      {
        ...started,
        application: {
          ...started.application,
          primary: { firstName: 'Ana', lastName: 'Núñez', email: 'ana@example.com', mobilePhone: '5035550142' },
        },
      } as StartFlowResponse,
      'prequalify',
    );
    expect(flow.get().prefill).toEqual({ firstName: 'Ana', lastName: 'Núñez', email: 'ana@example.com', mobilePhone: '5035550142' });
  });
});

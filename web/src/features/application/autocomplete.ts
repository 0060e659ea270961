/** Autocomplete and inputmode defaults by field id (WCAG 1.3.5), when the server sends none. */
export const AUTOCOMPLETE: Record<string, string> = {
  firstName: 'given-name',
  lastName: 'family-name',
  middleInitial: 'additional-name',
  namePrefix: 'honorific-prefix',
  nameSuffix: 'honorific-suffix',
  dateOfBirth: 'bday',
  addressLine1: 'address-line1',
  addressLine2: 'address-line2',
  addressCity: 'address-level2',
  addressState: 'address-level1',
  addressZipCode: 'postal-code',
  email: 'email',
  homePhone: 'tel-national',
  mobilePhone: 'tel-national',
  workPhone: 'tel-national',
  employerName: 'organization',
  jobTitle: 'organization-title',
  ssn: 'off',
  idNumber: 'off',
};

/** The field groups with a title of their own (application.form.groups in the catalogues); any other is titled by its name. */
export const TITLED_GROUPS = ['personal', 'address', 'contact', 'income', 'employment', 'housing', 'id', 'purchase', 'consent'] as const;
export type TitledGroup = (typeof TITLED_GROUPS)[number];
export const isTitledGroup = (group: string): group is TitledGroup => (TITLED_GROUPS as readonly string[]).includes(group);

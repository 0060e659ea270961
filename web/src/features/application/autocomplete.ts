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

export const GROUP_TITLES: Record<string, string> = {
  personal: 'About you',
  address: 'Home address',
  contact: 'How to reach you',
  income: 'Income',
  employment: 'Work',
  housing: 'Housing',
  id: 'Identification',
  purchase: 'Treatment',
  consent: 'Agreements',
};

import type { OfficeMember, OfficeRole } from './api/staff';

/*
 * The office's words for the staff and audit screens' codes: roles, a
 * colleague's status, and what each audit row records. An action this
 * screen does not know yet (a newer server) shows as its code.
 */

export const ROLE_WORDS: Record<OfficeRole, string> = {
  front_desk: 'Front desk',
  manager: 'Office manager',
  group_admin: 'Group administrator',
};

export const MEMBER_STATUS_WORDS: Record<OfficeMember['status'], string> = {
  active: 'Active',
  invited: 'Invited',
  disabled: 'Disabled',
};

const AUDIT_WORDS: Record<string, string> = {
  sign_in: 'Signed in',
  sign_in_failed: 'Sign-in failed',
  locked: 'Locked out',
  sign_out: 'Signed out',
  password_set: 'Password set',
  view_application: 'Viewed an application',
  view_list: 'Viewed the day’s list',
  export_csv: 'Exported a CSV',
  invite_created: 'Invited a patient',
  invite_canceled: 'Canceled an invitation',
  invite_resent: 'Sent an invitation again',
  records_connected: 'Connected the practice records',
  records_disconnected: 'Disconnected the practice records',
  records_searched: 'Searched the practice records',
  records_viewed: 'Read a patient’s record',
  second_factor_set: 'Set up two-step sign-in',
  second_factor_passed: 'Passed two-step sign-in',
  second_factor_failed: 'Wrong two-step code',
  recovery_code_used: 'Used a recovery code',
  passkey_added: 'Added a passkey',
  staff_invited: 'Invited a colleague',
  staff_disabled: 'Disabled a colleague',
  second_factor_reset: 'Reset a colleague’s two-step sign-in',
  office_switched: 'Switched office',
  view_audit: 'Read the audit log',
  export_audit: 'Downloaded the audit log',
  view_funding: 'Viewed the funding screen',
  export_funding: 'Downloaded the funding CSV',
  case_void: 'Canceled a case with its lender',
  case_refund: 'Refunded a case',
  case_amount: 'Changed a treatment amount',
};

export const auditWords = (action: string): string => (Object.hasOwn(AUDIT_WORDS, action) ? AUDIT_WORDS[action]! : action);

export const NOT_ALLOWED = 'Your role does not allow this. Ask your office manager.';

import type { OfficeMember } from './api/staff';
import { MEMBER_STATUS_WORDS, ROLE_WORDS } from './staffWords';
import { OfficeTable } from './OfficeTable';

export type StaffAction = 'disable' | 'reset' | 'link';

/**
 * StaffTable lists the office's staff with what a manager may do to each:
 * nothing to their own account (the server refuses it too) nor to a
 * disabled one. The buttons' names say whose row it is, starting with the
 * visible words.
 */
export function StaffTable({
  caption,
  members,
  me,
  busy,
  onAction,
}: {
  caption: string;
  members: OfficeMember[];
  /** The signed-in staff member's email. */
  me: string;
  busy: boolean;
  onAction: (action: StaffAction, member: OfficeMember) => void;
}) {
  return (
    <OfficeTable
      id="staff-table"
      caption={caption}
      className="office-staff-table"
      columns={['Email', 'Role', 'Status', 'Two-step sign-in', { hidden: 'Actions' }]}
    >
      {members.map((m) => (
        <tr key={m.id}>
          <th scope="row">
            {m.email}
            {m.email.toLowerCase() === me.toLowerCase() ? <span className="office-sub">You</span> : null}
          </th>
          <td>{ROLE_WORDS[m.role] ?? m.role}</td>
          <td>{MEMBER_STATUS_WORDS[m.status] ?? m.status}</td>
          <td>{m.secondFactor ? 'On' : 'Off'}</td>
          <td>
            {m.status === 'disabled' || m.email.toLowerCase() === me.toLowerCase() ? null : <Actions member={m} busy={busy} onAction={onAction} />}
          </td>
        </tr>
      ))}
    </OfficeTable>
  );
}

function Actions({ member: m, busy, onAction }: { member: OfficeMember; busy: boolean; onAction: (a: StaffAction, m: OfficeMember) => void }) {
  const button = (action: StaffAction, words: string, name: string) => (
    <button
      type="button"
      className="btn btn--secondary office-row-action"
      aria-label={name}
      aria-disabled={busy}
      onClick={() => !busy && onAction(action, m)}
    >
      {words}
    </button>
  );
  return (
    <div className="office-row-actions">
      {m.status === 'invited' ? button('link', 'New setup link', `New setup link for ${m.email}`) : null}
      {button('reset', 'Reset two-step sign-in', `Reset two-step sign-in for ${m.email}`)}
      {button('disable', 'Disable', `Disable ${m.email}`)}
    </div>
  );
}

import { useCallback, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/Page';
import { Failure } from '@/components/Failure';
import type { OfficeSession } from './api/session';
import { forbidden, listStaff, newSetupLink, type OfficeMember, type OfficeStaffInvite } from './api/staff';
import { endedBy401, words } from './auth';
import { SignedInOnly } from './OfficeFrame';
import { SetupLinkPanel } from './SetupLinkPanel';
import { StaffConfirmDialog } from './StaffConfirmDialog';
import { StaffInviteForm } from './StaffInviteForm';
import { StaffTable, type StaffAction } from './StaffTable';
import { NOT_ALLOWED } from './staffWords';

/*
 * The office's staff (docs/behaviour.md, "Staff and roles"), for managers
 * and group administrators: who has an account, inviting a colleague with
 * a one-time setup link, and disabling one or resetting their two-step
 * sign-in. A role without the permission is told so (the server answers
 * 403 too, for one who typed the address).
 */

/** OfficeStaffPage is /office/staff. */
export function OfficeStaffPage() {
  return <SignedInOnly>{(session) => <Staff session={session} />}</SignedInOnly>;
}

function Staff({ session }: { session: OfficeSession }) {
  const allowed = session.permissions.includes('manage_staff');
  const [members, setMembers] = useState<OfficeMember[] | null>(null);
  const [failure, setFailure] = useState('');
  const [refused, setRefused] = useState(!allowed);
  const [invite, setInvite] = useState<OfficeStaffInvite | null>(null);
  const [asking, setAsking] = useState<{ action: 'disable' | 'reset'; member: OfficeMember } | null>(null);
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState('');
  const noticeRef = useRef<HTMLParagraphElement>(null);

  const load = useCallback(() => {
    listStaff().then(
      (list) => {
        setMembers(list);
        setFailure('');
      },
      (e: unknown) => {
        if (endedBy401(e)) return;
        if (forbidden(e)) setRefused(true);
        else setFailure(words(e));
      },
    );
  }, []);

  useEffect(() => {
    if (allowed) load();
  }, [allowed, load]);

  // The row's button may be gone: the message takes the focus, once the dialog has handed it back (its cleanup runs first).
  useEffect(() => {
    if (notice && !asking) noticeRef.current?.focus();
  }, [notice, asking]);

  async function act(action: StaffAction, member: OfficeMember) {
    setNotice('');
    if (action !== 'link') return setAsking({ action, member });
    setBusy(true);
    setFailure('');
    try {
      setInvite(await newSetupLink(member.id, session.csrfToken));
      load();
    } catch (e) {
      if (endedBy401(e)) return;
      setFailure(words(e));
    }
    setBusy(false);
  }

  const back = (
    <p className="office-back">
      <Link to="/office">Back to the list</Link>
    </p>
  );
  if (refused) {
    return (
      <>
        {back}
        <Page title="Staff">
          <p className="notice notice--warn">{NOT_ALLOWED}</p>
        </Page>
      </>
    );
  }
  return (
    <>
      {back}
      <Page title="Staff" lead={`Who can sign in at ${session.office.name}, and what they may do.`}>
        {notice ? (
          <p className="notice notice--ok" role="status" tabIndex={-1} ref={noticeRef}>
            {notice}
          </p>
        ) : null}
        {invite ? <SetupLinkPanel invite={invite} /> : null}
        <Failure message={failure} />
        {members === null ? (
          failure ? null : (
            <p className="muted">Loading the staff…</p>
          )
        ) : (
          <StaffTable caption={`Staff of ${session.office.name}`} members={members} me={session.staff.email} busy={busy} onAction={act} />
        )}
        <section className="office-staff-invite" aria-labelledby="staff-invite-heading">
          <h2 id="staff-invite-heading">Invite a colleague</h2>
          <p>
            They get a one-time link to choose their password. Front desk invites patients and follows the day; an office manager also manages staff
            and reads the audit log.
          </p>
          <StaffInviteForm
            csrf={session.csrfToken}
            myRole={session.staff.role}
            onInvited={(i) => {
              setNotice('');
              setInvite(i);
              load();
            }}
          />
        </section>
      </Page>
      {asking ? (
        <StaffConfirmDialog
          action={asking.action}
          member={asking.member}
          csrf={session.csrfToken}
          onClose={() => setAsking(null)}
          onDone={() => {
            const { action, member } = asking;
            setAsking(null);
            setNotice(
              action === 'disable'
                ? `${member.email} is disabled. Their sessions have ended.`
                : `Two-step sign-in for ${member.email} is reset. They set it up again at their next sign-in.`,
            );
            load();
          }}
        />
      ) : null}
    </>
  );
}

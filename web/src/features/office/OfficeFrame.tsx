import { Fragment, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '@/components/Page';
import type { OfficeSession } from './api/session';
import { useOfficeAuth } from './auth';
import { BackupBanner } from './BackupBanner';
import { OfficeSwitch } from './OfficeSwitch';
import { SecondFactorForm } from './SecondFactorForm';
import { SignInForm } from './SignInForm';
import { SignOutButton } from './SignOutButton';
import { TwoStepSetup } from './TwoStepSetup';
import './office.css';

/**
 * SignedInOnly shows its screen to a signed-in staff member, under the bar
 * that says who and where with Sign out; otherwise the sign-in form, with
 * the reason when a call found the session over. A sign-in that still
 * needs its second step (the authenticator app's code, or setting the app
 * up first where that is required) shows that step instead, whatever the
 * address. The screen starts afresh when the office changes (a group
 * administrator's choice), so that what it shows is the new office's.
 * A manager (manage_staff) sees under the bar, on every screen, whether
 * the server's backup is behind (BackupBanner); it is the server's, not
 * the office's, so it does not start afresh with the office.
 */
export function SignedInOnly({ children }: { children: (session: OfficeSession) => ReactNode }) {
  const auth = useOfficeAuth();
  const navigate = useNavigate();
  if (auth.state === 'checking') return <Page title="Office sign-in" lead="Checking whether you are signed in…" />;
  if (auth.state === 'out') return <SignInForm key={auth.notice} initialFailure={auth.notice} />;
  const { session } = auth;
  if (session.stage === 'second_factor') return <SecondFactorForm session={session} />;
  if (session.stage === 'set_up_second_factor') {
    return (
      <>
        <TwoStepSetup session={session} onDone={() => void navigate('/office')} />
        <SignOutButton csrf={session.csrfToken} />
      </>
    );
  }
  return (
    <div className="office">
      <OfficeBar session={session} />
      {can(session, 'manage_staff') ? <BackupBanner /> : null}
      <Fragment key={session.office.entityKey}>{children(session)}</Fragment>
    </div>
  );
}

const can = (s: OfficeSession, p: OfficeSession['permissions'][number]) => s.permissions.includes(p);

function OfficeBar({ session }: { session: OfficeSession }) {
  const manager = can(session, 'manage_staff');
  const offerSetup = !session.staff.secondFactor;
  return (
    <div className="office-bar">
      <p>
        Signed in as <strong>{session.staff.email}</strong> at {session.office.name}.
      </p>
      <nav className="office-nav" aria-label="Menu">
        <ul>
          <li>
            <Link to="/office/funding">Funding</Link>
          </li>
          {manager ? (
            <>
              <li>
                <Link to="/office/staff">Staff</Link>
              </li>
              <li>
                <Link to="/office/audit">Audit log</Link>
              </li>
              <li>
                <Link to="/office/records">Practice records</Link>
              </li>
            </>
          ) : null}
          <li>
            <Link to="/office/two-step">{offerSetup ? 'Set up two-step sign-in' : 'Two-step sign-in'}</Link>
          </li>
        </ul>
      </nav>
      {session.offices.length > 1 ? <OfficeSwitch session={session} /> : null}
      <SignOutButton csrf={session.csrfToken} />
    </div>
  );
}

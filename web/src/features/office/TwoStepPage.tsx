import { useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { Page } from '@/components/Page';
import { addPasskey } from './api/passkey';
import { PasskeyButton } from './PasskeyButton';
import { SignedInOnly } from './OfficeFrame';
import { TwoStepSetup } from './TwoStepSetup';

/**
 * OfficeTwoStepPage is /office/two-step: turning on two-step sign-in where
 * it is not required (outside production), from the bar's link. An account
 * that has it already is told so rather than given a new key, which would
 * replace the one in the app.
 */
export function OfficeTwoStepPage() {
  const navigate = useNavigate();
  const [added, setAdded] = useState(false);
  return (
    <SignedInOnly>
      {(session) =>
        session.staff.secondFactor ? (
          <Page title="Two-step sign-in is on" lead="Signing in asks for a code from your authenticator app, or one of your passkeys.">
            <p>Got a new phone? Ask your office manager to reset your two-step sign-in, then set it up again.</p>
            {added ? (
              <p role="status">Passkey added. Next time, sign in with it.</p>
            ) : (
              <PasskeyButton
                label="Add a passkey"
                available={session.passkeys}
                run={() => addPasskey(session.csrfToken)}
                onDone={() => setAdded(true)}
              />
            )}
            <p className="office-back">
              <Link to="/office">Back to the list</Link>
            </p>
          </Page>
        ) : (
          <>
            <p className="office-back">
              <Link to="/office">Back to the list</Link>
            </p>
            <TwoStepSetup session={session} onDone={() => void navigate('/office')} />
          </>
        )
      }
    </SignedInOnly>
  );
}

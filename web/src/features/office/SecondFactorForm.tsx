import { Page } from '@/components/Page';
import type { OfficeSession } from './api/session';
import { passWithPasskey } from './api/passkey';
import { passSecondFactor } from './api/staff';
import { signedIn } from './auth';
import { PasskeyButton } from './PasskeyButton';
import { SignOutButton } from './SignOutButton';
import { CodeForm } from './CodeForm';
import { useCodeForm } from './useCodeForm';

/**
 * SecondFactorForm is the second step of signing in (docs/behaviour.md,
 * "Two-step sign-in"): the 6 digits the authenticator app shows now, or one
 * of the recovery codes for a lost phone. A wrong code answers 401 like an
 * ended session, yet the half-signed-in session stays: the server's words
 * show here instead of the sign-in form. The code is cleared after each try.
 */
export function SecondFactorForm({ session }: { session: OfficeSession }) {
  const f = useCodeForm(
    (code) => (code.trim() ? '' : 'Enter the code from your authenticator app.'),
    async (code) => signedIn(await passSecondFactor(code.trim(), session.csrfToken)),
  );

  return (
    <Page
      title="Two-step sign-in"
      lead="Enter the 6-digit code your authenticator app shows for Chairside. Lost your phone? Enter one of your recovery codes instead."
    >
      <CodeForm
        form={f}
        id="second-factor-code"
        label="Code"
        hint="6 digits, or a recovery code such as abcd-efgh-jkmn-pqrs"
        maxLength={40}
        submitLabel="Continue"
      />
      <PasskeyButton label="Use a passkey instead" available={session.passkeys} run={() => passWithPasskey(session.csrfToken)} onDone={signedIn} />
      <div className="actions">
        <SignOutButton csrf={session.csrfToken} />
      </div>
    </Page>
  );
}

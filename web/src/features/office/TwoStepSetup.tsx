import { useCallback, useEffect, useRef, useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Failure } from '@/components/Failure';
import type { OfficeSession } from './api/session';
import { addPasskey } from './api/passkey';
import { beginTotp, confirmTotp, type OfficeTOTPSetup } from './api/staff';
import { endedBy401, words } from './auth';
import { PasskeyButton } from './PasskeyButton';
import { QrCode } from './QrCode';
import { RecoveryCodes } from './RecoveryCodes';
import { CodeForm } from './CodeForm';
import { useCodeForm } from './useCodeForm';

/**
 * TwoStepSetup turns on two-step sign-in with an authenticator app
 * (docs/behaviour.md, "Two-step sign-in"): a new key, once, as a QR code to
 * scan and as text to type; then the app's first code proves it is set up,
 * and the recovery codes follow (RecoveryCodes). The key is asked for once
 * per screen: a second one would replace the one already scanned. A wrong
 * code answers 401 with the session intact, so its words show here.
 */
export function TwoStepSetup({ session, onDone }: { session: OfficeSession; onDone: () => void }) {
  const [setup, setSetup] = useState<OfficeTOTPSetup | null>(null);
  const [loadFailure, setLoadFailure] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const asked = useRef(false);
  const csrf = session.csrfToken;

  const begin = useCallback(() => {
    setLoadFailure('');
    beginTotp(csrf).then(setSetup, (e: unknown) => endedBy401(e) || setLoadFailure(words(e)));
  }, [csrf]);

  useEffect(() => {
    // Once, StrictMode's second mount included (refs outlive it).
    if (asked.current) return;
    asked.current = true;
    begin();
  }, [begin]);

  if (codes) return <RecoveryCodes codes={codes} onDone={onDone} />;
  return (
    <Page
      title="Set up two-step sign-in"
      lead="Each time you sign in, Chairside will also ask for a code from an app on your phone, so a stolen password alone cannot open your account."
    >
      <ol className="office-steps">
        <li>Install an authenticator app on your phone, such as Google Authenticator, Microsoft Authenticator or 1Password.</li>
        <li>In the app, add an account and scan this QR code with the phone’s camera.</li>
        <li>Enter the 6-digit code the app then shows for Chairside.</li>
      </ol>
      <Failure message={loadFailure} />
      {loadFailure ? (
        <div className="actions">
          <Button variant="secondary" onClick={begin}>
            Try again
          </Button>
        </div>
      ) : null}
      {setup ? <SetupForm setup={setup} csrf={csrf} onConfirmed={setCodes} /> : loadFailure ? null : <p className="muted">Making your key…</p>}
      {session.passkeys ? (
        <PasskeyButton label="Use a passkey instead" run={() => addPasskey(csrf)} onDone={(c) => (c.length ? setCodes(c) : onDone())} />
      ) : null}
    </Page>
  );
}

function SetupForm({ setup, csrf, onConfirmed }: { setup: OfficeTOTPSetup; csrf: string; onConfirmed: (codes: string[]) => void }) {
  const f = useCodeForm(
    (code) => (/^\d{6}$/.test(code.replace(/\s/g, '')) ? '' : 'Enter the 6 digits the app shows.'),
    async (code) => onConfirmed(await confirmTotp(code.replace(/\s/g, ''), csrf)),
  );

  return (
    <>
      <section className="office-totp">
        <QrCode rows={setup.qr.rows} size={setup.qr.size} label="QR code for your authenticator app" />
        <p>Can’t scan it? Type this key into the app instead:</p>
        <div className="field">
          <label className="label" htmlFor="totp-key">
            Key
          </label>
          <input id="totp-key" className="input office-key" type="text" readOnly value={setup.key} onFocus={(e) => e.target.select()} />
        </div>
      </section>
      <CodeForm form={f} id="totp-code" label="6-digit code" numeric maxLength={12} submitLabel="Turn on two-step sign-in" />
    </>
  );
}

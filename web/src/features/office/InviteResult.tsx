import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { formatCents } from '@/lib/money';
import type { OfficeInvite } from './api/applications';
import { CancelInviteDialog } from './CancelInviteDialog';
import { CopyLinkField } from './CopyLinkField';
import type { Reach } from './InviteForm';
import { QrCode } from './QrCode';
import { EXPERIENCE_WORDS, patientName, untilOf } from './words';

const CHANNEL_WORDS = { sms: 'By text message to', email: 'By email to' } as const;

/**
 * InviteResult shows a new invitation: its QR code to scan from the screen
 * or from paper, its link to copy, until when it works and where it is
 * being sent. The link exists only in this answer (the server keeps a
 * hash), so this screen is the one chance to hand it over. Printing keeps
 * the code, the link and the expiry only (office.css).
 */
export function InviteResult({ invite, csrf, reach }: { invite: OfficeInvite; csrf: string; reach: Reach }) {
  const [asking, setAsking] = useState(false);
  const [canceled, setCanceled] = useState(false);
  const canceledRef = useRef<HTMLParagraphElement>(null);
  const name = patientName(invite);
  const reaches = (channel: 'sms' | 'email') => (channel === 'sms' ? reach.texts : reach.emails);
  const going = invite.sentTo.filter((s) => reaches(s.channel));
  const stuck = invite.sentTo.filter((s) => !reaches(s.channel));

  useEffect(() => {
    if (canceled) canceledRef.current?.focus();
  }, [canceled]);

  const lead = `${name ? `For ${name}: ` : ''}${formatCents(invite.purchaseAmountCents)} of treatment, applying ${EXPERIENCE_WORDS[
    invite.experienceType
  ].toLowerCase()}.`;

  return (
    <Page title="Invitation ready" lead={lead}>
      {canceled ? (
        <p className="notice notice--ok" role="status" tabIndex={-1} ref={canceledRef}>
          Invitation canceled. The link no longer works.
        </p>
      ) : (
        <>
          <section className="invite-print">
            <QrCode rows={invite.qr.rows} size={invite.qr.size} label="QR code of the patient’s link" />
            <p className="print-only">{invite.link}</p>
            <p className="invite-expiry">Works once, until {untilOf(invite.expiresAt)}.</p>
          </section>
          <p className="hint">
            {invite.experienceType === 'at_home'
              ? 'The patient scans the code with their phone’s camera, or opens the link sent to them.'
              : 'Open the link on the office’s tablet for the patient, or let them scan the code.'}
          </p>
          <CopyLinkField id="invite-link" label="Link" link={invite.link} />
          {stuck.length ? (
            <p>
              {stuck.length === invite.sentTo.length ? 'Texts and emails are' : stuck[0]!.channel === 'sms' ? 'Texts are' : 'Emails are'} not set up
              for your office yet, so nothing was sent to {stuck.map((s) => s.to).join(' or ')}. Show the QR code or copy the link for the patient.
            </p>
          ) : null}
          {going.length ? (
            <>
              <h2>Where the link is being sent</h2>
              <ul className="office-sent">
                {going.map((s) => (
                  <li key={`${s.channel}-${s.to}`}>
                    {CHANNEL_WORDS[s.channel]} {s.to}
                    {s.held && going.length > 1 ? ', only if the text does not arrive' : ''}
                  </li>
                ))}
              </ul>
              <p className="hint">The day’s list shows when each arrives.</p>
            </>
          ) : invite.sentTo.length ? null : (
            <p>The link is not being sent anywhere: show the QR code or copy the link for the patient.</p>
          )}
        </>
      )}
      <div className="actions">
        {canceled ? null : (
          <>
            <Button variant="secondary" onClick={() => window.print()}>
              Print
            </Button>
            <Button variant="secondary" onClick={() => setAsking(true)}>
              Cancel invitation
            </Button>
          </>
        )}
        <Link className="btn" to="/office">
          Done
        </Link>
      </div>
      {asking ? (
        <CancelInviteDialog
          inviteId={invite.id}
          name={name}
          csrf={csrf}
          onClose={() => setAsking(false)}
          onCanceled={() => {
            setAsking(false);
            setCanceled(true);
          }}
        />
      ) : null}
    </Page>
  );
}

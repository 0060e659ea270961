import { useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/Page';
import type { OfficeInvite } from './api/applications';
import { SignedInOnly } from './OfficeFrame';
import { InviteForm, type Reach } from './InviteForm';
import { InviteResult } from './InviteResult';

/**
 * OfficeInvitePage is /office/invite: the invitation form, then the new
 * invitation. The invitation is kept in this screen's state only — its link
 * is shown once, and a reload starts a new form.
 */
export function OfficeInvitePage() {
  return (
    <SignedInOnly>
      {(session) => (
        <Invite
          csrf={session.csrfToken}
          reach={{ texts: session.office.textsDelivered, emails: session.office.emailsDelivered }}
          language={session.office.language === 'es' ? 'es' : 'en'}
        />
      )}
    </SignedInOnly>
  );
}

/** reach: whether texts and emails reach the office's patients (neither when the server only logs them). */
function Invite({ csrf, reach, language }: { csrf: string; reach: Reach; language: 'en' | 'es' }) {
  const [invite, setInvite] = useState<OfficeInvite | null>(null);
  if (invite) return <InviteResult invite={invite} csrf={csrf} reach={reach} />;
  return (
    <>
      <p className="office-back">
        <Link to="/office">Back to the list</Link>
      </p>
      <Page title="Invite a patient" lead="Make a one-time link for one patient: they scan its QR code, or open it from a text or an email.">
        <InviteForm csrf={csrf} reach={reach} language={language} onCreated={setInvite} />
      </Page>
    </>
  );
}

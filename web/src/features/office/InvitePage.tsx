import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { Page } from '@/components/Page';
import type { OfficeInvite } from './api/applications';
import { getRecords, type RecordPatient, type RecordPlan } from './api/records';
import { endedBy401 } from './auth';
import { centsToDollarText, type InviteForm as FormValues } from './invite';
import { RecordFinder } from './RecordFinder';
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

/** Picked is the patient the desk found in the office's records, and what it prefills. */
interface Picked {
  patientId: string;
  words: string;
  initial: Partial<FormValues>;
}

/** fromRecord is what a patient found in the office's records prefills: the amount of the chosen plan, the name, phone, email and language. */
function fromRecord(p: RecordPatient, plan: RecordPlan | null, language: 'en' | 'es'): Picked {
  const initial: Partial<FormValues> = {
    firstName: p.firstName,
    lastName: p.lastName,
    mobilePhone: p.mobilePhone ?? '',
    email: p.email ?? '',
    language: p.language ?? language,
  };
  if (plan) initial.amount = centsToDollarText(plan.totals.patientCents);
  const words = `From Open Dental: ${p.firstName} ${p.lastName}, chart ${p.id}${plan ? `, ${plan.heading}` : ''}.`;
  return { patientId: p.id, words, initial };
}

/** reach: whether texts and emails reach the office's patients (neither when the server only logs them). */
function Invite({ csrf, reach, language }: { csrf: string; reach: Reach; language: 'en' | 'es' }) {
  const [invite, setInvite] = useState<OfficeInvite | null>(null);
  const [records, setRecords] = useState(false);
  const [picked, setPicked] = useState<Picked | null>(null);
  useEffect(() => {
    getRecords().then(
      (r) => setRecords(r.connected && r.state !== 'refused'),
      (e: unknown) => void endedBy401(e), // without the records, the form works as before
    );
  }, []);
  if (invite) return <InviteResult invite={invite} csrf={csrf} reach={reach} />;
  return (
    <>
      <p className="office-back">
        <Link to="/office">Back to the list</Link>
      </p>
      <Page title="Invite a patient" lead="Make a one-time link for one patient: they scan its QR code, or open it from a text or an email.">
        {records ? <RecordFinder onPick={(p, plan) => setPicked(fromRecord(p, plan, language))} /> : null}
        {picked ? (
          <p className="notice notice--ok" role="status">
            {picked.words} Check the details below; the patient confirms them and types their own SSN.
          </p>
        ) : null}
        <InviteForm
          key={picked?.patientId ?? 'typed'}
          csrf={csrf}
          reach={reach}
          language={language}
          initial={picked?.initial}
          recordPatientId={picked?.patientId}
          onCreated={setInvite}
        />
      </Page>
    </>
  );
}

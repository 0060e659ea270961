import { useEffect, useRef } from 'react';
import { CopyLinkField } from './CopyLinkField';
import type { OfficeStaffInvite } from './api/staff';
import { untilOf } from './words';

/**
 * SetupLinkPanel hands over a colleague's one-time setup link: the server
 * keeps only its hash, so this is the one chance to copy it. Its heading
 * takes the focus when it appears, after the form or a row's button.
 */
export function SetupLinkPanel({ invite }: { invite: OfficeStaffInvite }) {
  const headingRef = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    headingRef.current?.focus();
  }, [invite]);

  return (
    <section className="office-setup-link" aria-labelledby="setup-link-heading">
      <h2 id="setup-link-heading" ref={headingRef} tabIndex={-1}>
        Setup link for {invite.member.email}
      </h2>
      <p>
        Send this link to them yourself, by email or chat. It works once, until {untilOf(invite.expiresAt)}: they choose their password with it, then
        sign in.
      </p>
      <CopyLinkField id="staff-setup-link" label="Setup link" link={invite.setupLink} />
    </section>
  );
}

import { useEffect, useRef, useState } from 'react';
import { Button } from '@/components/Button';

/**
 * CopyLinkField shows a one-time link, read-only, with a button that
 * copies it: a patient's invitation or a colleague's setup link, which the
 * server keeps only as a hash, so this is the one chance to hand it over.
 * Where the clipboard cannot be used (an insecure origin, a refused
 * permission) the link is selected for a manual copy, and the screen says so.
 */
export function CopyLinkField({ id, label, link }: { id: string; label: string; link: string }) {
  const [copied, setCopied] = useState('');
  const linkRef = useRef<HTMLInputElement>(null);

  useEffect(() => setCopied(''), [link]);

  async function copy() {
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link);
      setCopied('Link copied.');
    } catch {
      linkRef.current?.select();
      setCopied('We could not copy it here. The link is selected in the box: copy it with your device’s Copy command.');
    }
  }

  return (
    <div className="field">
      <label className="label" htmlFor={id}>
        {label}
      </label>
      <div className="input-row office-link-row">
        <input id={id} ref={linkRef} className="input" type="text" readOnly value={link} onFocus={(e) => e.target.select()} />
        <Button variant="secondary" onClick={() => void copy()}>
          Copy link
        </Button>
      </div>
      <p className="office-copied" role="status">
        {copied}
      </p>
    </div>
  );
}

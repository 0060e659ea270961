import { useEffect } from 'react';
import { HelpContent } from './HelpContent';

/** HelpPage: /contexthelp, the help screen on its own. */
export function HelpPage() {
  useEffect(() => {
    document.title = 'Help — Chairside';
  }, []);
  return (
    <div className="card">
      <HelpContent headingLevel={1} />
    </div>
  );
}

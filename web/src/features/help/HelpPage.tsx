import { useEffect } from 'react';
import { useT } from '@/lib/i18n';
import { HelpContent } from './HelpContent';

/** HelpPage: /contexthelp, the help screen on its own. */
export function HelpPage() {
  const t = useT();
  // t changes with the language, so the tab's title follows it.
  useEffect(() => {
    document.title = t('help.pageTitle');
  }, [t]);
  return (
    <div className="card">
      <HelpContent headingLevel={1} />
    </div>
  );
}

import { useState, type ReactNode } from 'react';
import { FlowNotice } from '@/components/FlowNotice';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { ResultIcon } from '@/components/ResultIcon';
import { finishFlow } from '@/flow/finish';
import { useFlowNavigate } from '@/flow/navigation';
import type { FinishOutcome } from '@/lib/api/types';
import { useT } from '@/lib/i18n';

/** The parts every result screen is made of: its card with an icon and heading, and the button that finishes. */

export function FinishButton({
  outcome = 'completed',
  label,
  secondary = false,
}: {
  outcome?: FinishOutcome;
  /** The button's words; "Finish" unless given. */
  label?: string;
  secondary?: boolean;
}) {
  const t = useT();
  const navigate = useFlowNavigate();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant={secondary ? 'secondary' : 'primary'}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        navigate(await finishFlow(outcome), { replace: true });
      }}
    >
      {label ?? t('common.actions.finish')}
    </Button>
  );
}

export function Result({ kind, title, children }: { kind: 'ok' | 'info' | 'warn'; title: string; children: ReactNode }) {
  return (
    <div className="card">
      <ResultIcon kind={kind} />
      <Page title={title}>
        <FlowNotice />
        {children}
      </Page>
    </div>
  );
}

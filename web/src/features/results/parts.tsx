import { useState, type ReactNode } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { ResultIcon } from '@/components/Icons';
import { finishFlow } from '@/flow/finish';
import { useFlowNavigate } from '@/flow/navigation';
import type { FinishOutcome } from '@/lib/api/types';

/** The parts every result screen is made of: its card with an icon and heading, and the button that finishes. */

export function FinishButton({
  outcome = 'completed',
  label = 'Finish',
  secondary = false,
}: {
  outcome?: FinishOutcome;
  label?: string;
  secondary?: boolean;
}) {
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
      {label}
    </Button>
  );
}

export function Result({ kind, title, children }: { kind: 'ok' | 'info' | 'warn'; title: string; children: ReactNode }) {
  return (
    <div className="card">
      <ResultIcon kind={kind} />
      <Page title={title}>{children}</Page>
    </div>
  );
}

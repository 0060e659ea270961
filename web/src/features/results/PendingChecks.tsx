import { useCallback } from 'react';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import type { Decision } from '@/lib/api/types';
import { lenderRoute } from '@/lib/paths';
import { formatClockTime } from '@/lib/dates';
import { useT } from '@/lib/i18n';
import { recordDecision, refreshStipulations } from './api/pending';
import { STATE_WORDS, stipulationAction, stipulationState, type StipulationLike } from './stipulations';
import { usePendingPoll } from './usePendingPoll';

/**
 * StipulationList: what the lender is waiting for, each with its status in
 * plain words and what the patient can do (docs/behaviour.md, "Pending,
 * patches and stipulations").
 */
export function StipulationList({ stipulations, lender }: { stipulations: readonly StipulationLike[]; lender: string }) {
  const t = useT();
  const shown = stipulations.filter((s) => s.description);
  if (!shown.length) return null;
  return (
    <>
      <p>{t('results.stipulation.waitingFor', { lender })}</p>
      <ul className="stipulations">
        {shown.map((s) => {
          const state = stipulationState(s);
          const action = state === 'waiting' ? stipulationAction(s.type, lender) : null;
          return (
            <li key={s.id}>
              {s.description} <strong>{STATE_WORDS[state]}.</strong>
              {action ? <> {action}</> : null}
            </li>
          );
        })}
      </ul>
    </>
  );
}

/**
 * PendingChecks asks the lender again while the screen is open and moves on
 * when it has decided: an offer to its plans (through the usual routing), a
 * decline to the declined screen. It shows when it last checked and lets
 * the patient check again; withStipulations, "Check again" also refreshes
 * what the lender waits for.
 */
export function PendingChecks({
  providerKey,
  lender,
  withStipulations = false,
}: {
  providerKey: string;
  lender: string;
  withStipulations?: boolean;
}) {
  const navigate = useFlowNavigate();
  const t = useT();
  const onDecided = useCallback(
    (d: Decision) => navigate(lenderRoute(providerKey, recordDecision(providerKey, d)), { replace: true }),
    [navigate, providerKey],
  );
  const refresh = useCallback(() => refreshStipulations(providerKey), [providerKey]);
  const { lastChecked, checking, failed, checkNow } = usePendingPoll(providerKey, onDecided, withStipulations ? refresh : undefined);
  const when = lastChecked ? formatClockTime(lastChecked) : null;
  return (
    <div className="pending-checks">
      <p role="status" aria-live="polite">
        {checking
          ? t('results.checks.checking', { lender })
          : failed
            ? t('results.checks.failed', { lender })
            : when
              ? t('results.checks.last', { time: when, lender })
              : t('results.checks.soon', { lender })}
      </p>
      <div className="actions" style={{ marginBottom: 16 }}>
        <Button variant="secondary" disabled={checking} onClick={checkNow}>
          {t('results.checks.again')}
        </Button>
      </div>
    </div>
  );
}

import { useState, type ReactNode } from 'react';
import { useLocation, useParams } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { ResultIcon } from '@/components/Icons';
import { LenderLogo } from '@/components/LenderLogo';
import { finishFlow } from '@/flow/finish';
import { useFlowNavigate } from '@/flow/navigation';
import type { FinishOutcome } from '@/lib/api/types';
import { formatCents } from '@/lib/money';
import { providerRoute } from '@/lib/paths';
import { flow, nameOf, useFlow, useProviderName } from '@/stores/flow';
import { noFinancingSummary, noOfferScreen, outcomeOf } from './messages';

function useProvider(): { key: string; name: string } {
  const { providerKey = '' } = useParams();
  return { key: providerKey, name: useProviderName(providerKey) };
}

function FinishButton({
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

function Result({ kind, title, children }: { kind: 'ok' | 'info' | 'warn'; title: string; children: ReactNode }) {
  return (
    <div className="card">
      <ResultIcon kind={kind} />
      <Page title={title}>{children}</Page>
    </div>
  );
}

/** approved, preapproved and prequalified: the positive outcomes. */
export function PositiveResultPage() {
  const { key, name } = useProvider();
  const navigate = useFlowNavigate();
  const { pathname } = useLocation();
  const r = useFlow((s) => s.responses[key]);
  const d = r?.apply ?? r?.preAuth;
  const word = pathname.endsWith('/approved') ? 'approved' : pathname.endsWith('/preapproved') ? 'pre-approved' : 'prequalified';
  // A pending answer sent here by a lender's override (an email still to confirm) names what is left.
  const emailToConfirm = d?.responseCode === 'pending' && (d.pendingReasons ?? []).includes('verify_email');
  const amount = d?.approvedAmountCents ?? 0;
  // Without plans there is nothing to choose yet: the patient is told what is left instead of being sent to an empty list.
  const hasPlans = Boolean(r?.paymentPlans?.length);
  return (
    <Result kind="ok" title="Good news!">
      <div className="offer-head" style={{ marginBottom: 16 }}>
        <LenderLogo providerKey={key} />
        <div>
          <p style={{ margin: 0 }}>
            {name} {word} you{amount > 0 || !emailToConfirm ? ' for up to' : ''}
          </p>
          {amount > 0 || !emailToConfirm ? (
            <p className="offer-head__amount" style={{ margin: 0 }}>
              {formatCents(amount)}
            </p>
          ) : null}
        </div>
      </div>
      {emailToConfirm && !hasPlans ? (
        <>
          <p>One step is left: confirm your email address with the link {name} sent you.</p>
          <p>Once you have, {name} will send you your offer and its payment plans. You don’t need to apply again.</p>
          <div className="actions">
            <FinishButton outcome="pending" />
          </div>
        </>
      ) : (
        <>
          {emailToConfirm ? <p>One step is left: confirm your email address with the link {name} sent you.</p> : null}
          <p>Next, choose a monthly payment plan that works for you.</p>
          <div className="actions">
            <Button onClick={() => navigate(providerRoute(key, 'paymentPlans'))}>See payment options</Button>
          </div>
        </>
      )}
    </Result>
  );
}

/**
 * DeclinedPage: no lender made an offer. It says what each lender of this
 * session did (declined, still reviewing, not reached, no offer), and names
 * a decline only where a lender declined — never in words that could pass
 * for the lender's own notice.
 */
export function DeclinedPage() {
  const { key } = useProvider();
  const s = useFlow(useShallow((x) => ({ declinedBy: x.declinedBy, responses: x.responses, providers: x.providers })));
  const { title, lines } = noFinancingSummary(s, (k) => nameOf(s.providers, k), key);
  return (
    <Result kind="info" title={title}>
      {lines.map((line, i) => (
        <p key={line} className={i === 0 ? 'lead' : undefined}>
          {line}
        </p>
      ))}
      <p>You can talk to the office about other ways to pay for your treatment.</p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

export function PendingPage() {
  const { key, name } = useProvider();
  const ref = useFlow((s) => (s.responses[key]?.apply ?? s.responses[key]?.preAuth)?.lenderApplicationId);
  return (
    <Result kind="info" title="Your application is being reviewed">
      <p className="lead">
        {name} needs a little more time to look at your application. They will send you more information by mail within 7–10 business days.
      </p>
      <StillPendingEnd name={name} reference={ref} />
    </Result>
  );
}

/** StillPendingEnd closes a screen of a lender still deciding: the reference to quote, no need to apply again, and finishing as pending. */
function StillPendingEnd({ name, reference }: { name: string; reference?: string | null }) {
  return (
    <>
      {reference ? (
        <p>
          If you call {name}, give them this reference number: <strong>{reference}</strong>
        </p>
      ) : null}
      <p>You don’t need to apply again.</p>
      <div className="actions">
        <FinishButton outcome="pending" />
      </div>
    </>
  );
}

/**
 * TruePendingPage: the lender has not decided yet (lib/decision.ts,
 * LENDER_ROUTING). It says what the lender is still looking at and what
 * happens next — nothing here reads as a decline.
 */
export function TruePendingPage() {
  const { key, name } = useProvider();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const asked = (d?.stipulations ?? []).filter((x) => x.description && x.status !== 'satisfied' && x.status !== 'closed');
  return (
    <Result kind="info" title={`${name} is still reviewing your application`}>
      <p className="lead">
        {name} has not made a decision yet. Your application is with them and nothing more is needed from you right now unless they ask.
      </p>
      <h2>What happens next</h2>
      {asked.length ? (
        <>
          <p>{name} is waiting for:</p>
          <ul>
            {asked.map((x) => (
              <li key={x.id}>{x.description}</li>
            ))}
          </ul>
        </>
      ) : null}
      <p>{name} will contact you by email or mail once they have decided.</p>
      <StillPendingEnd name={name} reference={d?.lenderApplicationId} />
    </Result>
  );
}

/** ExpiredPage: the lender's offer is past its expiry date, so it can no longer be accepted (lib/decision.ts, LENDER_ROUTING). */
export function ExpiredPage() {
  const { key, name } = useProvider();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const on = d?.expiresAt ? new Date(d.expiresAt) : null;
  const when = on && !Number.isNaN(on.getTime()) ? on.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }) : null;
  return (
    <Result kind="info" title="This offer has expired">
      <p className="lead">
        The offer from {name} {when ? `ended on ${when}` : 'has ended'}, so it can no longer be accepted.
      </p>
      <p>If you would still like to finance your treatment, ask the office how to check your options again.</p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

export function NoOfferPage() {
  const { name } = useProvider();
  const navigate = useFlowNavigate();
  const { providerKey = '' } = useParams();
  const primaryKey = useFlow((s) => s.primaryProviderKey);
  const fullKey = primaryKey ?? providerKey;
  const fullName = useProviderName(fullKey);
  const outcome = useFlow((s) => outcomeOf(s, providerKey));
  const { title, lead } = noOfferScreen(outcome, name);
  return (
    <Result kind="info" title={title}>
      <p className="lead">{lead}</p>
      <p>
        You can still apply with {fullName}’s standard application. Your details are already filled in.{' '}
        <strong>The standard application uses a hard credit check</strong>, which can affect your credit score.
      </p>
      <div className="actions">
        <Button
          onClick={() => {
            flow.set({ providerKey: fullKey, applyMode: 'full' });
            navigate(providerRoute(fullKey, 'modes/full/application'));
          }}
        >
          Begin standard application
        </Button>
        <FinishButton label="No thanks, finish" secondary />
      </div>
    </Result>
  );
}

export function LenderErrorPage() {
  const { key, name } = useProvider();
  return (
    <Result kind="warn" title="We didn’t get an answer">
      <p className="lead">
        We didn’t get an answer from {key ? name : 'the lender'}. Please don’t start a new application&nbsp;— ask the office to check its status.
      </p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

export function ExistingAccountPage() {
  const { name } = useProvider();
  return (
    <Result kind="info" title="You already have an account">
      <p className="lead">It looks like you already have an account with {name}.</p>
      <p>You may be able to use it for this treatment. Please ask the office, or call {name}.</p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

export function AcceptOfferErrorPage() {
  const { name } = useProvider();
  return (
    <Result kind="warn" title="We couldn’t accept your offer">
      <p className="lead">
        We didn’t get an answer from {name} when accepting your offer. Please don’t start a new application&nbsp;— ask the office to check its status.
      </p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

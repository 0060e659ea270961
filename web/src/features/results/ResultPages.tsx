import { useLocation, useParams } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '@/components/Button';
import { LenderLogo } from '@/components/LenderLogo';
import { useFlowNavigate } from '@/flow/navigation';
import { formatCents } from '@/lib/money';
import { useWording } from '@/lib/wording';
import { providerRoute } from '@/lib/paths';
import { flow, nameOf, useFlow, useProviderName } from '@/stores/flow';
import { isPositive } from '@/lib/decision';
import { noFinancingSummary, noOfferScreen, outcomeOf } from './messages';
import { PendingChecks, StipulationList } from './PendingChecks';
import { stipulationState } from './stipulations';
import { FinishButton, Result } from './parts';
import { canAskForHigherLimit } from './api/creditLimit';

function useProvider(): { key: string; name: string } {
  const { providerKey = '' } = useParams();
  return { key: providerKey, name: useProviderName(providerKey) };
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
  const { staff } = useWording();
  const { key } = useProvider();
  const s = useFlow(useShallow((x) => ({ declinedBy: x.declinedBy, responses: x.responses, providers: x.providers })));
  const { title, lines } = noFinancingSummary(s, (k) => nameOf(s.providers, k), key, staff);
  // The lender that declined last may have words of its own (catalogue declinedMessage).
  const last = s.declinedBy.at(-1);
  const own = last ? s.providers[last]?.declinedMessage : undefined;
  return (
    <Result kind="info" title={title}>
      {lines.map((line, i) => (
        <p key={line} className={i === 0 ? 'lead' : undefined}>
          {line}
        </p>
      ))}
      {own ? <p className="notice">{own}</p> : null}
      <p>You can talk to {staff} about other ways to pay for your treatment.</p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

/**
 * PendingPage: the lender needs more time. While the screen is open the
 * lender is asked again (PendingChecks), and what it waits for is listed
 * with its status (docs/behaviour.md, "Pending, patches and stipulations").
 */
export function PendingPage() {
  const { key, name } = useProvider();
  const navigate = useFlowNavigate();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const stips = d?.stipulations ?? [];
  const askIncome = stips.some((x) => x.type === 'income' && stipulationState(x) === 'waiting');
  return (
    <Result kind="info" title="Your application is being reviewed">
      <p className="lead">
        {name} needs a little more time to look at your application. They will send you more information by mail within 7–10 business days.
      </p>
      <StipulationList stipulations={stips} lender={name} />
      {askIncome ? (
        <div className="actions">
          <Button onClick={() => navigate(providerRoute(key, 'patch/income'))}>Give my income</Button>
        </div>
      ) : null}
      <PendingChecks providerKey={key} lender={name} withStipulations={Boolean(d?.stipulations?.length)} />
      <StillPendingEnd name={name} reference={d?.lenderApplicationId} />
    </Result>
  );
}

/** StillPendingEnd closes a screen of a lender still deciding: the reference to quote, no need to apply again, and finishing as pending. */
/** A lender's own reference longer than this is no use read out on the phone (an opaque token): it is not shown. */
const READABLE_REFERENCE = 20;

/**
 * References says how a pending application is found again: by our short
 * reference at the office, and at the lender by its own reference when
 * that is short enough to read out, otherwise by the patient's name and
 * date of birth.
 */
function References({ name, lenderReference }: { name: string; lenderReference?: string | null }) {
  const { staff } = useWording();
  const ours = useFlow((s) => s.applicantId);
  return (
    <>
      {ours ? (
        <p>
          Your reference: <strong className="reference">{ours}</strong>. With it, {staff} can find your application.
        </p>
      ) : null}
      {lenderReference && lenderReference.length <= READABLE_REFERENCE ? (
        <p>
          If you call {name}, give them this reference number: <strong className="reference">{lenderReference}</strong>
        </p>
      ) : (
        <p>If you call {name}, they can find your application with your name and date of birth.</p>
      )}
    </>
  );
}

function StillPendingEnd({ name, reference }: { name: string; reference?: string | null }) {
  return (
    <>
      <References name={name} lenderReference={reference} />
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
  return (
    <Result kind="info" title={`${name} is still reviewing your application`}>
      <p className="lead">
        {name} has not made a decision yet. Your application is with them and nothing more is needed from you right now unless they ask.
      </p>
      <h2>What happens next</h2>
      <StipulationList stipulations={d?.stipulations ?? []} lender={name} />
      <p>{name} will contact you by email or mail once they have decided.</p>
      <PendingChecks providerKey={key} lender={name} withStipulations={Boolean(d?.stipulations?.length)} />
      <StillPendingEnd name={name} reference={d?.lenderApplicationId} />
    </Result>
  );
}

/** ExpiredPage: the lender's offer is past its expiry date, so it can no longer be accepted (lib/decision.ts, LENDER_ROUTING). */
export function ExpiredPage() {
  const { staff } = useWording();
  const { key, name } = useProvider();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const on = d?.expiresAt ? new Date(d.expiresAt) : null;
  const when = on && !Number.isNaN(on.getTime()) ? on.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' }) : null;
  return (
    <Result kind="info" title="This offer has expired">
      <p className="lead">
        The offer from {name} {when ? `ended on ${when}` : 'has ended'}, so it can no longer be accepted.
      </p>
      <p>If you would still like to finance your treatment, ask {staff} how to check your options again.</p>
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
  const { staff } = useWording();
  const { key, name } = useProvider();
  return (
    <Result kind="warn" title="We didn’t get an answer">
      <p className="lead">
        We didn’t get an answer from {key ? name : 'the lender'}. Please don’t start a new application&nbsp;— ask {staff} to check its status.
      </p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

/**
 * ExistingAccountPage: the lender found an account the patient already has.
 * "Use my existing account" leads to the plans the lender offers on it
 * (resume/with-existing-account), then to review, signing and the end. When
 * a revolving account's available credit is less than the treatment, the
 * patient may first ask for a higher limit (docs/behaviour.md, "Credit-limit
 * change").
 */
export function ExistingAccountPage() {
  const { key, name } = useProvider();
  const navigate = useFlowNavigate();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const purchase = useFlow((s) => s.purchaseAmountCents);
  const canAsk = useFlow((s) => canAskForHigherLimit(s, key));
  const { practice, staff } = useWording();
  const usable = isPositive(d?.responseCode);
  const amount = d?.approvedAmountCents ?? 0;
  return (
    <Result kind="info" title="You already have an account">
      <p className="lead">It looks like you already have an account with {name}.</p>
      {usable && canAsk ? (
        <>
          <p>
            It has {formatCents(amount)} of credit available, and your treatment costs {formatCents(purchase)}. You can ask {name} for a higher credit
            limit, or use what is available now and pay the rest to {practice} another way.
          </p>
          <div className="actions">
            <Button onClick={() => navigate(providerRoute(key, 'credit_limit_change/start'))}>Ask for a higher credit limit</Button>
            <Button variant="secondary" onClick={() => navigate(providerRoute(key, 'resume/with-existing-account'))}>
              Use my existing account
            </Button>
            <FinishButton label="No thanks, finish" secondary />
          </div>
        </>
      ) : usable ? (
        <>
          <p>
            You can use it for this treatment{amount > 0 ? <> — up to {formatCents(amount)} of its credit is available</> : null}. Next, choose how
            you’d like to pay it back.
          </p>
          <div className="actions">
            <Button onClick={() => navigate(providerRoute(key, 'resume/with-existing-account'))}>Use my existing account</Button>
            <FinishButton label="No thanks, finish" secondary />
          </div>
        </>
      ) : (
        <>
          <p>
            You may be able to use it for this treatment. Please ask {staff}, or call {name}.
          </p>
          <div className="actions">
            <FinishButton />
          </div>
        </>
      )}
    </Result>
  );
}

/**
 * UnderReviewPage: the lender's fraud and identity team is reviewing the
 * application (pending reason red_flag). It is not a decline, and nothing
 * here says so: what happens next, how the decision comes, the reference.
 */
export function UnderReviewPage() {
  const { key, name } = useProvider();
  const ref = useFlow((s) => (s.responses[key]?.apply ?? s.responses[key]?.preAuth)?.lenderApplicationId);
  return (
    <Result kind="info" title="Your application is under review">
      <p className="lead">{name} is taking a closer look at your application before deciding. This is a routine check, and it is not a decline.</p>
      <h2>What happens next</h2>
      <ul>
        <li>{name} may contact you to confirm who you are. Have a photo ID ready.</li>
        <li>{name} will send you their decision by mail or call you, usually within 7–10 business days.</li>
        <li>There is nothing more to do here today. Your application stays with {name}.</li>
      </ul>
      <References name={name} lenderReference={ref} />
      <div className="actions">
        <FinishButton outcome="pending" />
      </div>
    </Result>
  );
}

export function AcceptOfferErrorPage() {
  const { staff } = useWording();
  const { name } = useProvider();
  return (
    <Result kind="warn" title="We couldn’t accept your offer">
      <p className="lead">
        We didn’t get an answer from {name} when accepting your offer. Please don’t start a new application&nbsp;— ask {staff} to check its status.
      </p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

import { useEffect, useState, type FormEvent } from 'react';
import { Navigate, useLocation, useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { DocumentBox } from '@/components/DocumentBox';
import { Failure } from '@/components/Failure';
import { LenderLogo } from '@/components/LenderLogo';
import { Skeleton } from '@/components/Skeleton';
import { StillWorking } from '@/components/StillWorking';
import { useFlowNavigate } from '@/flow/navigation';
import { ApiError, errorTarget, isStillWorking } from '@/lib/api/client';
import type { AccountTerms } from '@/lib/api/types';
import { reportClientError } from '@/lib/clientLog';
import { formatCents, parseDollars } from '@/lib/money';
import { providerRoute } from '@/lib/paths';
import { useWording } from '@/lib/wording';
import { useFlow, useProviderName } from '@/stores/flow';
import { changeCreditLimit, dollarsText, incomeProblem, initCreditLimitChange, limitProblem, suggestedLimitCents } from './api/creditLimit';
import { FinishButton, Result } from './parts';
import { TextField } from '@/components/TextField';

/*
 * A credit-limit change (docs/behaviour.md, "Credit-limit change"):
 * credit_limit_change/start (the account's limits and terms), income (the
 * limit asked for and the yearly income, sent once) and result (approved,
 * declined, or no answer). The patient asks once per session: once there
 * is an answer, start and income lead to it.
 */

function useLender(): { key: string; name: string } {
  const { providerKey = '' } = useParams();
  return { key: providerKey, name: useProviderName(providerKey) };
}

type TermsProblem = 'none' | 'noAccount' | 'failed';

/** useAccountTerms loads the account's limits and terms (initCreditLimitChange), with a retry. */
function useAccountTerms(key: string): { terms: AccountTerms | null; problem: TermsProblem; retry: () => void } {
  const kept = useFlow((s) => s.responses[key]?.accountTerms ?? null);
  const [terms, setTerms] = useState<AccountTerms | null>(kept);
  const [problem, setProblem] = useState<TermsProblem>('none');
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let live = true;
    setProblem('none');
    initCreditLimitChange(key).then(
      (t) => live && setTerms(t),
      (e: unknown) => {
        if (!live) return;
        // 409: no approved revolving account with this lender to change (404 likewise).
        const none = e instanceof ApiError && (e.code === 'conflict' || e.status === 404);
        setProblem(none ? 'noAccount' : 'failed');
      },
    );
    return () => {
      live = false;
    };
  }, [key, attempt]);
  return { terms, problem, retry: () => setAttempt((n) => n + 1) };
}

/** useAsked: the patient has asked in this session; start and income lead to the answer. */
function useAsked(key: string): boolean {
  return useFlow((s) => Boolean(s.responses[key]?.creditLimitChange));
}

function NoAccountToChange({ providerKey, name }: { providerKey: string; name: string }) {
  const navigate = useFlowNavigate();
  const { staff } = useWording();
  return (
    <Result kind="info" title="We can’t change this limit here">
      <p className="lead">
        {name} can’t raise the limit of this account from here. Please ask {staff}, or call {name}.
      </p>
      <div className="actions">
        <Button onClick={() => navigate(providerRoute(providerKey, 'existingAccount'))}>Back to my account</Button>
        <FinishButton label="Finish" secondary />
      </div>
    </Result>
  );
}

/** CreditLimitStartPage: what the account has now, what asking involves, and the account's terms. */
export function CreditLimitStartPage() {
  const { key, name } = useLender();
  const navigate = useFlowNavigate();
  const asked = useAsked(key);
  const storedPurchase = useFlow((s) => s.purchaseAmountCents);
  const { terms, problem, retry } = useAccountTerms(key);
  if (asked) return <Navigate to={providerRoute(key, 'credit_limit_change/result')} replace />;
  if (problem === 'noAccount') return <NoAccountToChange providerKey={key} name={name} />;
  const purchase = terms?.purchaseAmountCents || storedPurchase;
  return (
    <div className="card">
      <Page title="Ask for a higher credit limit">
        <p className="lead">{name} may be able to raise the credit limit on your account, so that it covers your treatment.</p>
        {terms ? (
          <div className="review" style={{ marginBottom: 24 }}>
            <dl>
              <dt>Your credit limit now</dt>
              <dd>{formatCents(terms.creditLimitCents)}</dd>
              <dt>Available to use</dt>
              <dd>{formatCents(terms.availableCreditCents)}</dd>
              <dt>Your treatment</dt>
              <dd>{formatCents(purchase)}</dd>
            </dl>
          </div>
        ) : problem === 'none' ? (
          <div role="status" aria-live="polite">
            <span className="visually-hidden">Loading your account…</span>
            <Skeleton height={32} count={3} />
          </div>
        ) : null}
        <h2>What happens if you ask</h2>
        <ul>
          <li>You tell {name} the new limit you’d like and your yearly income before taxes.</li>
          <li>{name} decides, and you see the answer here. Their terms below explain what they look at, including whether they check your credit.</li>
          <li>If {name} can’t raise it, your account and its current limit stay as they are.</li>
        </ul>
        <DocumentBox doc={terms?.document ?? null} failed={problem === 'failed'} onRetry={retry} />
        <div className="actions">
          <Button onClick={() => navigate(providerRoute(key, 'credit_limit_change/income'))} disabled={!terms}>
            Continue
          </Button>
          <Button variant="secondary" onClick={() => navigate(providerRoute(key, 'existingAccount'))}>
            No thanks
          </Button>
        </div>
      </Page>
    </div>
  );
}

/** MoneyField is a dollar amount of this screen's small form, shown back with commas and cents when left (4500 → 4,500.00). */
function MoneyField(props: { id: string; label: string; hint: string; value: string; error?: string; onChange: (v: string) => void }) {
  const tidy = (typed: string) => {
    const cents = parseDollars(typed);
    if (cents !== null) props.onChange(dollarsText(cents));
  };
  return <TextField {...props} prefix="$" decimal maxLength={16} onBlur={tidy} />;
}

interface IncomeErrors {
  limit?: string;
  income?: string;
}

/** The server's field names, and the field of this screen each belongs to. */
const SERVER_FIELDS: Record<string, keyof IncomeErrors> = { requestedLimitCents: 'limit', annualGrossIncomeCents: 'income' };

/** CreditLimitIncomePage: the limit asked for (prefilled for the treatment) and the yearly income, sent to the lender once. */
export function CreditLimitIncomePage() {
  const { key, name } = useLender();
  const navigate = useFlowNavigate();
  const { pathname } = useLocation();
  const asked = useAsked(key);
  const storedPurchase = useFlow((s) => s.purchaseAmountCents);
  const { terms, problem, retry } = useAccountTerms(key);
  const [limit, setLimit] = useState<string | null>(null);
  const [income, setIncome] = useState('');
  const [errors, setErrors] = useState<IncomeErrors>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<ApiError | null>(null);
  const { staff } = useWording();

  if (asked && !busy) return <Navigate to={providerRoute(key, 'credit_limit_change/result')} replace />;
  if (problem === 'noAccount') return <NoAccountToChange providerKey={key} name={name} />;

  const purchase = terms?.purchaseAmountCents || storedPurchase;
  // Until the patient types, the limit is the one that covers the treatment.
  const limitText = limit ?? (terms ? dollarsText(suggestedLimitCents({ ...terms, purchaseAmountCents: purchase })) : '');

  const focus = (e: IncomeErrors) => document.getElementById(e.limit ? 'cl-limit' : 'cl-income')?.focus();

  async function send(e?: FormEvent) {
    e?.preventDefault();
    if (!terms || busy) return;
    const found: IncomeErrors = { limit: limitProblem(limitText, terms, name) ?? undefined, income: incomeProblem(income) ?? undefined };
    setErrors(found);
    setFailure('');
    if (found.limit || found.income) {
      focus(found);
      return;
    }
    setBusy(true);
    setWaiting(null);
    try {
      await changeCreditLimit(
        key,
        { requestedLimitCents: parseDollars(limitText)!, annualGrossIncomeCents: parseDollars(income)! },
        `Asking ${name} for a higher credit limit…`,
      );
      navigate(providerRoute(key, 'credit_limit_change/result'), { replace: true });
    } catch (err) {
      setBusy(false);
      if (isStillWorking(err)) {
        setWaiting(err);
        return;
      }
      if (err instanceof ApiError && err.fieldErrors.length) {
        const mine: IncomeErrors = {};
        const other: string[] = [];
        for (const fe of err.fieldErrors) {
          const f = SERVER_FIELDS[fe.field];
          if (f) mine[f] ??= fe.message;
          else other.push(fe.message);
        }
        setErrors(mine);
        if (other.length) setFailure(other.join(' '));
        focus(mine);
      } else if (err instanceof ApiError && (err.code === 'session_invalid' || err.status === 401)) {
        navigate(errorTarget(err, {}, pathname), { replace: true });
      } else if (err instanceof ApiError && err.code === 'conflict') {
        setFailure(`${name} can’t take a request for this account right now. Please ask ${staff}.`);
      } else {
        reportClientError('credit_limit_change.failed');
        setFailure('We couldn’t send your request just now. Please wait a moment and try again. It will not be sent twice.');
      }
    }
  }

  if (waiting) return <StillWorking lender={name} offline={waiting.code === 'network'} onRetry={() => void send()} busy={busy} />;

  return (
    <div className="card">
      <Page title={`Your request to ${name}`}>
        <p className="lead">
          Tell {name} the credit limit you’d like and your yearly income. {name} uses these to decide.
        </p>
        {problem === 'failed' ? (
          <div className="notice notice--warn" role="alert">
            <p>We couldn’t load your account’s details just now.</p>
            <Button variant="secondary" onClick={retry}>
              Try again
            </Button>
          </div>
        ) : null}
        <form noValidate onSubmit={(e) => void send(e)}>
          <MoneyField
            id="cl-limit"
            label="New credit limit"
            hint={
              terms
                ? `Your treatment costs ${formatCents(purchase)}. We filled in enough to cover it. You can change it${
                    terms.maxLimitCents > 0 ? `, up to ${formatCents(terms.maxLimitCents)}` : ''
                  }.`
                : 'The credit limit you’d like to have.'
            }
            value={limitText}
            error={errors.limit}
            onChange={(v) => {
              setLimit(v);
              setErrors((x) => ({ ...x, limit: undefined }));
            }}
          />
          <MoneyField
            id="cl-income"
            label="Yearly income before taxes"
            hint="Include wages, benefits and other regular income. For example, 45,000"
            value={income}
            error={errors.income}
            onChange={(v) => {
              setIncome(v);
              setErrors((x) => ({ ...x, income: undefined }));
            }}
          />
          <p>We send this to {name} only.</p>
          <Failure message={failure} />
          <div className="actions">
            <Button type="submit" disabled={busy || !terms}>
              Send my request
            </Button>
            <Button variant="secondary" onClick={() => navigate(providerRoute(key, 'credit_limit_change/start'))} disabled={busy}>
              Back
            </Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

/** CreditLimitResultPage: the lender's answer, and where the patient can go from it. */
export function CreditLimitResultPage() {
  const { key, name } = useLender();
  const navigate = useFlowNavigate();
  const res = useFlow((s) => s.responses[key]?.creditLimitChange);
  const storedPurchase = useFlow((s) => s.purchaseAmountCents);
  const { staff, practice } = useWording();
  const toAccount = () => navigate(providerRoute(key, 'resume/with-existing-account'));
  const seePlans = () => navigate(providerRoute(key, 'paymentPlans'));

  if (!res) {
    return (
      <Result kind="info" title="There’s no answer to show yet">
        <p className="lead">You haven’t asked {name} for a higher credit limit in this visit.</p>
        <div className="actions">
          <Button onClick={() => navigate(providerRoute(key, 'existingAccount'))}>Back to my account</Button>
        </div>
      </Result>
    );
  }

  const purchase = res.purchaseAmountCents || storedPurchase;
  const available = res.availableCreditCents;
  /** The ways on when the limit did not change: the account as it is, or finishing. */
  const unchanged = (
    <div className="actions">
      {available > 0 ? <Button onClick={toAccount}>Use my account for {formatCents(Math.min(available, purchase || available))}</Button> : null}
      <FinishButton label="No thanks, finish" secondary={available > 0} />
    </div>
  );

  if (res.responseCode === 'approved') {
    return (
      <Result kind="ok" title="Your credit limit is higher">
        <div className="offer-head" style={{ marginBottom: 16 }}>
          <LenderLogo providerKey={key} />
          <div>
            <p style={{ margin: 0 }}>{name} raised your credit limit to</p>
            <p className="offer-head__amount" style={{ margin: 0 }}>
              {formatCents(res.creditLimitCents)}
            </p>
          </div>
        </div>
        {res.coversPurchase ? (
          <>
            <p className="lead">
              You now have {formatCents(available)} available — enough for your {formatCents(purchase)} treatment.
            </p>
            <p>Next, choose a monthly payment plan that works for you.</p>
            <div className="actions">
              <Button onClick={seePlans}>See payment plans</Button>
            </div>
          </>
        ) : (
          <>
            <p className="lead">
              You now have {formatCents(available)} available. That covers {formatCents(available)} of your {formatCents(purchase)} treatment.
            </p>
            <p>
              You can pay the other {formatCents(Math.max(0, purchase - available))} to {practice} another way.
            </p>
            <div className="actions">
              <Button onClick={seePlans}>See payment plans for {formatCents(available)}</Button>
              <FinishButton label="No thanks, finish" secondary />
            </div>
          </>
        )}
      </Result>
    );
  }

  if (res.responseCode === 'declined') {
    return (
      <Result kind="info" title="Your credit limit stays the same">
        <p className="lead">{name} couldn’t raise your credit limit this time. They will send you a letter explaining their decision.</p>
        <p>
          Your account hasn’t changed: your limit is still {formatCents(res.creditLimitCents)}, with {formatCents(available)} available to use.
          {available > 0 ? ` You can use it for part of your treatment and pay the rest to ${practice} another way.` : ''}
        </p>
        <p>You can also talk to {staff} about other ways to pay.</p>
        {unchanged}
      </Result>
    );
  }

  return (
    <Result kind="warn" title="We didn’t get an answer">
      <p className="lead">
        We didn’t get an answer from {name} about your credit limit. Please don’t ask again today&nbsp;— {staff} can check with {name} for you.
      </p>
      <p>
        As far as we know, your account is as it was: a limit of {formatCents(res.creditLimitCents)}, with {formatCents(available)} available to use.
      </p>
      {unchanged}
    </Result>
  );
}

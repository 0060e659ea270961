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
import { lenderRoute } from '@/lib/paths';
import { useWording } from '@/lib/wording';
import { useT } from '@/lib/i18n';
import { useFlow, useLenderName } from '@/stores/flow';
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
  return { key: providerKey, name: useLenderName(providerKey) };
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
  const t = useT();
  return (
    <Result kind="info" title={t('creditLimit.noAccount.title')}>
      <p className="lead">{t('creditLimit.noAccount.lead', { name, staff })}</p>
      <div className="actions">
        <Button onClick={() => navigate(lenderRoute(providerKey, 'existingAccount'))}>{t('creditLimit.noAccount.back')}</Button>
        <FinishButton secondary />
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
  const t = useT();
  if (asked) return <Navigate to={lenderRoute(key, 'credit_limit_change/result')} replace />;
  if (problem === 'noAccount') return <NoAccountToChange providerKey={key} name={name} />;
  const purchase = terms?.purchaseAmountCents || storedPurchase;
  return (
    <div className="card">
      <Page title={t('creditLimit.start.title')}>
        <p className="lead">{t('creditLimit.start.lead', { name })}</p>
        {terms ? (
          <div className="review" style={{ marginBottom: 24 }}>
            <dl>
              <dt>{t('creditLimit.start.limitNow')}</dt>
              <dd>{formatCents(terms.creditLimitCents)}</dd>
              <dt>{t('creditLimit.start.available')}</dt>
              <dd>{formatCents(terms.availableCreditCents)}</dd>
              <dt>{t('creditLimit.start.treatment')}</dt>
              <dd>{formatCents(purchase)}</dd>
            </dl>
          </div>
        ) : problem === 'none' ? (
          <div role="status" aria-live="polite">
            <span className="visually-hidden">{t('creditLimit.start.loading')}</span>
            <Skeleton height={32} count={3} />
          </div>
        ) : null}
        <h2>{t('creditLimit.start.whatHappens')}</h2>
        <ul>
          <li>{t('creditLimit.start.tell', { name })}</li>
          <li>{t('creditLimit.start.decides', { name })}</li>
          <li>{t('creditLimit.start.unchanged', { name })}</li>
        </ul>
        <DocumentBox doc={terms?.document ?? null} failed={problem === 'failed'} onRetry={retry} />
        <div className="actions">
          <Button onClick={() => navigate(lenderRoute(key, 'credit_limit_change/income'))} disabled={!terms}>
            {t('common.actions.continue')}
          </Button>
          <Button variant="secondary" onClick={() => navigate(lenderRoute(key, 'existingAccount'))}>
            {t('creditLimit.start.noThanks')}
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
  // Our own failures are kept by kind and worded at render; the server's words are kept as sent.
  const [failure, setFailure] = useState<{ kind: 'conflict' | 'failed' } | { kind: 'server'; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const [waiting, setWaiting] = useState<ApiError | null>(null);
  const { staff } = useWording();
  const t = useT();

  if (asked && !busy) return <Navigate to={lenderRoute(key, 'credit_limit_change/result')} replace />;
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
    setFailure(null);
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
        t('creditLimit.income.waiting', { name }),
      );
      navigate(lenderRoute(key, 'credit_limit_change/result'), { replace: true });
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
        if (other.length) setFailure({ kind: 'server', message: other.join(' ') });
        focus(mine);
      } else if (err instanceof ApiError && (err.code === 'session_invalid' || err.status === 401)) {
        navigate(errorTarget(err, {}, pathname), { replace: true });
      } else if (err instanceof ApiError && err.code === 'conflict') {
        setFailure({ kind: 'conflict' });
      } else {
        reportClientError('credit_limit_change.failed');
        setFailure({ kind: 'failed' });
      }
    }
  }

  if (waiting) return <StillWorking lender={name} offline={waiting.code === 'network'} onRetry={() => void send()} busy={busy} />;

  return (
    <div className="card">
      <Page title={t('creditLimit.income.title', { name })}>
        <p className="lead">{t('creditLimit.income.lead', { name })}</p>
        {problem === 'failed' ? (
          <div className="notice notice--warn" role="alert">
            <p>{t('creditLimit.income.loadFailed')}</p>
            <Button variant="secondary" onClick={retry}>
              {t('common.actions.tryAgain')}
            </Button>
          </div>
        ) : null}
        <form noValidate onSubmit={(e) => void send(e)}>
          <MoneyField
            id="cl-limit"
            label={t('creditLimit.income.limitLabel')}
            hint={
              !terms
                ? t('creditLimit.income.limitHintNoTerms')
                : terms.maxLimitCents > 0
                  ? t('creditLimit.income.limitHintMax', { purchase: formatCents(purchase), max: formatCents(terms.maxLimitCents) })
                  : t('creditLimit.income.limitHint', { purchase: formatCents(purchase) })
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
            label={t('creditLimit.income.incomeLabel')}
            hint={t('creditLimit.income.incomeHint')}
            value={income}
            error={errors.income}
            onChange={(v) => {
              setIncome(v);
              setErrors((x) => ({ ...x, income: undefined }));
            }}
          />
          <p>{t('creditLimit.income.onlyTo', { name })}</p>
          <Failure
            message={
              failure?.kind === 'server'
                ? failure.message
                : failure?.kind === 'conflict'
                  ? t('creditLimit.income.conflict', { name, staff })
                  : failure
                    ? t('creditLimit.income.failed')
                    : null
            }
          />
          <div className="actions">
            <Button type="submit" disabled={busy || !terms}>
              {t('creditLimit.income.send')}
            </Button>
            <Button variant="secondary" onClick={() => navigate(lenderRoute(key, 'credit_limit_change/start'))} disabled={busy}>
              {t('common.actions.back')}
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
  const t = useT();
  const toAccount = () => navigate(lenderRoute(key, 'resume/with-existing-account'));
  const seePlans = () => navigate(lenderRoute(key, 'paymentPlans'));

  if (!res) {
    return (
      <Result kind="info" title={t('creditLimit.result.noneTitle')}>
        <p className="lead">{t('creditLimit.result.noneLead', { name })}</p>
        <div className="actions">
          <Button onClick={() => navigate(lenderRoute(key, 'existingAccount'))}>{t('creditLimit.noAccount.back')}</Button>
        </div>
      </Result>
    );
  }

  const purchase = res.purchaseAmountCents || storedPurchase;
  const available = res.availableCreditCents;
  /** The ways on when the limit did not change: the account as it is, or finishing. */
  const unchanged = (
    <div className="actions">
      {available > 0 ? (
        <Button onClick={toAccount}>
          {t('creditLimit.result.useAccountFor', { amount: formatCents(Math.min(available, purchase || available)) })}
        </Button>
      ) : null}
      <FinishButton label={t('common.actions.noThanksFinish')} secondary={available > 0} />
    </div>
  );

  if (res.responseCode === 'approved') {
    return (
      <Result kind="ok" title={t('creditLimit.result.approvedTitle')}>
        <div className="offer-head" style={{ marginBottom: 16 }}>
          <LenderLogo providerKey={key} />
          <div>
            <p style={{ margin: 0 }}>{t('creditLimit.result.raisedTo', { name })}</p>
            <p className="offer-head__amount" style={{ margin: 0 }}>
              {formatCents(res.creditLimitCents)}
            </p>
          </div>
        </div>
        {res.coversPurchase ? (
          <>
            <p className="lead">{t('creditLimit.result.covers', { available: formatCents(available), purchase: formatCents(purchase) })}</p>
            <p>{t('creditLimit.result.next')}</p>
            <div className="actions">
              <Button onClick={seePlans}>{t('creditLimit.result.seePlans')}</Button>
            </div>
          </>
        ) : (
          <>
            <p className="lead">{t('creditLimit.result.partly', { available: formatCents(available), purchase: formatCents(purchase) })}</p>
            <p>{t('creditLimit.result.rest', { rest: formatCents(Math.max(0, purchase - available)), practice })}</p>
            <div className="actions">
              <Button onClick={seePlans}>{t('creditLimit.result.seePlansFor', { amount: formatCents(available) })}</Button>
              <FinishButton label={t('common.actions.noThanksFinish')} secondary />
            </div>
          </>
        )}
      </Result>
    );
  }

  if (res.responseCode === 'declined') {
    return (
      <Result kind="info" title={t('creditLimit.result.declinedTitle')}>
        <p className="lead">{t('creditLimit.result.declinedLead', { name })}</p>
        <p>
          {t('creditLimit.result.unchanged', { limit: formatCents(res.creditLimitCents), available: formatCents(available) })}
          {available > 0 ? <> {t('creditLimit.result.useForPart', { practice })}</> : null}
        </p>
        <p>{t('creditLimit.result.talk', { staff })}</p>
        {unchanged}
      </Result>
    );
  }

  return (
    <Result kind="warn" title={t('creditLimit.result.noAnswerTitle')}>
      <p className="lead">{t('creditLimit.result.noAnswerLead', { name, staff })}</p>
      <p>{t('creditLimit.result.asItWas', { limit: formatCents(res.creditLimitCents), available: formatCents(available) })}</p>
      {unchanged}
    </Result>
  );
}

import { useLocation, useParams } from 'react-router';
import { useShallow } from 'zustand/react/shallow';
import { Button } from '@/components/Button';
import { LenderLogo } from '@/components/LenderLogo';
import { useFlowNavigate } from '@/flow/navigation';
import { formatCents } from '@/lib/money';
import { useWording } from '@/lib/wording';
import { formatLongDate } from '@/lib/dates';
import { Trans, useT } from '@/lib/i18n';
import { lenderRoute } from '@/lib/paths';
import { flow, nameOf, useFlow, useLenderName } from '@/stores/flow';
import { isPositive } from '@/lib/decision';
import { noFinancingSummary, noOfferContent } from './messages';
import { PendingChecks, StipulationList } from './PendingChecks';
import { stipulationState } from './stipulations';
import { FinishButton, Result } from './parts';
import { canAskForHigherLimit } from './api/creditLimit';

function useLender(): { key: string; name: string } {
  const { providerKey = '' } = useParams();
  return { key: providerKey, name: useLenderName(providerKey) };
}

/** approved, preapproved and prequalified: the positive outcomes. */
export function PositiveResultPage() {
  const { key, name } = useLender();
  const navigate = useFlowNavigate();
  const t = useT();
  const { pathname } = useLocation();
  const r = useFlow((s) => s.responses[key]);
  const d = r?.apply ?? r?.preAuth;
  const word = pathname.endsWith('/approved') ? 'approved' : pathname.endsWith('/preapproved') ? 'preapproved' : 'prequalified';
  // A pending answer sent here by a lender's override (an email still to confirm) names what is left.
  const emailToConfirm = d?.responseCode === 'pending' && (d.pendingReasons ?? []).includes('verify_email');
  const amount = d?.approvedAmountCents ?? 0;
  // Without plans there is nothing to choose yet: the patient is told what is left instead of being sent to an empty list.
  const hasPlans = Boolean(r?.paymentPlans?.length);
  const upTo = amount > 0 || !emailToConfirm;
  return (
    <Result kind="ok" title={t('results.positive.title')}>
      <div className="offer-head" style={{ marginBottom: 16 }}>
        <LenderLogo providerKey={key} />
        <div>
          <p style={{ margin: 0 }}>{upTo ? t(`results.positive.${word}UpTo`, { name }) : t(`results.positive.${word}`, { name })}</p>
          {upTo ? (
            <p className="offer-head__amount" style={{ margin: 0 }}>
              {formatCents(amount)}
            </p>
          ) : null}
        </div>
      </div>
      {emailToConfirm && !hasPlans ? (
        <>
          <p>{t('results.positive.confirmEmail', { name })}</p>
          <p>{t('results.positive.thenOffer', { name })}</p>
          <div className="actions">
            <FinishButton outcome="pending" />
          </div>
        </>
      ) : (
        <>
          {emailToConfirm ? <p>{t('results.positive.confirmEmail', { name })}</p> : null}
          <p>{t('results.positive.next')}</p>
          <div className="actions">
            <Button onClick={() => navigate(lenderRoute(key, 'paymentPlans'))}>{t('results.positive.seeOptions')}</Button>
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
  const t = useT();
  const { key } = useLender();
  const s = useFlow(useShallow((x) => ({ declinedBy: x.declinedBy, responses: x.responses, lenders: x.lenders })));
  const { title, lines } = noFinancingSummary(s, (k) => nameOf(s.lenders, k), key, staff);
  // The lender that declined last may have words of its own (catalogue declinedMessage).
  const last = s.declinedBy.at(-1);
  const own = last ? s.lenders[last]?.declinedMessage : undefined;
  return (
    <Result kind="info" title={title}>
      {lines.map((line, i) => (
        <p key={line} className={i === 0 ? 'lead' : undefined}>
          {line}
        </p>
      ))}
      {own ? <p className="notice">{own}</p> : null}
      <p>{t('results.declined.talk', { staff })}</p>
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
  const { key, name } = useLender();
  const navigate = useFlowNavigate();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const stips = d?.stipulations ?? [];
  const askIncome = stips.some((x) => x.type === 'income' && stipulationState(x) === 'waiting');
  const t = useT();
  return (
    <Result kind="info" title={t('results.pending.title')}>
      <p className="lead">{t('results.pending.lead', { name })}</p>
      <StipulationList stipulations={stips} lender={name} />
      {askIncome ? (
        <div className="actions">
          <Button onClick={() => navigate(lenderRoute(key, 'patch/income'))}>{t('results.pending.giveIncome')}</Button>
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
  const t = useT();
  const ours = useFlow((s) => s.applicantId);
  const ref = <strong className="reference" />;
  return (
    <>
      {ours ? (
        <p>
          <Trans i18nKey="results.reference.ours" values={{ reference: ours, staff }} components={{ ref }} />
        </p>
      ) : null}
      {lenderReference && lenderReference.length <= READABLE_REFERENCE ? (
        <p>
          <Trans i18nKey="results.reference.lender" values={{ name, reference: lenderReference }} components={{ ref }} />
        </p>
      ) : (
        <p>{t('results.reference.byName', { name })}</p>
      )}
    </>
  );
}

function StillPendingEnd({ name, reference }: { name: string; reference?: string | null }) {
  const t = useT();
  return (
    <>
      <References name={name} lenderReference={reference} />
      <p>{t('results.noNeedToApply')}</p>
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
  const { key, name } = useLender();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const t = useT();
  return (
    <Result kind="info" title={t('results.truePending.title', { name })}>
      <p className="lead">{t('results.truePending.lead', { name })}</p>
      <h2>{t('results.whatNext')}</h2>
      <StipulationList stipulations={d?.stipulations ?? []} lender={name} />
      <p>{t('results.truePending.contact', { name })}</p>
      <PendingChecks providerKey={key} lender={name} withStipulations={Boolean(d?.stipulations?.length)} />
      <StillPendingEnd name={name} reference={d?.lenderApplicationId} />
    </Result>
  );
}

/** ExpiredPage: the lender's offer is past its expiry date, so it can no longer be accepted (lib/decision.ts, LENDER_ROUTING). */
export function ExpiredPage() {
  const { staff } = useWording();
  const t = useT();
  const { key, name } = useLender();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const on = d?.expiresAt ? new Date(d.expiresAt) : null;
  const when = on && !Number.isNaN(on.getTime()) ? formatLongDate(on) : null;
  return (
    <Result kind="info" title={t('results.expired.title')}>
      <p className="lead">{when ? t('results.expired.endedOn', { name, date: when }) : t('results.expired.ended', { name })}</p>
      <p>{t('results.expired.again', { staff })}</p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

/**
 * NoOfferPage: no offer from the quick check. It offers the office's first
 * lender's standard application, naming that lender in its words and its
 * offer alike — never after a lender we could not reach, where it says, as
 * the declined screen does, not to apply again (messages.ts, noOfferContent).
 */
export function NoOfferPage() {
  const { staff } = useWording();
  const navigate = useFlowNavigate();
  const t = useT();
  const { key } = useLender();
  const s = useFlow(useShallow((x) => ({ declinedBy: x.declinedBy, responses: x.responses, lenders: x.lenders, primary: x.primaryLenderKey })));
  const fullKey = s.primary ?? key;
  const takesFull = Boolean(s.lenders[fullKey]?.supportsFullAppMode);
  const { title, lines, offer } = noOfferContent(s, (k) => nameOf(s.lenders, k), key, takesFull ? fullKey : null, staff);
  return (
    <Result kind="info" title={title}>
      {lines.map((line, i) => (
        <p key={line} className={i === 0 ? 'lead' : undefined}>
          {line}
        </p>
      ))}
      {offer ? (
        <p>
          <Trans i18nKey="results.noOffer.standard" values={{ name: nameOf(s.lenders, offer) }} components={{ strong: <strong /> }} />
        </p>
      ) : null}
      <div className="actions">
        {offer ? (
          <Button
            onClick={() => {
              flow.set({ providerKey: offer, applyMode: 'full' });
              navigate(lenderRoute(offer, 'modes/full/application'));
            }}
          >
            {t('results.noOffer.begin')}
          </Button>
        ) : null}
        <FinishButton label={offer ? t('common.actions.noThanksFinish') : undefined} secondary={Boolean(offer)} />
      </div>
    </Result>
  );
}

export function LenderErrorPage() {
  const { staff } = useWording();
  const t = useT();
  const { key, name } = useLender();
  return (
    <Result kind="warn" title={t('results.titles.noAnswer')}>
      <p className="lead">{key ? t('results.lenderError.lead', { name, staff }) : t('results.lenderError.leadUnknown', { staff })}</p>
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
  const { key, name } = useLender();
  const navigate = useFlowNavigate();
  const d = useFlow((s) => s.responses[key]?.apply ?? s.responses[key]?.preAuth);
  const purchase = useFlow((s) => s.purchaseAmountCents);
  const canAsk = useFlow((s) => canAskForHigherLimit(s, key));
  const { practice, staff } = useWording();
  const t = useT();
  const usable = isPositive(d?.responseCode);
  const amount = d?.approvedAmountCents ?? 0;
  return (
    <Result kind="info" title={t('results.existing.title')}>
      <p className="lead">{t('results.existing.lead', { name })}</p>
      {usable && canAsk ? (
        <>
          <p>{t('results.existing.canAsk', { available: formatCents(amount), purchase: formatCents(purchase), name, practice })}</p>
          <div className="actions">
            <Button onClick={() => navigate(lenderRoute(key, 'credit_limit_change/start'))}>{t('results.existing.askHigher')}</Button>
            <Button variant="secondary" onClick={() => navigate(lenderRoute(key, 'resume/with-existing-account'))}>
              {t('results.existing.useAccount')}
            </Button>
            <FinishButton label={t('common.actions.noThanksFinish')} secondary />
          </div>
        </>
      ) : usable ? (
        <>
          <p>{amount > 0 ? t('results.existing.usableUpTo', { amount: formatCents(amount) }) : t('results.existing.usable')}</p>
          <div className="actions">
            <Button onClick={() => navigate(lenderRoute(key, 'resume/with-existing-account'))}>{t('results.existing.useAccount')}</Button>
            <FinishButton label={t('common.actions.noThanksFinish')} secondary />
          </div>
        </>
      ) : (
        <>
          <p>{t('results.existing.maybe', { staff, name })}</p>
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
  const { key, name } = useLender();
  const ref = useFlow((s) => (s.responses[key]?.apply ?? s.responses[key]?.preAuth)?.lenderApplicationId);
  const t = useT();
  return (
    <Result kind="info" title={t('results.underReview.title')}>
      <p className="lead">{t('results.underReview.lead', { name })}</p>
      <h2>{t('results.whatNext')}</h2>
      <ul>
        <li>{t('results.underReview.identity', { name })}</li>
        <li>{t('results.underReview.decision', { name })}</li>
        <li>{t('results.underReview.nothingMore', { name })}</li>
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
  const t = useT();
  const { name } = useLender();
  return (
    <Result kind="warn" title={t('results.acceptError.title')}>
      <p className="lead">{t('results.acceptError.lead', { name, staff })}</p>
      <div className="actions">
        <FinishButton />
      </div>
    </Result>
  );
}

import { LenderLogo } from '@/components/LenderLogo';
import { formatCents } from '@/lib/money';
import { nameOf, useFlow } from '@/stores/flow';
import { offerExpiry } from './offerExpiry';

/** Offer is one lender's positive answer, as the plans screen shows it. */
export interface Offer {
  providerKey: string;
  approvedAmountCents: number;
  expiresAt?: string;
  code: string;
  /** The partner lender whose offer this is, when the lender passes one on. */
  offeredProviderId?: string;
}

const WORD: Record<string, string> = { approved: 'approved', preapproved: 'pre-approved', prequalified: 'prequalified' };

/**
 * OfferHeads lists each lender's offer above the plans (docs/behaviour.md,
 * "Plans and offers"): who, for which product (its financing name), up to
 * how much, until when. With more than one offer it adds what each product
 * is, so the patient can tell a card from a loan or a lease before choosing.
 */
export function OfferHeads({ offers }: { offers: Offer[] }) {
  const providers = useFlow((s) => s.providers);
  const responses = useFlow((s) => s.responses);
  return (
    <section aria-label="Your offers">
      {offers.map((o) => {
        const cfg = providers[o.providerKey];
        const partner = cfg?.subLenders?.find((x) => x.providerId === o.offeredProviderId && x.providerId !== cfg.providerId);
        return (
          <div key={o.providerKey} className="card offer-head">
            <LenderLogo providerKey={o.providerKey} logo={partner?.logo} />
            <div style={{ flex: 1, minWidth: 220 }}>
              <p style={{ margin: 0 }}>
                Congratulations! {partner ? `${partner.name}, through ${nameOf(providers, o.providerKey)},` : nameOf(providers, o.providerKey)}{' '}
                {WORD[o.code] ?? 'approved'} you{cfg?.financingName ? ` for a ${cfg.financingName}` : ''} of up to
              </p>
              <p className="offer-head__amount" style={{ margin: 0 }}>
                {formatCents(o.approvedAmountCents)}
              </p>
              <p className="muted" style={{ margin: 0 }}>
                {offerExpiry(o.expiresAt ?? responses[o.providerKey]?.paymentPlans?.[0]?.expireDateTime, new Date(), cfg?.preauthExpireDays ?? 30)}
              </p>
            </div>
          </div>
        );
      })}
      {offers.length > 1 ? (
        <div className="card" aria-labelledby="offers-differ-title">
          <h2 id="offers-differ-title">You have {offers.length} offers</h2>
          <p className="muted">Each works differently. You choose one plan from one of them; the others need nothing from you.</p>
          <dl className="offers-differ">
            {offers.map((o) => (
              <div key={o.providerKey}>
                <dt style={{ fontWeight: 700 }}>{providers[o.providerKey]?.financingName || nameOf(providers, o.providerKey)}</dt>
                <dd style={{ margin: '0 0 8px' }}>{providers[o.providerKey]?.fundingSourceDescription}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </section>
  );
}

import { LenderLogo } from '@/components/LenderLogo';
import { useT } from '@/lib/i18n';
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

/** The congratulation of each kind of positive answer, without and with the product's name; any other is "approved". */
const CONGRATS = {
  approved: ['offers.heads.approved', 'offers.heads.approvedFor'],
  preapproved: ['offers.heads.preapproved', 'offers.heads.preapprovedFor'],
  prequalified: ['offers.heads.prequalified', 'offers.heads.prequalifiedFor'],
} as const;
const congrats = (code: string) => (Object.hasOwn(CONGRATS, code) ? CONGRATS[code as keyof typeof CONGRATS] : CONGRATS.approved);

/**
 * OfferHeads lists each lender's offer above the plans (docs/behaviour.md,
 * "Plans and offers"): who, for which product (its financing name), up to
 * how much, until when. With more than one offer it adds what each product
 * is, so the patient can tell a card from a loan or a lease before choosing.
 */
export function OfferHeads({ offers }: { offers: Offer[] }) {
  const t = useT();
  const lenders = useFlow((s) => s.lenders);
  const responses = useFlow((s) => s.responses);
  return (
    <section aria-label={t('offers.heads.label')}>
      {offers.map((o) => {
        const cfg = lenders[o.providerKey];
        const partner = cfg?.subLenders?.find((x) => x.providerId === o.offeredProviderId && x.providerId !== cfg.providerId);
        const lender = nameOf(lenders, o.providerKey);
        const who = partner ? t('offers.heads.through', { partner: partner.name, lender }) : lender;
        const [plain, withProduct] = congrats(o.code);
        return (
          <div key={o.providerKey} className="card offer-head">
            <LenderLogo providerKey={o.providerKey} logo={partner?.logo} />
            <div style={{ flex: 1, minWidth: 220 }}>
              <p style={{ margin: 0 }}>{cfg?.financingName ? t(withProduct, { who, product: cfg.financingName }) : t(plain, { who })}</p>
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
          <h2 id="offers-differ-title">{t('offers.heads.count', { count: offers.length })}</h2>
          <p className="muted">{t('offers.heads.differ')}</p>
          <dl className="offers-differ">
            {offers.map((o) => (
              <div key={o.providerKey}>
                <dt style={{ fontWeight: 700 }}>{lenders[o.providerKey]?.financingName || nameOf(lenders, o.providerKey)}</dt>
                <dd style={{ margin: '0 0 8px' }}>{lenders[o.providerKey]?.fundingSourceDescription}</dd>
              </div>
            ))}
          </dl>
        </div>
      ) : null}
    </section>
  );
}

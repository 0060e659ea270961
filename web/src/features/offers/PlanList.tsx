import * as RadioGroup from '@radix-ui/react-radio-group';
import { useState } from 'react';
import type { PaymentPlan } from '@/lib/api/types';
import { t as translate, useT } from '@/lib/i18n';
import { formatCents } from '@/lib/money';
import { useWording } from '@/lib/wording';
import { nameOf, useFlow } from '@/stores/flow';
import { PlanCard } from './PlanCard';
import {
  filterByType,
  groupPlans,
  isEligible,
  planTypeLabel,
  planTypesShown,
  subLenderOf,
  suggestedPlan,
  tooSmallFor,
  type PlanGroup,
} from './plans';

export const planValue = (p: PaymentPlan) => `${p.providerKey}|${p.providerPlanCode}`;

export interface PlanListProps {
  plans: PaymentPlan[];
  /** approvedCents is each lender's approved amount, by lender key. */
  approvedCents: Record<string, number>;
  /** The partner lender each lender's offer names (offeredProviderId), by lender key. */
  offered?: Record<string, string | undefined>;
  value: string;
  onChange: (value: string) => void;
  labelledBy: string;
  describedBy?: string;
}

/**
 * PlanList is the plan option cards (docs/behaviour.md, "Plans and offers"):
 * only the plan types each lender's filter lets through, with a choice of
 * type when a lender's filter names more than one; each lender's plans, and
 * each partner lender's, under their own heading when there is more than one
 * group; the plans that do not cover the amount asked for after the others.
 */
export function PlanList({ plans, approvedCents, offered, value, onChange, labelledBy, describedBy }: PlanListProps) {
  const t = useT();
  const lenders = useFlow((s) => s.lenders);
  const [type, setType] = useState('');
  const shown = filterByType(plans, lenders);
  const types = [
    ...new Set(Object.values(lenders).flatMap((c) => (plans.some((p) => p.providerKey === c.providerKey) ? (planTypesShown(c) ?? []) : []))),
  ];
  const typed = type ? shown.filter((p) => p.typeId === type) : shown;
  const eligible = typed.filter((p) => isEligible(p, approvedCents[p.providerKey]));
  const others = typed.filter((p) => !isEligible(p, approvedCents[p.providerKey]));
  const suggested = suggestedPlan(eligible);
  // Nothing can be chosen because the amount is under every plan's minimum: said plainly, with what to do.
  const small = tooSmallFor(typed, approvedCents);
  const { staff } = useWording();
  const groups = groupPlans(eligible, lenders, offered);
  const card = (p: PaymentPlan, fullyCovered: boolean) => (
    <PlanCard
      key={planValue(p)}
      plan={p}
      suggested={fullyCovered && p === suggested}
      fullyCovered={fullyCovered}
      partner={subLenderOf(p, lenders[p.providerKey], offered?.[p.providerKey])}
    />
  );
  return (
    <>
      {types.length > 1 ? (
        <div className="plan-types" role="group" aria-label={t('offers.list.typesLabel')}>
          {['', ...types].map((k) => (
            <button key={k || 'all'} type="button" className="chip" aria-pressed={type === k} onClick={() => setType(k)}>
              {k ? planTypeLabel(k) : t('offers.list.allPlans')}
            </button>
          ))}
        </div>
      ) : null}
      {!typed.length ? (
        <div className="notice">
          <p style={{ margin: 0 }}>{t('offers.list.noMatch')}</p>
        </div>
      ) : (
        <RadioGroup.Root className="plans" value={value} onValueChange={onChange} aria-labelledby={labelledBy} aria-describedby={describedBy}>
          {groups.length > 1
            ? groups.map((g) => (
                <div key={g.id} className="plan-group" role="group" aria-label={groupTitle(g, lenders)}>
                  <h3 className="plan-group__title">{groupTitle(g, lenders)}</h3>
                  {g.plans.map((p) => card(p, true))}
                </div>
              ))
            : groups.flatMap((g) => g.plans.map((p) => card(p, true)))}
          {small ? (
            <p className="notice" style={{ marginTop: 8 }}>
              {t('offers.list.tooSmall', { amount: formatCents(small.amountCents), least: formatCents(small.leastCents), staff })}
            </p>
          ) : null}
          {others.length ? (
            <p className="muted" style={{ marginTop: 8 }}>
              {t('offers.list.others')}
            </p>
          ) : null}
          {others.map((p) => card(p, false))}
        </RadioGroup.Root>
      )}
    </>
  );
}

function groupTitle(g: PlanGroup, lenders: Parameters<typeof nameOf>[0]): string {
  const lender = nameOf(lenders, g.providerKey);
  return g.subLender ? translate('offers.list.fromPartner', { partner: g.subLender.name, lender }) : translate('offers.list.from', { lender });
}

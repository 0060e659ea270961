import type { PaymentPlan } from '@/lib/api/types';
import { useT } from '@/lib/i18n';
import { downPaymentRows, lenderSizingRows, type MoneyRow } from './plans';

/** Rows: a money table's rows, label and amount; with boldLast, the last (the sum) in bold. */
function Rows({ rows, boldLast = false }: { rows: MoneyRow[]; boldLast?: boolean }) {
  const weight = (i: number) => (boldLast && i === rows.length - 1 ? 700 : 400);
  return (
    <tbody>
      {rows.map((r, i) => (
        <tr key={r.label}>
          <th scope="row" style={{ textAlign: 'left', fontWeight: weight(i), paddingRight: 16 }}>
            {r.label}
          </th>
          <td style={{ textAlign: 'right', fontWeight: weight(i) }}>{r.value}</td>
        </tr>
      ))}
    </tbody>
  );
}

/**
 * DownPaymentTable: the down-payment table shown with a plan that asks for a
 * down payment (docs/behaviour.md, "Plans and offers"; docs/decisions.md,
 * "Down-payment table"): from the treatment to the plan's amount financed,
 * then, with `schedule`, the plan's payments and all the patient pays. The
 * lender's sizing figures follow apart, under their own heading, saying
 * they are not an amount owed.
 */
export function DownPaymentTable({
  plan,
  treatmentCents,
  insuranceCents = 0,
  schedule = false,
}: {
  plan: PaymentPlan;
  treatmentCents: number;
  insuranceCents?: number;
  schedule?: boolean;
}) {
  const t = useT();
  return (
    <>
      <table className="down-payment-table" aria-label={t('offers.downPaymentTable.label')}>
        <Rows rows={downPaymentRows(plan, treatmentCents, insuranceCents, schedule)} boldLast />
      </table>
      <h3 style={{ marginTop: 16, fontSize: '1rem' }} id="lender-sizing-title">
        {t('offers.downPaymentTable.sizingTitle')}
      </h3>
      <p className="muted">{t('offers.downPaymentTable.sizingNote')}</p>
      <table className="down-payment-table" aria-labelledby="lender-sizing-title">
        <Rows rows={lenderSizingRows(treatmentCents, insuranceCents)} />
      </table>
    </>
  );
}

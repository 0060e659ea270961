import { useT } from '@/lib/i18n';
import { formatCents } from '@/lib/money';
import { downPaymentRows } from './plans';

/** DownPaymentTable: the down-payment table shown with a plan that asks for a down payment (docs/behaviour.md, "Plans and offers"). */
export function DownPaymentTable({
  treatmentCents,
  insuranceCents = 0,
  downPaymentCents,
}: {
  treatmentCents: number;
  insuranceCents?: number;
  downPaymentCents: number;
}) {
  const t = useT();
  return (
    <table className="down-payment-table" aria-label={t('offers.downPaymentTable.label')}>
      <tbody>
        {downPaymentRows(treatmentCents, insuranceCents).map((r) => (
          <tr key={r.label}>
            <th scope="row" style={{ textAlign: 'left', fontWeight: 400, paddingRight: 16 }}>
              {r.label}
            </th>
            <td style={{ textAlign: 'right' }}>{formatCents(r.cents)}</td>
          </tr>
        ))}
        <tr>
          <th scope="row" style={{ textAlign: 'left', paddingRight: 16 }}>
            {t('offers.downPaymentTable.dueToday')}
          </th>
          <td style={{ textAlign: 'right', fontWeight: 700 }}>{formatCents(downPaymentCents)}</td>
        </tr>
      </tbody>
    </table>
  );
}

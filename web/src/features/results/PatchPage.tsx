import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import type { FieldDefinition } from '@/lib/api/types';
import { providerRoute } from '@/lib/paths';
import { toApiValue, validateField } from '@/lib/validation';
import { fieldsKey, flow, useFlow, useProviderName } from '@/stores/flow';
import { setPendingPatch } from './api/pending';

/**
 * The income field as the application form defines it, for when that
 * form's definitions are not loaded (the server checks with the same
 * definition: provider/fields.go, annualGrossIncome).
 */
const INCOME_FALLBACK: FieldDefinition = {
  id: 'annualGrossIncome',
  path: 'annualGrossIncome',
  name: 'annualGrossIncome',
  type: 'currency',
  label: 'Yearly income before taxes',
  rules: { required: {}, min: { min: 0 }, max: { max: 999_999_900 } },
};

/** incomeDefinition finds the lender's own income field among the definitions its form loaded. */
export function incomeDefinition(providerKey: string): FieldDefinition {
  const s = flow.get();
  for (const mode of [s.applyMode, 'full', 'prequalify', 'prescreen'] as const) {
    const def = s.fields[fieldsKey(providerKey, mode)]?.fields.find((f) => f.id === 'annualGrossIncome');
    if (def) return def;
  }
  return INCOME_FALLBACK;
}

/**
 * PatchPage (patch/income): a lender that answered pending asked for the
 * patient's verified yearly income (docs/behaviour.md, "Pending, patches
 * and stipulations"). The value is checked with the application's own rules
 * for that field, then sent by the transient patchSubmit.
 */
export function PatchPage() {
  const { providerKey = '', patchType = '' } = useParams();
  const lender = useProviderName(providerKey);
  const navigate = useFlowNavigate();
  const asked = useFlow((s) => (s.responses[providerKey]?.apply ?? s.responses[providerKey]?.preAuth)?.stipulations ?? []);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const def = incomeDefinition(providerKey);
  const stip = asked.find((x) => x.type === patchType);

  if (patchType !== 'income') {
    return (
      <div className="card">
        <Page title="Nothing to update here">
          <p className="lead">{lender} has not asked for anything on this screen.</p>
          <div className="actions">
            <Button onClick={() => navigate(providerRoute(providerKey, 'pending'))}>Back</Button>
          </div>
        </Page>
      </div>
    );
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const message = validateField(def, typed);
    setError(message);
    if (message) {
      document.getElementById('annualGrossIncome')?.focus();
      return;
    }
    setPendingPatch(providerKey, patchType, { annualGrossIncome: toApiValue(def, typed) as number });
    navigate(providerRoute(providerKey, 'patchSubmit'));
  }

  const hintId = 'annualGrossIncome-hint';
  const errId = 'annualGrossIncome-error';
  return (
    <div className="card">
      <Page title={`${lender} needs your income`}>
        <p className="lead">
          {stip?.description ?? `${lender} needs your verified yearly income before taxes.`} Once they have it, they can finish deciding — you don’t
          need to apply again.
        </p>
        <form noValidate onSubmit={submit}>
          <div className={`field${error ? ' field--error' : ''}`}>
            <label className="label" htmlFor="annualGrossIncome">
              {def.label || 'Yearly income before taxes'}
            </label>
            <span id={hintId} className="hint">
              {def.hint || 'Include wages, benefits and other regular income. For example, $45,000'}
            </span>
            <input
              id="annualGrossIncome"
              className="input"
              value={typed}
              inputMode="decimal"
              autoComplete="off"
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${hintId} ${errId}` : hintId}
              onChange={(e) => setTyped(e.target.value.slice(0, 20))}
            />
            {error ? (
              <span id={errId} className="error-text">
                <span className="visually-hidden">Error: </span>
                {error}
              </span>
            ) : null}
          </div>
          <p>We send this to {lender} only, and they tell us their decision.</p>
          <div className="actions">
            <Button type="submit">Send to {lender}</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

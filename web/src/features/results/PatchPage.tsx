import { serverText } from '@/lib/serverText';
import { useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import type { FieldDefinition } from '@/lib/api/types';
import { lenderRoute } from '@/lib/paths';
import { toApiValue, validateField } from '@/lib/validation';
import { fieldsKey, flow, useFlow, useLenderName } from '@/stores/flow';
import { t as translate, useT } from '@/lib/i18n';
import { setPendingPatch } from './api/pending';

/**
 * The income field as the application form defines it, for when that
 * form's definitions are not loaded (the server checks with the same
 * definition: catalogue/fields.go, annualGrossIncome). Its label is worded
 * when it is used, in the language of that moment.
 */
const incomeFallback = (): FieldDefinition => ({
  id: 'annualGrossIncome',
  path: 'annualGrossIncome',
  name: 'annualGrossIncome',
  type: 'currency',
  label: translate('results.patch.incomeLabel'),
  rules: { required: {}, min: { min: 0 }, max: { max: 999_999_900 } },
});

/** incomeDefinition finds the lender's own income field among the definitions its form loaded. */
export function incomeDefinition(providerKey: string): FieldDefinition {
  const s = flow.get();
  for (const mode of [s.applyMode, 'full', 'prequalify', 'prescreen'] as const) {
    const def = s.fields[fieldsKey(providerKey, mode)]?.fields.find((f) => f.id === 'annualGrossIncome');
    if (def) return def;
  }
  return incomeFallback();
}

/**
 * PatchPage (patch/income): a lender that answered pending asked for the
 * patient's verified yearly income (docs/behaviour.md, "Pending, patches
 * and stipulations"). The value is checked with the application's own rules
 * for that field, then sent by the transient patchSubmit.
 */
export function PatchPage() {
  const { providerKey = '', patchType = '' } = useParams();
  const lender = useLenderName(providerKey);
  const t = useT();
  const navigate = useFlowNavigate();
  const asked = useFlow((s) => (s.responses[providerKey]?.apply ?? s.responses[providerKey]?.preAuth)?.stipulations ?? []);
  const [typed, setTyped] = useState('');
  const [error, setError] = useState<string | null>(null);
  const def = incomeDefinition(providerKey);
  const stip = asked.find((x) => x.type === patchType);

  if (patchType !== 'income') {
    return (
      <div className="card">
        <Page title={t('results.patch.nothingTitle')}>
          <p className="lead">{t('results.patch.nothing', { lender })}</p>
          <div className="actions">
            <Button onClick={() => navigate(lenderRoute(providerKey, 'pending'))}>{t('common.actions.back')}</Button>
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
    navigate(lenderRoute(providerKey, 'patchSubmit'));
  }

  const hintId = 'annualGrossIncome-hint';
  const errId = 'annualGrossIncome-error';
  return (
    <div className="card">
      <Page title={t('results.patch.title', { lender })}>
        <p className="lead">
          {stip?.description ?? t('results.patch.needs', { lender })} {t('results.patch.onceTheyHave')}
        </p>
        <form noValidate onSubmit={submit}>
          <div className={`field${error ? ' field--error' : ''}`}>
            <label className="label" htmlFor="annualGrossIncome">
              {serverText(def.label) || t('results.patch.incomeLabel')}
            </label>
            <span id={hintId} className="hint">
              {def.hint || t('results.patch.incomeHint')}
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
                <span className="visually-hidden">{t('common.errorPrefix')}</span>
                {error}
              </span>
            ) : null}
          </div>
          <p>{t('results.patch.onlyTo', { lender })}</p>
          <div className="actions">
            <Button type="submit">{t('results.patch.send', { lender })}</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

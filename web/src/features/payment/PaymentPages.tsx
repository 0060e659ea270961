import { useState, type ReactNode } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, lenderPath } from '@/lib/api/client';
import type { ProviderApplicationState } from '@/lib/api/types';
import { t as translate, useT } from '@/lib/i18n';
import { afterStep } from '@/lib/lenderSteps';
import { lenderRoute } from '@/lib/paths';
import { bankAccountErrors, cardErrors, cardLength, cvvLength, digitsOnly, expiryParts, maskCard, maskExpiry, type Errors } from '@/lib/payment';
import { useFlow, useLenderName } from '@/stores/flow';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';

/*
 * The payment method of an accepted offer (docs/behaviour.md, "What each
 * lender asks for"): Snap's checking account (addBankAccount), from which a
 * lease's payments come, so a lease-to-own lender is offered no card; for
 * another lender, the choice of checking or card follows
 * (paymentSelection); HFD's loanPayment, card or checking. Each then goes to the lender's next open step, or to signing
 * (lib/lenderSteps). What is typed here
 * lives in component state only — never the flow store, sessionStorage,
 * localStorage or IndexedDB — and the card number and CVV are cleared once
 * sent, whatever the answer.
 */

/** serverErrors maps the server's prefixed field errors to this form's fields. */
function serverErrors(e: unknown, prefix: string): Errors | null {
  if (!(e instanceof ApiError) || e.fieldErrors.length === 0) return null;
  const out: Errors = {};
  for (const fe of e.fieldErrors) out[fe.field.replace(`${prefix}.`, '')] = fe.message;
  return out;
}

/**
 * sendStep sends a payment step to the lender while the waiting words show,
 * and answers the lender's answer, or null when it was refused: a refusal
 * lands on the form as field errors (named without prefix) or as one message.
 */
async function sendStep(
  progress: string,
  path: string,
  body: unknown,
  prefix: string,
  show: { errors: (e: Errors) => void; failure: (m: string) => void },
): Promise<ProviderApplicationState | null> {
  show.failure('');
  try {
    return await withProgress(progress, () => api.post<ProviderApplicationState>(path, body, { lenderStep: true, noErrorHandling: true }));
  } catch (err) {
    const fe = serverErrors(err, prefix);
    if (fe) show.errors(fe);
    else show.failure(err instanceof ApiError ? err.message : translate('payment.failed'));
    return null;
  }
}

/** useBankAccount is the checking-account form's state and its send, in this screen's state only. */
function useBankAccount(providerKey: string, lender: string) {
  const t = useT();
  const [routingNumber, setRouting] = useState('');
  const [accountNumber, setAccount] = useState('');
  const [bankName, setBankName] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const fields = (
    <>
      <TextField
        id="routingNumber"
        label={t('payment.account.routing')}
        hint={t('payment.account.routingHint')}
        numeric
        value={routingNumber}
        error={errors.routingNumber}
        onChange={(v) => setRouting(digitsOnly(v, 9))}
      />
      <TextField
        id="accountNumber"
        label={t('payment.account.number')}
        hint={t('payment.account.numberHint')}
        numeric
        value={accountNumber}
        error={errors.accountNumber}
        onChange={(v) => setAccount(digitsOnly(v, 17))}
      />
      <TextField
        id="bankName"
        label={t('payment.account.bank')}
        value={bankName}
        error={errors.bankName}
        onChange={(v) => setBankName(v.slice(0, 100))}
      />
    </>
  );
  async function send(): Promise<ProviderApplicationState | null> {
    const form = { routingNumber, accountNumber, bankName };
    const e = bankAccountErrors(form);
    setErrors(e);
    if (Object.keys(e).length > 0) return null;
    return sendStep(
      t('payment.account.progress', { lender }),
      lenderPath(providerKey, 'application/bank-account'),
      { ...form, accountType: 'checking' },
      'bankAccount',
      { errors: setErrors, failure: setFailure },
    );
  }
  return { fields, send, failure };
}

/** useLenderScreen is what each payment screen starts from: the navigation, the current lender and its name, and whether it leases (its payments come from the checking account). */
function useLenderScreen() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lease = useFlow((s) => s.lenders[providerKey]?.kind === 'lease_to_own');
  return { navigate, providerKey, lender: useLenderName(providerKey), lease };
}

/**
 * useCard is the card form's state and its send. The number and CVV are
 * sent once and cleared whatever the answer; refused() tells whether the
 * last answer was the lender refusing a card that passed every check here.
 */
function useCard(providerKey: string, lender: string) {
  const t = useT();
  const [cardholderName, setName] = useState('');
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [zip, setZip] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const [refused, setRefused] = useState(false);
  const fields = (
    <>
      <TextField
        id="cardholderName"
        label={t('payment.card.name')}
        autoComplete="cc-name"
        value={cardholderName}
        error={errors.cardholderName}
        onChange={(v) => setName(v.slice(0, 100))}
      />
      <TextField
        id="cardNumber"
        label={t('payment.card.number')}
        hint={t('payment.card.numberHint')}
        numeric
        value={maskCard(cardNumber)}
        error={errors.cardNumber}
        onChange={(v) => {
          const d = digitsOnly(v, 16);
          setCardNumber(d.slice(0, cardLength(d)));
        }}
      />
      <TextField
        id="expiry"
        label={t('payment.card.expiry')}
        numeric
        value={expiry}
        error={errors.expiry}
        onChange={(v) => setExpiry(maskExpiry(v))}
      />
      <TextField
        id="cvv"
        label={t('payment.card.cvv')}
        hint={cvvLength(cardNumber) === 4 ? t('payment.card.cvvFront') : t('payment.card.cvvBack')}
        numeric
        value={cvv}
        error={errors.cvv}
        onChange={(v) => setCvv(digitsOnly(v, cvvLength(cardNumber)))}
      />
      <TextField id="zip" label={t('payment.card.zip')} numeric value={zip} error={errors.zip} onChange={(v) => setZip(digitsOnly(v, 5))} />
    </>
  );
  async function send(): Promise<ProviderApplicationState | null> {
    setRefused(false);
    const e = cardErrors({ cardholderName, cardNumber, expiry, cvv, zip });
    setErrors(e);
    if (Object.keys(e).length > 0) return null;
    const exp = expiryParts(expiry)!;
    const body = { cardholderName, cardNumber, expiryMonth: exp.month, expiryYear: exp.year, cvv, zip };
    // Sent once, then gone from this screen whatever the answer.
    setCardNumber('');
    setCvv('');
    let serverFieldErrors: Errors = {};
    const pa = await sendStep(t('payment.card.progress', { lender }), lenderPath(providerKey, 'application/bank-card'), body, 'bankCard', {
      errors: (fe) => {
        serverFieldErrors = fe;
        setErrors(fe);
      },
      failure: setFailure,
    });
    // The number passed every check here, so an error on it is the issuer's refusal.
    if (!pa && serverFieldErrors.cardNumber) setRefused(true);
    return pa;
  }
  const clearRefusal = () => {
    setRefused(false);
    setErrors({});
  };
  return { fields, send, failure, refused, clearRefusal };
}

export function BankAccountPage() {
  const t = useT();
  const { navigate, providerKey, lender, lease } = useLenderScreen();
  const account = useBankAccount(providerKey, lender);

  async function send() {
    const pa = await account.send();
    if (!pa) return;
    // A lease's payments come from this account, as its screen says: no card to offer, on to the next open step.
    if (lease) navigate(await afterStep(providerKey, pa));
    // Another lender's second half of this step: checking or card for the payments.
    else navigate(lenderRoute(providerKey, 'paymentSelection'));
  }

  return (
    <div className="card">
      <PaymentForm title={t('payment.bankAccount.title')} lead={t('payment.bankAccount.lead', { lender })} failure={account.failure} onSend={send}>
        {account.fields}
      </PaymentForm>
    </div>
  );
}

/** LeaseChecking: a lease's payments come from the checking account just added; there is nothing to choose. */
function LeaseChecking({ lender, onContinue }: { lender: string; onContinue: () => Promise<void> }) {
  const t = useT();
  return (
    <div className="card">
      <Page title={t('payment.selection.leaseTitle')} lead={t('payment.selection.leaseChecking', { lender })}>
        <div className="actions">
          <Button onClick={() => void onContinue()}>{t('payment.continue')}</Button>
        </div>
      </Page>
    </div>
  );
}

export function PaymentSelectionPage() {
  const t = useT();
  const { navigate, providerKey, lender, lease } = useLenderScreen();
  const [method, setMethod] = useState<Method>('checking');
  const card = useCard(providerKey, lender);
  if (lease) return <LeaseChecking lender={lender} onContinue={async () => navigate(await afterStep(providerKey))} />;

  async function send() {
    if (method === 'checking') {
      // Nothing more to send: the checking account is already with the lender.
      navigate(await afterStep(providerKey));
      return;
    }
    const pa = await card.send();
    if (pa) navigate(await afterStep(providerKey, pa));
  }

  return (
    <div className="card">
      <PaymentForm title={t('payment.selection.title')} lead={t('payment.selection.lead', { lender })} failure={card.failure} onSend={send}>
        <MethodChoice
          name="method"
          legend={t('payment.selection.legend')}
          value={method}
          onChange={setMethod}
          options={[
            ['checking', t('payment.selection.checking')],
            ['card', t('payment.selection.card')],
          ]}
        />
        {method === 'card' ? card.fields : null}
      </PaymentForm>
    </div>
  );
}

/** PaymentForm: a payment screen's form: its fields, what went wrong sending them, and Continue, which sends them. */
function PaymentForm({
  title,
  lead,
  failure,
  onSend,
  children,
}: {
  title: string;
  lead: string;
  failure: string | null | undefined;
  onSend: () => Promise<void>;
  children: ReactNode;
}) {
  const t = useT();
  return (
    <Page title={title} lead={lead}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void onSend();
        }}
      >
        {children}
        <Failure message={failure} />
        <div className="actions">
          <Button type="submit">{t('payment.continue')}</Button>
        </div>
      </form>
    </Page>
  );
}

type Method = 'card' | 'checking';

/** MethodChoice: the radio group that picks how the monthly payments are made; each radio's id is the name and its value. */
function MethodChoice({
  name,
  legend,
  value,
  onChange,
  options,
}: {
  name: string;
  legend: string;
  value: Method;
  onChange: (m: Method) => void;
  options: [Method, string][];
}) {
  return (
    <fieldset className="field form-section">
      <legend className="label">{legend}</legend>
      <div className="radios">
        {options.map(([m, label]) => (
          <label key={m} htmlFor={`${name}-${m}`}>
            <input id={`${name}-${m}`} type="radio" name={name} checked={value === m} onChange={() => onChange(m)} /> {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * CardRefusedModal: the lender refused the card (catalogue flag
 * showBankCardErrorModal). Nothing is wrong with the loan; the patient may
 * try another card or have the payments come from a checking account.
 */
function CardRefusedModal({ lender, onAnotherCard, onChecking }: { lender: string; onAnotherCard: () => void; onChecking: () => void }) {
  const t = useT();
  return (
    <Modal title={t('payment.refused.title')} onClose={onAnotherCard}>
      <p>{t('payment.refused.body', { lender })}</p>
      <p>{t('payment.refused.options')}</p>
      <div className="actions">
        <Button onClick={onAnotherCard}>{t('payment.refused.anotherCard')}</Button>
        <Button variant="secondary" onClick={onChecking}>
          {t('payment.refused.useChecking')}
        </Button>
      </div>
    </Modal>
  );
}

/** LoanPaymentPage: how the monthly payments of a loan are made, a card or a checking account, given to the lender. */
export function LoanPaymentPage() {
  const t = useT();
  const { navigate, providerKey, lender } = useLenderScreen();
  const cardModal = useFlow((s) => Boolean(s.lenders[providerKey]?.showBankCardErrorModal));
  const [method, setMethod] = useState<Method>('card');
  const card = useCard(providerKey, lender);
  const account = useBankAccount(providerKey, lender);
  const modal = cardModal && card.refused && method === 'card';

  async function send() {
    const pa = method === 'card' ? await card.send() : await account.send();
    if (pa) navigate(await afterStep(providerKey, pa));
  }

  return (
    <div className="card">
      <PaymentForm
        title={t('payment.loan.title')}
        lead={t('payment.loan.lead', { lender })}
        failure={method === 'card' ? card.failure : account.failure}
        onSend={send}
      >
        <MethodChoice
          name="loan-method"
          legend={t('payment.loan.legend')}
          value={method}
          onChange={setMethod}
          options={[
            ['card', t('payment.loan.card')],
            ['checking', t('payment.loan.checking')],
          ]}
        />
        {method === 'card' ? card.fields : account.fields}
      </PaymentForm>
      {modal ? (
        <CardRefusedModal
          lender={lender}
          onAnotherCard={() => {
            card.clearRefusal();
            document.getElementById('cardholderName')?.focus();
          }}
          onChecking={() => {
            card.clearRefusal();
            setMethod('checking');
          }}
        />
      ) : null}
    </div>
  );
}

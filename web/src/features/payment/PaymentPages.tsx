import { useState, type ReactNode } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, providerPath } from '@/lib/api/client';
import { providerRoute } from '@/lib/paths';
import { bankAccountErrors, cardErrors, cardLength, cvvLength, digitsOnly, expiryParts, maskCard, maskExpiry, type Errors } from '@/lib/payment';
import { useFlow, useProviderName } from '@/stores/flow';

/*
 * The payment method of an accepted offer (docs/behaviour.md, "What each
 * lender asks for"): the checking account (addBankAccount), then the choice
 * of checking or card (paymentSelection), then signing. What is typed here
 * lives in component state only — never the flow store, sessionStorage,
 * localStorage or IndexedDB — and the card number and CVV are cleared once
 * sent, whatever the answer.
 */

function Field(props: {
  id: string;
  label: string;
  value: string;
  error?: string;
  hint?: string;
  numeric?: boolean;
  autoComplete?: string;
  onChange: (v: string) => void;
}): ReactNode {
  const errId = `${props.id}-error`;
  const hintId = `${props.id}-hint`;
  const describedBy = [props.hint ? hintId : '', props.error ? errId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field${props.error ? ' field--error' : ''}`}>
      <label className="label" htmlFor={props.id}>
        {props.label}
      </label>
      {props.hint ? (
        <span id={hintId} className="hint">
          {props.hint}
        </span>
      ) : null}
      <input
        id={props.id}
        className="input"
        value={props.value}
        inputMode={props.numeric ? 'numeric' : undefined}
        autoComplete={props.autoComplete ?? 'off'}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => props.onChange(e.target.value)}
      />
      {props.error ? (
        <span id={errId} className="error-text">
          <span className="visually-hidden">Error: </span>
          {props.error}
        </span>
      ) : null}
    </div>
  );
}

/** serverErrors maps the server's prefixed field errors to this form's fields. */
function serverErrors(e: unknown, prefix: string): Errors | null {
  if (!(e instanceof ApiError) || e.fieldErrors.length === 0) return null;
  const out: Errors = {};
  for (const fe of e.fieldErrors) out[fe.field.replace(`${prefix}.`, '')] = fe.message;
  return out;
}

/**
 * sendStep sends a payment step to the lender while the waiting words show,
 * and answers whether it went through; a refusal lands on the form as field
 * errors (named without prefix) or as one message.
 */
async function sendStep(
  progress: string,
  path: string,
  body: unknown,
  prefix: string,
  show: { errors: (e: Errors) => void; failure: (m: string) => void },
): Promise<boolean> {
  show.failure('');
  try {
    await withProgress(progress, () => api.post(path, body, { lenderStep: true, noErrorHandling: true }));
    return true;
  } catch (err) {
    const fe = serverErrors(err, prefix);
    if (fe) show.errors(fe);
    else show.failure(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');
    return false;
  }
}

export function BankAccountPage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  const [routingNumber, setRouting] = useState('');
  const [accountNumber, setAccount] = useState('');
  const [bankName, setBankName] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');

  async function send() {
    const form = { routingNumber, accountNumber, bankName };
    const e = bankAccountErrors(form);
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    const sent = await sendStep(
      `Sending your bank account to ${lender}…`,
      providerPath(providerKey, 'application/bank-account'),
      { ...form, accountType: 'checking' },
      'bankAccount',
      { errors: setErrors, failure: setFailure },
    );
    if (!sent) return;
    navigate(providerRoute(providerKey, 'paymentSelection'));
  }

  return (
    <div className="card">
      <Page title="Add your checking account" lead={`${lender} draws your lease payments from a checking account. You need one before signing.`}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <Field
            id="routingNumber"
            label="Routing number"
            hint="9 digits, bottom left of your checks"
            numeric
            value={routingNumber}
            error={errors.routingNumber}
            onChange={(v) => setRouting(digitsOnly(v, 9))}
          />
          <Field
            id="accountNumber"
            label="Account number"
            hint="Up to 17 digits"
            numeric
            value={accountNumber}
            error={errors.accountNumber}
            onChange={(v) => setAccount(digitsOnly(v, 17))}
          />
          <Field id="bankName" label="Bank name" value={bankName} error={errors.bankName} onChange={(v) => setBankName(v.slice(0, 100))} />
          {failure ? (
            <p className="notice notice--warn" role="alert">
              {failure}
            </p>
          ) : null}
          <div className="actions">
            <Button type="submit">Continue</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

export function PaymentSelectionPage() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  const lender = useProviderName(providerKey);
  const [method, setMethod] = useState<'checking' | 'card'>('checking');
  const [cardholderName, setName] = useState('');
  const [cardNumber, setCardNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvv, setCvv] = useState('');
  const [zip, setZip] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');

  async function send() {
    if (method === 'checking') {
      navigate(providerRoute(providerKey, 'terms'));
      return;
    }
    const e = cardErrors({ cardholderName, cardNumber, expiry, cvv, zip });
    setErrors(e);
    if (Object.keys(e).length > 0) return;
    const exp = expiryParts(expiry)!;
    const body = { cardholderName, cardNumber, expiryMonth: exp.month, expiryYear: exp.year, cvv, zip };
    // Sent once, then gone from this screen whatever the answer.
    setCardNumber('');
    setCvv('');
    const sent = await sendStep(`Sending your card to ${lender}…`, providerPath(providerKey, 'application/bank-card'), body, 'bankCard', {
      errors: setErrors,
      failure: setFailure,
    });
    if (!sent) return;
    navigate(providerRoute(providerKey, 'terms'));
  }

  return (
    <div className="card">
      <Page title="How would you like to pay?" lead={`Choose how ${lender} collects your payments.`}>
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <fieldset className="field form-section">
            <legend className="label">Payment method</legend>
            <div className="radios">
              <label htmlFor="method-checking">
                <input id="method-checking" type="radio" name="method" checked={method === 'checking'} onChange={() => setMethod('checking')} /> The
                checking account you added
              </label>
              <label htmlFor="method-card">
                <input id="method-card" type="radio" name="method" checked={method === 'card'} onChange={() => setMethod('card')} /> A debit or credit
                card
              </label>
            </div>
          </fieldset>
          {method === 'card' ? (
            <>
              <Field
                id="cardholderName"
                label="Name on card"
                autoComplete="cc-name"
                value={cardholderName}
                error={errors.cardholderName}
                onChange={(v) => setName(v.slice(0, 100))}
              />
              <Field
                id="cardNumber"
                label="Card number"
                hint="16 digits, or 15 for American Express"
                numeric
                value={maskCard(cardNumber)}
                error={errors.cardNumber}
                onChange={(v) => {
                  const d = digitsOnly(v, 16);
                  setCardNumber(d.slice(0, cardLength(d)));
                }}
              />
              <Field id="expiry" label="Expiry (MM/YY)" numeric value={expiry} error={errors.expiry} onChange={(v) => setExpiry(maskExpiry(v))} />
              <Field
                id="cvv"
                label="Security code (CVV)"
                hint={cvvLength(cardNumber) === 4 ? '4 digits on the front of the card' : '3 digits on the back of the card'}
                numeric
                value={cvv}
                error={errors.cvv}
                onChange={(v) => setCvv(digitsOnly(v, cvvLength(cardNumber)))}
              />
              <Field id="zip" label="Billing ZIP code" numeric value={zip} error={errors.zip} onChange={(v) => setZip(digitsOnly(v, 5))} />
            </>
          ) : null}
          {failure ? (
            <p className="notice notice--warn" role="alert">
              {failure}
            </p>
          ) : null}
          <div className="actions">
            <Button type="submit">Continue to signing</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

import { useState } from 'react';
import { Page } from '@/components/Page';
import { Button } from '@/components/Button';
import { Modal } from '@/components/Modal';
import { useFlowNavigate } from '@/flow/navigation';
import { withProgress } from '@/flow/progress';
import { api, ApiError, providerPath } from '@/lib/api/client';
import type { ProviderApplicationState } from '@/lib/api/types';
import { afterStep } from '@/lib/lenderSteps';
import { providerRoute } from '@/lib/paths';
import { bankAccountErrors, cardErrors, cardLength, cvvLength, digitsOnly, expiryParts, maskCard, maskExpiry, type Errors } from '@/lib/payment';
import { useFlow, useProviderName } from '@/stores/flow';
import { Failure } from '@/components/Failure';
import { TextField } from '@/components/TextField';

/*
 * The payment method of an accepted offer (docs/behaviour.md, "What each
 * lender asks for"): Snap's checking account (addBankAccount), then the
 * choice of checking or card (paymentSelection); HFD's loanPayment, card or
 * checking. Each then goes to the lender's next open step, or to signing
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
    else show.failure(err instanceof ApiError ? err.message : 'Something went wrong. Please try again.');
    return null;
  }
}

/** useBankAccount is the checking-account form's state and its send, in this screen's state only. */
function useBankAccount(providerKey: string, lender: string) {
  const [routingNumber, setRouting] = useState('');
  const [accountNumber, setAccount] = useState('');
  const [bankName, setBankName] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [failure, setFailure] = useState('');
  const fields = (
    <>
      <TextField
        id="routingNumber"
        label="Routing number"
        hint="9 digits, bottom left of your checks"
        numeric
        value={routingNumber}
        error={errors.routingNumber}
        onChange={(v) => setRouting(digitsOnly(v, 9))}
      />
      <TextField
        id="accountNumber"
        label="Account number"
        hint="Up to 17 digits"
        numeric
        value={accountNumber}
        error={errors.accountNumber}
        onChange={(v) => setAccount(digitsOnly(v, 17))}
      />
      <TextField id="bankName" label="Bank name" value={bankName} error={errors.bankName} onChange={(v) => setBankName(v.slice(0, 100))} />
    </>
  );
  async function send(): Promise<ProviderApplicationState | null> {
    const form = { routingNumber, accountNumber, bankName };
    const e = bankAccountErrors(form);
    setErrors(e);
    if (Object.keys(e).length > 0) return null;
    return sendStep(
      `Sending your bank account to ${lender}…`,
      providerPath(providerKey, 'application/bank-account'),
      { ...form, accountType: 'checking' },
      'bankAccount',
      { errors: setErrors, failure: setFailure },
    );
  }
  return { fields, send, failure };
}

/** useLenderScreen is what each payment screen starts from: the navigation, the current lender and its name. */
function useLenderScreen() {
  const navigate = useFlowNavigate();
  const providerKey = useFlow((s) => s.providerKey) ?? '';
  return { navigate, providerKey, lender: useProviderName(providerKey) };
}

/**
 * useCard is the card form's state and its send. The number and CVV are
 * sent once and cleared whatever the answer; refused() tells whether the
 * last answer was the lender refusing a card that passed every check here.
 */
function useCard(providerKey: string, lender: string) {
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
        label="Name on card"
        autoComplete="cc-name"
        value={cardholderName}
        error={errors.cardholderName}
        onChange={(v) => setName(v.slice(0, 100))}
      />
      <TextField
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
      <TextField id="expiry" label="Expiry (MM/YY)" numeric value={expiry} error={errors.expiry} onChange={(v) => setExpiry(maskExpiry(v))} />
      <TextField
        id="cvv"
        label="Security code (CVV)"
        hint={cvvLength(cardNumber) === 4 ? '4 digits on the front of the card' : '3 digits on the back of the card'}
        numeric
        value={cvv}
        error={errors.cvv}
        onChange={(v) => setCvv(digitsOnly(v, cvvLength(cardNumber)))}
      />
      <TextField id="zip" label="Billing ZIP code" numeric value={zip} error={errors.zip} onChange={(v) => setZip(digitsOnly(v, 5))} />
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
    const pa = await sendStep(`Sending your card to ${lender}…`, providerPath(providerKey, 'application/bank-card'), body, 'bankCard', {
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
  const { navigate, providerKey, lender } = useLenderScreen();
  const account = useBankAccount(providerKey, lender);

  async function send() {
    if (!(await account.send())) return;
    // The second half of this step: checking or card for the payments.
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
          {account.fields}
          <Failure message={account.failure} />
          <div className="actions">
            <Button type="submit">Continue</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

export function PaymentSelectionPage() {
  const { navigate, providerKey, lender } = useLenderScreen();
  const [method, setMethod] = useState<'checking' | 'card'>('checking');
  const card = useCard(providerKey, lender);

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
                <input id="method-checking" type="radio" name="method" checked={method === 'checking'} onChange={() => setMethod('checking')} /> My
                checking account, the one I just added
              </label>
              <label htmlFor="method-card">
                <input id="method-card" type="radio" name="method" checked={method === 'card'} onChange={() => setMethod('card')} /> A debit or credit
                card
              </label>
            </div>
          </fieldset>
          {method === 'card' ? card.fields : null}
          <Failure message={card.failure} />
          <div className="actions">
            <Button type="submit">Continue</Button>
          </div>
        </form>
      </Page>
    </div>
  );
}

/**
 * CardRefusedModal: the lender refused the card (catalogue flag
 * showBankCardErrorModal). Nothing is wrong with the loan; the patient may
 * try another card or have the payments come from a checking account.
 */
function CardRefusedModal({ lender, onAnotherCard, onChecking }: { lender: string; onAnotherCard: () => void; onChecking: () => void }) {
  return (
    <Modal title="This card could not be used" onClose={onAnotherCard}>
      <p>
        {lender} could not set up your payments on this card. Your plan is not affected, and nothing has been charged. Cards are sometimes refused by
        the bank that issued them, for example a prepaid card or one with a daily limit.
      </p>
      <p>You can try another debit or credit card, or have your monthly payments come from a checking account instead.</p>
      <div className="actions">
        <Button onClick={onAnotherCard}>Try another card</Button>
        <Button variant="secondary" onClick={onChecking}>
          Use a checking account
        </Button>
      </div>
    </Modal>
  );
}

/** LoanPaymentPage: how the monthly payments of a loan are made, a card or a checking account, given to the lender. */
export function LoanPaymentPage() {
  const { navigate, providerKey, lender } = useLenderScreen();
  const cardModal = useFlow((s) => Boolean(s.providers[providerKey]?.showBankCardErrorModal));
  const [method, setMethod] = useState<'card' | 'checking'>('card');
  const card = useCard(providerKey, lender);
  const account = useBankAccount(providerKey, lender);
  const modal = cardModal && card.refused && method === 'card';

  async function send() {
    const pa = method === 'card' ? await card.send() : await account.send();
    if (pa) navigate(await afterStep(providerKey, pa));
  }

  return (
    <div className="card">
      <Page
        title="How will you make your monthly payments?"
        lead={`${lender} collects your monthly payments automatically from a debit or credit card or from a checking account. Nothing is charged today.`}
      >
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            void send();
          }}
        >
          <fieldset className="field form-section">
            <legend className="label">Pay my monthly payments with</legend>
            <div className="radios">
              <label htmlFor="loan-method-card">
                <input id="loan-method-card" type="radio" name="loan-method" checked={method === 'card'} onChange={() => setMethod('card')} /> A debit
                or credit card
              </label>
              <label htmlFor="loan-method-checking">
                <input
                  id="loan-method-checking"
                  type="radio"
                  name="loan-method"
                  checked={method === 'checking'}
                  onChange={() => setMethod('checking')}
                />{' '}
                A checking account
              </label>
            </div>
          </fieldset>
          {method === 'card' ? card.fields : account.fields}
          <Failure message={method === 'card' ? card.failure : account.failure} />
          <div className="actions">
            <Button type="submit">Continue</Button>
          </div>
        </form>
      </Page>
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

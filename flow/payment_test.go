package flow_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/validate"
)

const snapKey = "snap_standard"

func goodAccount() *flow.BankAccountRequest {
	return &flow.BankAccountRequest{RoutingNumber: "011000015", AccountNumber: "000123456789", BankName: "First Test Bank", AccountType: "checking"}
}

func goodCard() *flow.BankCardRequest {
	y := time.Now().Year() + 2
	return &flow.BankCardRequest{CardholderName: "Pat Approve", CardNumber: "4111111111111111", ExpiryMonth: 12, ExpiryYear: y, CVV: "123", ZIP: "30301"}
}

// fieldsOf answers the fields an error names.
func fieldsOf(err error) string {
	var out []string
	for _, fe := range chairside.FieldErrorsOf(err) {
		out = append(out, fe.Field)
	}
	return strings.Join(out, ",")
}

// TestPaymentValidation: the bank account and the card are checked (ABA
// checksum, Luhn, Amex lengths, expiry) before anything is claimed; a
// refused one reaches no lender and its errors never repeat the numbers.
// HFD takes both (its monthly payments come from either).
func TestPaymentValidation(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := &hfdFixture{fixture: newFixture(t, e, flow.Options{})}
		seedHFDOffice(t, e, hfdEntityKey, chairside.RolePrimary, "TX")
		ctx := context.Background()
		c, _ := f.hfdAccepted(t, hfdEntityKey, chairside.ExperienceInStore, "123450041")
		for name, tc := range map[string]struct {
			change func(*flow.BankAccountRequest)
			want   string
		}{
			"bad routing checksum": {func(r *flow.BankAccountRequest) { r.RoutingNumber = "011000016" }, "bankAccount.routingNumber"},
			"short routing":        {func(r *flow.BankAccountRequest) { r.RoutingNumber = "01100001" }, "bankAccount.routingNumber"},
			"short account":        {func(r *flow.BankAccountRequest) { r.AccountNumber = "123" }, "bankAccount.accountNumber"},
			"long account":         {func(r *flow.BankAccountRequest) { r.AccountNumber = "123456789012345678" }, "bankAccount.accountNumber"},
			"letters in account":   {func(r *flow.BankAccountRequest) { r.AccountNumber = "12345a" }, "bankAccount.accountNumber"},
			"no bank name":         {func(r *flow.BankAccountRequest) { r.BankName = "  " }, "bankAccount.bankName"},
			"savings":              {func(r *flow.BankAccountRequest) { r.AccountType = "savings" }, "bankAccount.accountType"},
		} {
			r := goodAccount()
			tc.change(r)
			_, err := f.svc.AddBankAccount(ctx, c, hfdKey, r)
			if chairside.ErrorCode(err) != chairside.EINVALID || fieldsOf(err) != tc.want {
				t.Errorf("%s: %v %q, want %s", name, err, fieldsOf(err), tc.want)
			}
		}
		now := time.Now()
		for name, tc := range map[string]struct {
			change func(*flow.BankCardRequest)
			want   string
		}{
			"Luhn fails":            {func(r *flow.BankCardRequest) { r.CardNumber = "4111111111111112" }, "bankCard.cardNumber"},
			"15 digits, not Amex":   {func(r *flow.BankCardRequest) { r.CardNumber = "411111111111111" }, "bankCard.cardNumber"},
			"Amex with 16 digits":   {func(r *flow.BankCardRequest) { r.CardNumber = "3782822463100050"; r.CVV = "1234" }, "bankCard.cardNumber"},
			"Amex with 3-digit CVV": {func(r *flow.BankCardRequest) { r.CardNumber = "378282246310005" }, "bankCard.cvv"},
			"Visa with 4-digit CVV": {func(r *flow.BankCardRequest) { r.CVV = "1234" }, "bankCard.cvv"},
			"expired last month": {func(r *flow.BankCardRequest) {
				last := now.AddDate(0, -1, 0)
				r.ExpiryMonth, r.ExpiryYear = int(last.Month()), last.Year()
			}, "bankCard.expiry"},
			"month 13":  {func(r *flow.BankCardRequest) { r.ExpiryMonth = 13 }, "bankCard.expiry"},
			"no name":   {func(r *flow.BankCardRequest) { r.CardholderName = "" }, "bankCard.cardholderName"},
			"short ZIP": {func(r *flow.BankCardRequest) { r.ZIP = "3030" }, "bankCard.zip"},
		} {
			r := goodCard()
			tc.change(r)
			_, err := f.svc.AddCard(ctx, c, hfdKey, r)
			if chairside.ErrorCode(err) != chairside.EINVALID || fieldsOf(err) != tc.want {
				t.Errorf("%s: %v %q, want %s", name, err, fieldsOf(err), tc.want)
			}
			if msg := chairside.ErrorMessage(err); strings.Contains(msg, r.CardNumber) || strings.Contains(msg, r.CVV) {
				t.Errorf("%s: the message repeats the card: %s", name, msg)
			}
		}
		// Amex, 15 digits and a 4-digit CVV, this month: accepted.
		amex := goodCard()
		amex.CardNumber, amex.CVV = "378282246310005", "1234"
		amex.ExpiryMonth, amex.ExpiryYear = int(now.Month()), now.Year()
		if fe := validate.BankCard(amex, now); len(fe) != 0 {
			t.Errorf("Amex this month: %v", fe)
		}
		for _, op := range []string{sandbox.OpBankAccount, sandbox.OpBankCard} {
			if n, _ := f.log.count(op); n != 0 {
				t.Errorf("%s: a refused payment method reached the lender %d times", op, n)
			}
		}
	})
}

// TestSnapBankAccountBeforeSigning: Snap's e-sign is refused while its
// bank account is missing and reaches no lender; the bank-account step is
// asked once, whatever the repeats, and a card, which a lease does not
// take, is refused without reaching the lender; then signing goes through
// and the audit holds the signed application to its bank account.
func TestSnapBankAccountBeforeSigning(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		if _, err := f.submit(t, c, snapKey, "Approve", "123450042"); err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, snapKey)
		// Before the offer is accepted there is nothing to pay for.
		if _, err := f.svc.AddBankAccount(ctx, c, snapKey, goodAccount()); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("bank account before accepting: %v, want conflict", err)
		}
		if _, err := f.svc.AcceptOffer(ctx, c, snapKey, nil); err != nil {
			t.Fatal(err)
		}
		_, err := f.svc.ESign(ctx, c, snapKey, f.esignRequest(t, c, snapKey, true))
		if chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "checking account") {
			t.Fatalf("e-sign without the bank account: %v, want conflict", err)
		}
		if n, _ := f.log.count(sandbox.OpESign); n != 0 {
			t.Fatalf("a refused e-sign reached the lender %d times", n)
		}
		if kinds := f.consentKinds(t, c); len(kinds[chairside.ConsentESign]) != 0 {
			t.Fatalf("a refused e-sign left consents: %v", kinds)
		}

		c.IdempotencyKey = "add-account"
		pa, err := value(f.svc.AddBankAccount(ctx, c, snapKey, goodAccount()))
		if err != nil || pa.Status != chairside.StatusOfferAccepted {
			t.Fatalf("bank account: %+v %v", pa, err)
		}
		// The same account again, from another tap: the first answer.
		c.IdempotencyKey = "add-account-again"
		if again, err := value(f.svc.AddBankAccount(ctx, c, snapKey, goodAccount())); err != nil || again.Status != pa.Status {
			t.Fatalf("repeat: %+v %v", again, err)
		}
		other := goodAccount()
		other.AccountNumber = "99887766"
		if _, err := f.svc.AddBankAccount(ctx, c, snapKey, other); chairside.ErrorCode(err) != chairside.EIDEMPOTENCY {
			t.Fatalf("another account: %v, want idempotency_mismatch", err)
		}
		c.IdempotencyKey = "add-card"
		if _, err := f.svc.AddCard(ctx, c, snapKey, goodCard()); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("a card for Snap's lease: %v, want not found", err)
		}
		for op, want := range map[string]int{sandbox.OpBankAccount: 1, sandbox.OpBankCard: 0} {
			if n, _ := f.log.count(op); n != want {
				t.Errorf("%s reached the lender %d times, want %d", op, n, want)
			}
		}
		// Snap's lease agreement is read and agreed on its own screen; the
		// signing screen then does not ask for it again.
		req := f.esignRequest(t, c, snapKey, true)
		c.IdempotencyKey = "sign-early"
		if _, err := f.svc.ESign(ctx, c, snapKey, req); chairside.ErrorCode(err) != chairside.ECONFLICT || !strings.Contains(chairside.ErrorMessage(err), "agreement") {
			t.Fatalf("esign before the agreement: %v", err)
		}
		c.IdempotencyKey = "agree"
		if _, err := f.svc.AgreeAgreement(ctx, c, snapKey, &flow.ConsentStepRequest{Consent: req.AgreementConsent}); err != nil {
			t.Fatal(err)
		}
		c.IdempotencyKey = "sign"
		if _, err := f.svc.ESign(ctx, c, snapKey, req); chairside.ErrorCode(err) != chairside.EBADREQUEST {
			t.Fatalf("esign naming the agreement again: %v", err)
		}
		req.AgreementConsent = nil
		if pa, err := value(f.svc.ESign(ctx, c, snapKey, req)); err != nil || pa.Status != chairside.StatusSigned {
			t.Fatalf("esign: %+v %v", pa, err)
		}
		// After signing the payment method is settled.
		c.IdempotencyKey = "late"
		late := goodAccount()
		late.BankName = "Second Test Bank"
		if _, err := f.svc.AddBankAccount(ctx, c, snapKey, late); err == nil {
			t.Fatal("another account after signing was accepted")
		}
		if _, err := f.svc.Complete(ctx, c, snapKey); err != nil {
			t.Fatal(err)
		}
	})
}

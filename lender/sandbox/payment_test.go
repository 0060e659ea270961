package sandbox

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// TestPaymentMethod: the sandbox checks a bank account and a card against
// an offer it can act on (HFD's, which takes both) and answers; a bad one is refused with words that
// name no number, and its journal never holds the card.
func TestPaymentMethod(t *testing.T) {
	ctx := context.Background()
	journal := filepath.Join(t.TempDir(), "journal.jsonl")
	l := mustLender(t, New(Options{Journal: journal}), catalogue.HFD)
	d, err := l.Decide(ctx, request(catalogue.HFD, "prequalify", "pay-1", "Approve"))
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("decide: %+v %v", d, err)
	}
	bank, cards := mustStep[chairside.BankAccounts](t, l), mustStep[chairside.Cards](t, l)
	acct := &chairside.BankAccountRequest{LenderKey: catalogue.HFD, LenderRef: d.LenderRef, RoutingNumber: "011000015",
		AccountNumber: "000123456789", BankName: "First Test Bank", AccountType: "checking", Reference: "ref-acct", Now: now}
	if err := bank.AddBankAccount(ctx, acct); err != nil {
		t.Fatalf("bank account: %v", err)
	}
	bad := *acct
	bad.RoutingNumber = "011000016"
	if err := bank.AddBankAccount(ctx, &bad); chairside.ErrorCode(err) != chairside.ELENDER {
		t.Fatalf("bad routing number: %v", err)
	}
	card := &chairside.BankCardRequest{LenderKey: catalogue.HFD, LenderRef: d.LenderRef, CardholderName: "Maria Approve",
		Number: "4111111111111111", ExpiryMonth: 12, ExpiryYear: now.Year() + 2, CVV: "739", ZIP: "89101", Reference: "ref-card", Now: now}
	if err := cards.AddCard(ctx, card); err != nil {
		t.Fatalf("card: %v", err)
	}
	badCard := *card
	badCard.Number = "4111111111111112"
	err = cards.AddCard(ctx, &badCard)
	if chairside.ErrorCode(err) != chairside.ELENDER || bytes.Contains([]byte(err.Error()), []byte("411111")) {
		t.Fatalf("bad card: %v", err)
	}
	unknown := *card
	unknown.LenderRef = "nope"
	if err := cards.AddCard(ctx, &unknown); err == nil {
		t.Fatal("a card for an unknown application was taken")
	}
	buf, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf, []byte("4111111111111111")) || bytes.Contains(buf, []byte("000123456789")) || !bytes.Contains(buf, []byte(OpBankCard)) {
		t.Fatalf("journal: %s", buf)
	}
}

package sandbox

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// TestLenderSteps: the down payment must be the decision's, the contact
// and the Wisconsin answer are checked, a consent must name one of the
// lender's documents in its current version, and RefusedCard passes every
// check but is refused as a card issuer would refuse it (a field error,
// not an outage). The rules are each step's whatever the product, so one
// HFD application with every step (AllSteps) tries them all.
func TestLenderSteps(t *testing.T) {
	ctx := context.Background()
	l := mustAllSteps(t, New(Options{}), catalogue.HFD)
	d, err := l.Decide(ctx, request(catalogue.HFD, "prequalify", "steps-1", "Approve"))
	if err != nil || !chairside.Positive(d.ResponseCode) || !d.DownPaymentRequired || d.DownPaymentCents < 10_000 {
		t.Fatalf("decide: %+v %v", d, err)
	}
	id := d.LenderRef
	down := &chairside.DownPaymentRequest{LenderKey: catalogue.HFD, LenderRef: id, AmountCents: d.DownPaymentCents,
		Method: chairside.DownPaymentCollected, Reference: "ref-down", Now: now}
	if err := l.DownPayment(ctx, down); err != nil {
		t.Fatalf("down payment: %v", err)
	}
	more := *down
	more.AmountCents++
	if err := l.DownPayment(ctx, &more); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("a down payment above the decision's: %v", err)
	}
	contact := &chairside.ContactRequest{LenderKey: catalogue.HFD, LenderRef: id, Name: "Rosa Diaz", Relationship: "sibling",
		Phone: "3125550187", Reference: "ref-contact", Now: now}
	if err := l.AddContact(ctx, contact); err != nil {
		t.Fatalf("contact: %v", err)
	}
	contact.Phone = "123"
	if err := l.AddContact(ctx, contact); chairside.ErrorCode(err) != chairside.ELENDER {
		t.Fatalf("a bad contact: %v", err)
	}
	card := &chairside.BankCardRequest{LenderKey: catalogue.HFD, LenderRef: id, CardholderName: "Maria Approve",
		Number: RefusedCard, ExpiryMonth: 12, ExpiryYear: now.Year() + 2, CVV: "739", ZIP: "77002", Reference: "ref-card", Now: now}
	err = l.AddCard(ctx, card)
	if chairside.ErrorCode(err) != chairside.EINVALID || len(chairside.FieldErrorsOf(err)) != 1 || chairside.FieldErrorsOf(err)[0].Field != "bankCard.cardNumber" {
		t.Fatalf("refused card: %v", err)
	}

	doc, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.HFD, Kind: "agreement"})
	if err != nil {
		t.Fatal(err)
	}
	notice := &chairside.ConsentNotice{LenderKey: catalogue.HFD, LenderRef: id, Kind: chairside.ConsentTerms,
		DocumentID: doc.ID, DocumentVersion: doc.Version, Reference: "ref-consent", Now: now}
	if err := l.RecordConsent(ctx, notice); err != nil {
		t.Fatalf("consent: %v", err)
	}
	notice.DocumentVersion = "old"
	if err := l.RecordConsent(ctx, notice); chairside.ErrorCode(err) != chairside.ELENDER {
		t.Fatalf("a consent to an old document: %v", err)
	}
	for _, kind := range []string{"california_notice", "cardholder_agreement"} {
		if doc, err := l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.HFD, Kind: kind}); err != nil || doc.Content == "" {
			t.Errorf("document %s: %v", kind, err)
		}
	}
	spouse := &chairside.SpouseRequest{LenderKey: catalogue.HFD, LenderRef: id, Married: true, FirstName: "Sam", LastName: "Approve",
		AddressLine1: "22 State St", City: "Madison", State: "WI", ZipCode: "53703", Reference: "ref-spouse", Now: now}
	if err := l.AddSpouse(ctx, spouse); err != nil {
		t.Fatalf("spouse: %v", err)
	}
	if err := l.AddSpouse(ctx, &chairside.SpouseRequest{LenderKey: catalogue.HFD, LenderRef: id, Married: true, Reference: "r2", Now: now}); err == nil {
		t.Fatal("a married answer without a spouse was taken")
	}
}

// TestSnapPreapprovalLastsSixtyDays: Snap's offer and its plans expire
// after the catalogue's 60 days (preauthExpireDays), which is what the
// plans screen's "Offer Exp" shows; other lenders after 30.
func TestSnapPreapprovalLastsSixtyDays(t *testing.T) {
	ctx := context.Background()
	for key, days := range map[string]int{catalogue.Snap: 60, catalogue.Synchrony: 30} {
		l := mustLender(t, New(Options{}), key)
		req := request(key, "prequalify", "exp-"+key, "Approve")
		d, err := l.Decide(ctx, req)
		if err != nil || d.ExpiresAt == nil {
			t.Fatalf("%s: %+v %v", key, d, err)
		}
		// The offer lasts to the end of its last day; the plans' date is that day.
		day := func(t time.Time) string { return t.UTC().Format(time.DateOnly) }
		if want := req.Now.AddDate(0, 0, days); day(*d.ExpiresAt) != day(want) {
			t.Errorf("%s: offer expires %v, want %v", key, d.ExpiresAt, want)
		}
		plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: key, LenderRef: d.LenderRef, AmountCents: 200_000,
			ApprovedAmountCents: d.ApprovedAmountCents, Now: req.Now})
		if err != nil || len(plans) == 0 {
			t.Fatalf("%s plans: %v", key, err)
		}
		if want := req.Now.AddDate(0, 0, days); day(plans[0].ExpireDateTime) != day(want) {
			t.Errorf("%s: plan expires %v, want %v", key, plans[0].ExpireDateTime, want)
		}
	}
}

// TestAgreementFitsTheProduct: each lender's agreement is the one of its
// product, in both languages: a lease (Snap) speaks of no interest or
// promotional balance; an installment loan of fixed payments at a fixed
// rate, without the card's deferred-interest clause; a card keeps that
// clause for its promotions.
func TestAgreementFitsTheProduct(t *testing.T) {
	ctx := context.Background()
	agreement := func(lang, key string) *chairside.Document {
		t.Helper()
		d, err := mustLender(t, New(Options{}), key).Document(ctx, &chairside.DocumentRequest{LenderKey: key, Kind: "agreement", Language: lang})
		if err != nil {
			t.Fatalf("%s agreement: %v", key, err)
		}
		return d
	}
	if snap := agreement("", catalogue.Snap); snap.Title != "Lease agreement" || strings.Contains(snap.Content, "interest is charged") || !strings.Contains(snap.Content, "101 days") {
		t.Fatalf("snap agreement: %+v", snap)
	}
	for _, key := range []string{catalogue.AFF, catalogue.HFD, catalogue.LendingClub, catalogue.Proceed, catalogue.CoveredCare} {
		loan, loanES := agreement("", key), agreement("es", key)
		if loan.Title != "Loan agreement" || !strings.Contains(loan.Content, "equal monthly payments") || !strings.Contains(loan.Content, "fixed annual percentage rate") ||
			strings.Contains(loan.Content, "eferred") || strings.Contains(loan.Content, "promotional") {
			t.Errorf("%s agreement is not a loan's: %+v", key, loan)
		}
		if loanES.Title != "Contrato de préstamo" || strings.Contains(loanES.Content, "diferidos") || strings.Contains(loanES.Content, "promocional") {
			t.Errorf("%s agreement in Spanish is not a loan's: %+v", key, loanES)
		}
	}
	for _, key := range []string{catalogue.Synchrony, catalogue.ADS, catalogue.Fortiva, catalogue.Genesis, catalogue.Vive} {
		if card := agreement("", key); card.Title != "Credit agreement" || !strings.Contains(card.Content, "Deferred-interest plans") {
			t.Errorf("%s agreement has no promotion clause: %+v", key, card)
		}
	}
	for _, own := range []string{"lease_agreement", "loan_agreement", "lease_disclosures", "lease_prequalification"} {
		if _, err := mustLender(t, New(Options{}), catalogue.Snap).Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: own}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("the %s template by its own name: %v", own, err)
		}
	}
}

// TestLeaseAsksForNoCreditReport: a lease-to-own lender (no credit needed)
// shows, where a credit lender shows its disclosures and prequalification
// terms, texts that say it gets no credit report, in both languages; a
// credit lender's say it does.
func TestLeaseAsksForNoCreditReport(t *testing.T) {
	ctx := context.Background()
	for _, kind := range []string{"disclosures", "prequalification"} {
		for _, c := range []struct {
			lang               string
			credit, noCreditTo string
		}{{"", "credit report", "does not get your credit report"}, {"es", "informe de crédito", "no obtiene su informe de crédito"}} {
			snap, err := mustLender(t, New(Options{}), catalogue.Snap).Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: kind, Language: c.lang})
			if err != nil || !strings.Contains(strings.ToLower(snap.Content), c.noCreditTo) || strings.Contains(snap.Content, "soft credit") ||
				strings.Contains(snap.Content, "will request") || strings.Contains(snap.Content, "consulta de crédito suave") {
				t.Errorf("snap %s: %+v %v", kind, snap, err)
			}
			card, _ := mustLender(t, New(Options{}), catalogue.Synchrony).Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Synchrony, Kind: kind, Language: c.lang})
			if !strings.Contains(card.Content, c.credit) || strings.Contains(card.Content, c.noCreditTo) {
				t.Errorf("synchrony %s: %+v", kind, card)
			}
		}
	}
}

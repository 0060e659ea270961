package sandbox

import (
	"context"
	"strings"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/validate"
)

// RefusedCard is a card number that passes every check but that the
// sandbox lenders refuse, as a bank declines a card: it lets the browser's
// card-refused message be tried (README.md, named test cases).
const RefusedCard = "4000000000000002"

// DownPayment records the down payment of an offer the lender can act on:
// the amount must be the one its decision requires.
func (l downPayments) DownPayment(ctx context.Context, req *chairside.DownPaymentRequest) error {
	if err := l.begin(ctx, OpDownPayment, req.Reference); err != nil {
		return err
	}
	_, d, err := l.offerable(req.LenderRef)
	if err != nil {
		return err
	}
	if !d.DownPaymentRequired || req.AmountCents <= 0 || req.AmountCents > d.DownPaymentCents {
		return chairside.Errorf(chairside.ECONFLICT, "This down payment does not match the offer.")
	}
	if req.Method != chairside.DownPaymentCollected && req.Method != chairside.DownPaymentAtOffice {
		return chairside.Errorf(chairside.ELENDER, "The lender could not record this down payment.")
	}
	return nil
}

// AddContact checks the additional contact of an offer the lender can act
// on and answers; the sandbox keeps nothing of it.
func (l contacts) AddContact(ctx context.Context, req *chairside.ContactRequest) error {
	if err := l.begin(ctx, OpContact, req.Reference); err != nil {
		return err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return err
	}
	if len(validate.Contact(&validate.ContactInput{Name: req.Name, Relationship: req.Relationship, Phone: req.Phone})) > 0 {
		return chairside.Errorf(chairside.ELENDER, "The lender could not use this contact.")
	}
	return nil
}

// RecordConsent takes note of the patient's agreement to one of the
// lender's documents for an offer it can act on; it must name a document
// the sandbox serves, in its current version.
func (l consents) RecordConsent(ctx context.Context, req *chairside.ConsentNotice) error {
	if err := l.begin(ctx, OpConsent, req.Reference); err != nil {
		return err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return err
	}
	if req.DocumentVersion != documentVersion || !strings.HasPrefix(req.DocumentID, l.p.Key+"/") {
		return chairside.Errorf(chairside.ELENDER, "The lender does not know this document.")
	}
	return nil
}

// AddSpouse takes the Wisconsin spouse answer of an offer the lender can
// act on; the sandbox keeps nothing of it. A married applicant must name
// the spouse and an address.
func (l spouses) AddSpouse(ctx context.Context, req *chairside.SpouseRequest) error {
	if err := l.begin(ctx, OpSpouse, req.Reference); err != nil {
		return err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return err
	}
	if req.Married && (req.FirstName == "" || req.LastName == "" || req.AddressLine1 == "" || req.City == "" || req.ZipCode == "") {
		return chairside.Errorf(chairside.ELENDER, "The lender needs the spouse's name and address.")
	}
	return nil
}

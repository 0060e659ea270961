package httplender

import (
	"context"
	"encoding/json"
	"errors"
	"net/url"
	"strconv"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/protocol"
)

// into returns a decoder of an answer into v, checked by check.
func into[T any](v *T, check func(*T) error) func([]byte) error {
	return func(raw []byte) error {
		var fresh T
		if err := json.Unmarshal(raw, &fresh); err != nil {
			return err
		}
		if err := check(&fresh); err != nil {
			return err
		}
		*v = fresh
		return nil
	}
}

// decisionOf decodes a decision; when reference is not empty the decision
// must echo it, so a lookup can never answer someone else's application.
func decisionOf(d *protocol.Decision, reference string) func([]byte) error {
	return into(d, func(d *protocol.Decision) error {
		if err := d.Validate(); err != nil {
			return err
		}
		if reference != "" && d.PlatformReference != reference {
			return errors.New("decision: for another platform reference")
		}
		return nil
	})
}

// receiptOf decodes the receipt of step for application id.
func receiptOf(id, step string) func([]byte) error {
	var r protocol.Receipt
	return into(&r, func(r *protocol.Receipt) error { return r.Validate(id, step) })
}

// Decide creates an application. With a Reference it is sent under that
// idempotency key and recovered by lookup when its answer is lost.
func (l *Lender) Decide(ctx context.Context, req *chairside.DecisionRequest) (*chairside.Decision, error) {
	var d protocol.Decision
	r := post(lender.OpDecide, protocol.PathApplications, req.Reference, protocol.NewCreateApplication(req), decisionOf(&d, req.Reference))
	r.lookup = req.Reference != ""
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	return d.Chairside(l.cfg.LenderKey, req.Operation), nil
}

// Plans lists the plans of an approved application.
func (l *Lender) Plans(ctx context.Context, req *chairside.PlansRequest) ([]chairside.PaymentPlan, error) {
	q := url.Values{}
	if req.AmountCents > 0 {
		q.Set("amountCents", strconv.FormatInt(req.AmountCents, 10))
	}
	if req.ApprovedAmountCents > 0 {
		q.Set("approvedAmountCents", strconv.FormatInt(req.ApprovedAmountCents, 10))
	}
	var p protocol.Plans
	r := get(lender.OpPlans, protocol.ApplicationPath(req.LenderRef, protocol.SubPlans), q,
		into(&p, (*protocol.Plans).Validate))
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	return p.Chairside(l.cfg.LenderKey), nil
}

// offer sends one of the offer steps that answer a receipt.
func (l *Lender) offer(ctx context.Context, op, sub string, req *chairside.OfferRequest) error {
	body := protocol.Offer{PlatformReference: req.Reference, PlanCode: req.LenderPlanCode,
		AmountCents: req.AmountCents, Currency: protocol.Currency}
	id := req.LenderRef
	return l.call(ctx, req.Language, post(op, protocol.ApplicationPath(id, sub), req.Reference, body, receiptOf(id, sub)))
}

// AcceptOffer accepts the selected plan.
func (l *Lender) AcceptOffer(ctx context.Context, req *chairside.OfferRequest) error {
	return l.offer(ctx, lender.OpAcceptOffer, protocol.SubAccept, req)
}

// ESign records the signed agreement.
func (l *Lender) ESign(ctx context.Context, req *chairside.OfferRequest) error {
	return l.offer(ctx, lender.OpESign, protocol.SubESign, req)
}

// Complete finishes the account opening and answers the final decision.
func (l *Lender) Complete(ctx context.Context, req *chairside.OfferRequest) (*chairside.Decision, error) {
	body := protocol.Offer{PlatformReference: req.Reference, PlanCode: req.LenderPlanCode,
		AmountCents: req.AmountCents, Currency: protocol.Currency}
	var d protocol.Decision
	r := post(lender.OpComplete, protocol.ApplicationPath(req.LenderRef, protocol.SubComplete), req.Reference, body, decisionOf(&d, ""))
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	return d.Chairside(l.cfg.LenderKey, ""), nil
}

// record sends a step that answers a receipt, in the patient's language lang.
func (l *Lender) record(ctx context.Context, lang, op, sub, id, reference string, body any) error {
	return l.call(ctx, lang, post(op, protocol.ApplicationPath(id, sub), reference, body, receiptOf(id, sub)))
}

// AddBankAccount gives the lender the checking account of the payments.
func (l *Lender) AddBankAccount(ctx context.Context, req *chairside.BankAccountRequest) error {
	return l.record(ctx, req.Language, lender.OpBankAccount, protocol.SubBankAccount, req.LenderRef, req.Reference, protocol.BankAccount{
		PlatformReference: req.Reference, RoutingNumber: req.RoutingNumber, AccountNumber: req.AccountNumber,
		BankName: req.BankName, AccountType: req.AccountType,
	})
}

// AddCard gives the lender the card of the payments.
func (l *Lender) AddCard(ctx context.Context, req *chairside.BankCardRequest) error {
	return l.record(ctx, req.Language, lender.OpBankCard, protocol.SubBankCard, req.LenderRef, req.Reference, protocol.BankCard{
		PlatformReference: req.Reference, CardholderName: req.CardholderName, Number: req.Number,
		ExpiryMonth: req.ExpiryMonth, ExpiryYear: req.ExpiryYear, CVV: req.CVV, ZIP: req.ZIP,
	})
}

// DownPayment records the down payment of an accepted offer.
func (l *Lender) DownPayment(ctx context.Context, req *chairside.DownPaymentRequest) error {
	return l.record(ctx, req.Language, lender.OpDownPayment, protocol.SubDownPayment, req.LenderRef, req.Reference, protocol.DownPayment{
		PlatformReference: req.Reference, AmountCents: req.AmountCents, Currency: protocol.Currency, Method: req.Method,
	})
}

// AddContact gives the lender one more person to reach the patient by.
func (l *Lender) AddContact(ctx context.Context, req *chairside.ContactRequest) error {
	return l.record(ctx, req.Language, lender.OpContact, protocol.SubContacts, req.LenderRef, req.Reference, protocol.Contact{
		PlatformReference: req.Reference, Name: req.Name, Relationship: req.Relationship, Phone: req.Phone,
	})
}

// RecordConsent tells the lender the patient agreed to one of its
// documents.
func (l *Lender) RecordConsent(ctx context.Context, req *chairside.ConsentNotice) error {
	return l.record(ctx, req.Language, lender.OpConsent, protocol.SubConsents, req.LenderRef, req.Reference, protocol.Consent{
		PlatformReference: req.Reference, Kind: req.Kind, DocumentID: req.DocumentID, DocumentVersion: req.DocumentVersion,
	})
}

// AddSpouse answers Wisconsin's marital property question.
func (l *Lender) AddSpouse(ctx context.Context, req *chairside.SpouseRequest) error {
	return l.record(ctx, req.Language, lender.OpSpouse, protocol.SubSpouse, req.LenderRef, req.Reference, protocol.Spouse{
		PlatformReference: req.Reference, Married: req.Married, FirstName: req.FirstName, LastName: req.LastName,
		AddressLine1: req.AddressLine1, AddressLine2: req.AddressLine2, City: req.City, State: req.State, ZipCode: req.ZipCode,
	})
}

// Status reads where the application stands.
func (l *Lender) Status(ctx context.Context, req *chairside.StatusRequest) (*chairside.Decision, error) {
	var d protocol.Decision
	if err := l.call(ctx, req.Language, get(lender.OpStatus, protocol.ApplicationPath(req.LenderRef, ""), nil, decisionOf(&d, ""))); err != nil {
		return nil, err
	}
	return d.Chairside(l.cfg.LenderKey, ""), nil
}

// Quiz fetches the identity questions of an attempt.
func (l *Lender) Quiz(ctx context.Context, req *chairside.QuizRequest) (*chairside.Quiz, error) {
	var q protocol.Quiz
	r := get(lender.OpQuiz, protocol.ApplicationPath(req.LenderRef, protocol.SubQuiz),
		url.Values{"attempt": {strconv.Itoa(req.Attempt)}}, into(&q, (*protocol.Quiz).Validate))
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	return q.Chairside(), nil
}

// Answers sends the answers to a quiz and returns its grade.
func (l *Lender) Answers(ctx context.Context, req *chairside.AnswersRequest) (*chairside.QuizResult, error) {
	var res protocol.QuizResult
	body := protocol.QuizAnswers{PlatformReference: req.Reference, QuizID: req.QuizID, Answers: req.Answers}
	r := post(lender.OpAnswers, protocol.ApplicationPath(req.LenderRef, protocol.SubQuizAnswers), req.Reference, body,
		into(&res, (*protocol.QuizResult).Validate))
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	return &chairside.QuizResult{Result: res.Result}, nil
}

// Patch gives a pending application what its lender asked for. The answer
// may be a new application, so it is recovered like a create.
func (l *Lender) Patch(ctx context.Context, req *chairside.PatchRequest) (*chairside.Decision, error) {
	var d protocol.Decision
	body := protocol.Patch{PlatformReference: req.Reference, Type: req.PatchType,
		AnnualGrossIncomeCents: req.AnnualGrossIncomeCents, Currency: protocol.Currency}
	r := post(lender.OpPatch, protocol.ApplicationPath(req.LenderRef, protocol.SubPatches), req.Reference, body, decisionOf(&d, req.Reference))
	r.lookup = req.Reference != ""
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	return d.Chairside(l.cfg.LenderKey, ""), nil
}

// Stipulations reads the current status of some stipulations.
func (l *Lender) Stipulations(ctx context.Context, req *chairside.StipulationsRequest) ([]chairside.Stipulation, error) {
	q := url.Values{}
	for _, k := range req.Known {
		q.Add("id", k.ID)
	}
	var s protocol.Stipulations
	r := get(lender.OpStipulations, protocol.ApplicationPath(req.LenderRef, protocol.SubStipulations), q,
		into(&s, func(s *protocol.Stipulations) error {
			for _, st := range s.Stipulations {
				if st.ID == "" {
					return errors.New("stipulations: one without an id")
				}
			}
			return nil
		}))
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	out := make([]chairside.Stipulation, 0, len(s.Stipulations))
	for _, st := range s.Stipulations {
		out = append(out, chairside.Stipulation{ID: st.ID, Type: st.Type, Description: st.Description, Status: st.Status})
	}
	return out, nil
}

// ChangeCreditLimit asks for a new limit on an open account. Its answer
// echoes the change's platform reference; an approval may name a new
// application id, which replaces the old one from then on.
func (l *Lender) ChangeCreditLimit(ctx context.Context, req *chairside.CreditLimitRequest) (*chairside.CreditLimitAnswer, error) {
	var a protocol.CreditLimitAnswer
	body := protocol.CreditLimitChange{PlatformReference: req.Reference, RequestedLimitCents: req.RequestedLimitCents,
		AnnualGrossIncomeCents: req.AnnualGrossIncomeCents, Currency: protocol.Currency}
	r := post(lender.OpCreditLimit, protocol.ApplicationPath(req.LenderRef, protocol.SubCreditLimit), req.Reference, body,
		into(&a, func(a *protocol.CreditLimitAnswer) error {
			if err := a.Validate(); err != nil {
				return err
			}
			if a.PlatformReference != req.Reference {
				return errors.New("credit limit: for another platform reference")
			}
			return nil
		}))
	if err := l.call(ctx, req.Language, r); err != nil {
		return nil, err
	}
	id := a.ApplicationID
	if id == "" {
		id = req.LenderRef
	}
	return &chairside.CreditLimitAnswer{Status: a.Status, CreditLimitCents: a.CreditLimitCents, LenderRef: id}, nil
}

// Funding reads where a completed application's money stands.
func (l *Lender) Funding(ctx context.Context, req *chairside.FundingRequest) (*chairside.FundingStatus, error) {
	var f protocol.Funding
	id := req.LenderRef
	r := get(lender.OpFunding, protocol.ApplicationPath(id, protocol.SubFunding), nil,
		into(&f, func(f *protocol.Funding) error { return f.Validate(id) }))
	if err := l.call(ctx, "", r); err != nil {
		return nil, err
	}
	return f.Chairside(), nil
}

// change sends a void or a refund under its reference and answers the
// lender's answer, which must be for that change.
func (l *Lender) change(ctx context.Context, op, sub string, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	var a protocol.ChangeAnswer
	id := req.LenderRef
	body := protocol.Change{PlatformReference: req.Reference, AmountCents: req.AmountCents, Currency: protocol.Currency, Reason: req.Reason}
	r := post(op, protocol.ApplicationPath(id, sub), req.Reference, body,
		into(&a, func(a *protocol.ChangeAnswer) error { return a.Validate(id, req.Reference) }))
	if err := l.call(ctx, "", r); err != nil {
		return nil, err
	}
	return a.Chairside(), nil
}

// Void cancels a completed application before the lender funds it.
func (l *Lender) Void(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	return l.change(ctx, lender.OpVoid, protocol.SubVoid, req)
}

// Refund refunds part or all of a funded application.
func (l *Lender) Refund(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	return l.change(ctx, lender.OpRefund, protocol.SubRefunds, req)
}

// ChangeAmount lets an accepted offer go for a new treatment amount.
func (l *Lender) ChangeAmount(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	return l.change(ctx, lender.OpAmount, protocol.SubAmount, req)
}

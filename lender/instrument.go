package lender

import (
	"context"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/metrics"
)

// Instrument wraps lenders so that every call of every lender, built in or
// over HTTP, is counted in m by provider, operation and result, with its
// latency and, when it fails, its kind (KindOf).
func Instrument(lenders chairside.Lenders, m *metrics.Metrics) chairside.Lenders {
	if m == nil {
		return lenders
	}
	return &instrumented{next: lenders, m: m}
}

type instrumented struct {
	next chairside.Lenders
	m    *metrics.Metrics
}

func (i *instrumented) Lender(providerKey string) (chairside.Lender, error) {
	l, err := i.next.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	return &counted{next: l, m: i.m, provider: providerKey}, nil
}

// counted is one provider's lender, counted.
type counted struct {
	next     chairside.Lender
	m        *metrics.Metrics
	provider string
}

var _ chairside.Lender = (*counted)(nil)

// Operation names as the metrics label them; lender/httplender uses the
// same names for its own logs and errors.
const (
	OpDecide       = "decide"
	OpPlans        = "plans"
	OpAcceptOffer  = "accept_offer"
	OpBankAccount  = "bank_account"
	OpBankCard     = "bank_card"
	OpDownPayment  = "down_payment"
	OpContact      = "contact"
	OpConsent      = "consent"
	OpSpouse       = "spouse"
	OpESign        = "esign"
	OpComplete     = "complete"
	OpStatus       = "status"
	OpDocument     = "document"
	OpQuiz         = "quiz"
	OpAnswers      = "answers"
	OpPatch        = "patch"
	OpStipulations = "stipulations"
	OpCreditLimit  = "credit_limit"
)

func timed[T any](c *counted, op string, fn func() (T, error)) (T, error) {
	start := time.Now()
	v, err := fn()
	c.m.LenderCall(c.provider, op, time.Since(start), KindOf(err))
	return v, err
}

func timedErr(c *counted, op string, fn func() error) error {
	_, err := timed(c, op, func() (struct{}, error) { return struct{}{}, fn() })
	return err
}

func (c *counted) Decide(ctx context.Context, req *chairside.DecisionRequest) (*chairside.Decision, error) {
	return timed(c, OpDecide, func() (*chairside.Decision, error) { return c.next.Decide(ctx, req) })
}

func (c *counted) Plans(ctx context.Context, req *chairside.PlansRequest) ([]chairside.PaymentPlan, error) {
	return timed(c, OpPlans, func() ([]chairside.PaymentPlan, error) { return c.next.Plans(ctx, req) })
}

func (c *counted) AcceptOffer(ctx context.Context, req *chairside.OfferRequest) error {
	return timedErr(c, OpAcceptOffer, func() error { return c.next.AcceptOffer(ctx, req) })
}

func (c *counted) AddBankAccount(ctx context.Context, req *chairside.BankAccountRequest) error {
	return timedErr(c, OpBankAccount, func() error { return c.next.AddBankAccount(ctx, req) })
}

func (c *counted) AddCard(ctx context.Context, req *chairside.BankCardRequest) error {
	return timedErr(c, OpBankCard, func() error { return c.next.AddCard(ctx, req) })
}

func (c *counted) DownPayment(ctx context.Context, req *chairside.DownPaymentRequest) error {
	return timedErr(c, OpDownPayment, func() error { return c.next.DownPayment(ctx, req) })
}

func (c *counted) AddContact(ctx context.Context, req *chairside.ContactRequest) error {
	return timedErr(c, OpContact, func() error { return c.next.AddContact(ctx, req) })
}

func (c *counted) RecordConsent(ctx context.Context, req *chairside.ConsentNotice) error {
	return timedErr(c, OpConsent, func() error { return c.next.RecordConsent(ctx, req) })
}

func (c *counted) AddSpouse(ctx context.Context, req *chairside.SpouseRequest) error {
	return timedErr(c, OpSpouse, func() error { return c.next.AddSpouse(ctx, req) })
}

func (c *counted) ESign(ctx context.Context, req *chairside.OfferRequest) error {
	return timedErr(c, OpESign, func() error { return c.next.ESign(ctx, req) })
}

func (c *counted) Complete(ctx context.Context, req *chairside.OfferRequest) (*chairside.Decision, error) {
	return timed(c, OpComplete, func() (*chairside.Decision, error) { return c.next.Complete(ctx, req) })
}

func (c *counted) Status(ctx context.Context, providerKey, lenderApplicationID string) (*chairside.Decision, error) {
	return timed(c, OpStatus, func() (*chairside.Decision, error) { return c.next.Status(ctx, providerKey, lenderApplicationID) })
}

func (c *counted) Document(ctx context.Context, providerKey, kind string) (*chairside.Document, error) {
	return timed(c, OpDocument, func() (*chairside.Document, error) { return c.next.Document(ctx, providerKey, kind) })
}

func (c *counted) Quiz(ctx context.Context, req *chairside.QuizRequest) (*chairside.Quiz, error) {
	return timed(c, OpQuiz, func() (*chairside.Quiz, error) { return c.next.Quiz(ctx, req) })
}

func (c *counted) Answers(ctx context.Context, req *chairside.AnswersRequest) (*chairside.QuizResult, error) {
	return timed(c, OpAnswers, func() (*chairside.QuizResult, error) { return c.next.Answers(ctx, req) })
}

func (c *counted) Patch(ctx context.Context, req *chairside.PatchRequest) (*chairside.Decision, error) {
	return timed(c, OpPatch, func() (*chairside.Decision, error) { return c.next.Patch(ctx, req) })
}

func (c *counted) Stipulations(ctx context.Context, req *chairside.StipulationsRequest) ([]chairside.Stipulation, error) {
	return timed(c, OpStipulations, func() ([]chairside.Stipulation, error) { return c.next.Stipulations(ctx, req) })
}

func (c *counted) ChangeCreditLimit(ctx context.Context, req *chairside.CreditLimitRequest) (*chairside.CreditLimitAnswer, error) {
	return timed(c, OpCreditLimit, func() (*chairside.CreditLimitAnswer, error) { return c.next.ChangeCreditLimit(ctx, req) })
}

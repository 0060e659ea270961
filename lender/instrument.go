package lender

import (
	"context"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/metrics"
)

// Instrument wraps lenders so that every call of every lender, built in or
// over HTTP, is counted in m by lender, operation and result, with its
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

func (i *instrumented) Lender(lenderKey string) (chairside.Lender, error) {
	l, err := i.next.Lender(lenderKey)
	if err != nil {
		return nil, err
	}
	return &counted{next: l, m: i.m, lender: lenderKey}, nil
}

// counted is one lender's lender, counted. It has the core methods; the
// optional steps of the lender it wraps it hands out, counted too, through
// As (chairside.StepOf), so it has exactly the steps its lender has.
type counted struct {
	next   chairside.Lender
	m      *metrics.Metrics
	lender string
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
	OpFunding      = "funding"
	OpVoid         = "void"
	OpRefund       = "refund"
	OpAmount       = "amount"
)

func timed[T any](c *counted, op string, fn func() (T, error)) (T, error) {
	start := time.Now()
	v, err := fn()
	c.m.LenderCall(c.lender, op, time.Since(start), KindOf(err))
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

func (c *counted) ESign(ctx context.Context, req *chairside.OfferRequest) error {
	return timedErr(c, OpESign, func() error { return c.next.ESign(ctx, req) })
}

func (c *counted) Complete(ctx context.Context, req *chairside.OfferRequest) (*chairside.Decision, error) {
	return timed(c, OpComplete, func() (*chairside.Decision, error) { return c.next.Complete(ctx, req) })
}

func (c *counted) Status(ctx context.Context, req *chairside.StatusRequest) (*chairside.Decision, error) {
	return timed(c, OpStatus, func() (*chairside.Decision, error) { return c.next.Status(ctx, req) })
}

func (c *counted) Document(ctx context.Context, req *chairside.DocumentRequest) (*chairside.Document, error) {
	return timed(c, OpDocument, func() (*chairside.Document, error) { return c.next.Document(ctx, req) })
}

// As answers the optional step *target asks for when the wrapped lender has
// it, counted like the core methods.
func (c *counted) As(target any) bool {
	return countStep(c, target, func(s chairside.BankAccounts) chairside.BankAccounts { return countedBankAccounts{c, s} }) ||
		countStep(c, target, func(s chairside.Cards) chairside.Cards { return countedCards{c, s} }) ||
		countStep(c, target, func(s chairside.DownPayments) chairside.DownPayments { return countedDownPayments{c, s} }) ||
		countStep(c, target, func(s chairside.Contacts) chairside.Contacts { return countedContacts{c, s} }) ||
		countStep(c, target, func(s chairside.Consents) chairside.Consents { return countedConsents{c, s} }) ||
		countStep(c, target, func(s chairside.Spouses) chairside.Spouses { return countedSpouses{c, s} }) ||
		countStep(c, target, func(s chairside.Quizzes) chairside.Quizzes { return countedQuizzes{c, s} }) ||
		countStep(c, target, func(s chairside.Patches) chairside.Patches { return countedPatches{c, s} }) ||
		countStep(c, target, func(s chairside.Stipulations) chairside.Stipulations { return countedStipulations{c, s} }) ||
		countStep(c, target, func(s chairside.CreditLimits) chairside.CreditLimits { return countedCreditLimits{c, s} }) ||
		countStep(c, target, func(s chairside.Fundings) chairside.Fundings { return countedFundings{c, s} }) ||
		countStep(c, target, func(s chairside.Changes) chairside.Changes { return countedChanges{c, s} })
}

// countStep sets target, when it asks for the step S and c's lender has
// it, to that step wrapped by count.
func countStep[S any](c *counted, target any, count func(S) S) bool {
	t, ok := target.(*S)
	if !ok {
		return false
	}
	s, ok := chairside.StepOf[S](c.next)
	if ok {
		*t = count(s)
	}
	return ok
}

type countedBankAccounts struct {
	c    *counted
	next chairside.BankAccounts
}

func (s countedBankAccounts) AddBankAccount(ctx context.Context, req *chairside.BankAccountRequest) error {
	return timedErr(s.c, OpBankAccount, func() error { return s.next.AddBankAccount(ctx, req) })
}

type countedCards struct {
	c    *counted
	next chairside.Cards
}

func (s countedCards) AddCard(ctx context.Context, req *chairside.BankCardRequest) error {
	return timedErr(s.c, OpBankCard, func() error { return s.next.AddCard(ctx, req) })
}

type countedDownPayments struct {
	c    *counted
	next chairside.DownPayments
}

func (s countedDownPayments) DownPayment(ctx context.Context, req *chairside.DownPaymentRequest) error {
	return timedErr(s.c, OpDownPayment, func() error { return s.next.DownPayment(ctx, req) })
}

type countedContacts struct {
	c    *counted
	next chairside.Contacts
}

func (s countedContacts) AddContact(ctx context.Context, req *chairside.ContactRequest) error {
	return timedErr(s.c, OpContact, func() error { return s.next.AddContact(ctx, req) })
}

type countedConsents struct {
	c    *counted
	next chairside.Consents
}

func (s countedConsents) RecordConsent(ctx context.Context, req *chairside.ConsentNotice) error {
	return timedErr(s.c, OpConsent, func() error { return s.next.RecordConsent(ctx, req) })
}

type countedSpouses struct {
	c    *counted
	next chairside.Spouses
}

func (s countedSpouses) AddSpouse(ctx context.Context, req *chairside.SpouseRequest) error {
	return timedErr(s.c, OpSpouse, func() error { return s.next.AddSpouse(ctx, req) })
}

type countedQuizzes struct {
	c    *counted
	next chairside.Quizzes
}

func (s countedQuizzes) Quiz(ctx context.Context, req *chairside.QuizRequest) (*chairside.Quiz, error) {
	return timed(s.c, OpQuiz, func() (*chairside.Quiz, error) { return s.next.Quiz(ctx, req) })
}

func (s countedQuizzes) Answers(ctx context.Context, req *chairside.AnswersRequest) (*chairside.QuizResult, error) {
	return timed(s.c, OpAnswers, func() (*chairside.QuizResult, error) { return s.next.Answers(ctx, req) })
}

type countedPatches struct {
	c    *counted
	next chairside.Patches
}

func (s countedPatches) Patch(ctx context.Context, req *chairside.PatchRequest) (*chairside.Decision, error) {
	return timed(s.c, OpPatch, func() (*chairside.Decision, error) { return s.next.Patch(ctx, req) })
}

type countedStipulations struct {
	c    *counted
	next chairside.Stipulations
}

func (s countedStipulations) Stipulations(ctx context.Context, req *chairside.StipulationsRequest) ([]chairside.Stipulation, error) {
	return timed(s.c, OpStipulations, func() ([]chairside.Stipulation, error) { return s.next.Stipulations(ctx, req) })
}

type countedCreditLimits struct {
	c    *counted
	next chairside.CreditLimits
}

func (s countedCreditLimits) ChangeCreditLimit(ctx context.Context, req *chairside.CreditLimitRequest) (*chairside.CreditLimitAnswer, error) {
	return timed(s.c, OpCreditLimit, func() (*chairside.CreditLimitAnswer, error) { return s.next.ChangeCreditLimit(ctx, req) })
}

type countedFundings struct {
	c    *counted
	next chairside.Fundings
}

func (s countedFundings) Funding(ctx context.Context, req *chairside.FundingRequest) (*chairside.FundingStatus, error) {
	return timed(s.c, OpFunding, func() (*chairside.FundingStatus, error) { return s.next.Funding(ctx, req) })
}

type countedChanges struct {
	c    *counted
	next chairside.Changes
}

func (s countedChanges) Void(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	return timed(s.c, OpVoid, func() (*chairside.ChangeAnswer, error) { return s.next.Void(ctx, req) })
}

func (s countedChanges) Refund(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	return timed(s.c, OpRefund, func() (*chairside.ChangeAnswer, error) { return s.next.Refund(ctx, req) })
}

func (s countedChanges) ChangeAmount(ctx context.Context, req *chairside.ChangeRequest) (*chairside.ChangeAnswer, error) {
	return timed(s.c, OpAmount, func() (*chairside.ChangeAnswer, error) { return s.next.ChangeAmount(ctx, req) })
}

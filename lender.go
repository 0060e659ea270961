package chairside

import (
	"context"
	"time"
)

// Lender is what a lender does for us. The sandbox (package lender/sandbox)
// implements it for all eleven providers; an HTTP adapter for real lender
// APIs implements it later. Every lender step carries Reference, our
// platform reference for the step — the same on every attempt of it
// (LenderCall.Reference) — which the lender uses as its idempotency key so
// that a retry can never become a second application (a second hard
// inquiry).
//
// A decline is an ordinary answer (a Decision with ResponseDeclined), not an
// error. An error return means the lender could not be reached or answered
// nonsense; the caller turns it into a ResponseError decision.
type Lender interface {
	// Decide runs a prequalify, prescreen or full application.
	Decide(ctx context.Context, req *DecisionRequest) (*Decision, error)
	// Plans lists the payment plans for an approved application and amount.
	Plans(ctx context.Context, req *PlansRequest) ([]PaymentPlan, error)
	// AcceptOffer accepts the selected plan.
	AcceptOffer(ctx context.Context, req *OfferRequest) error
	// AddBankAccount gives the lender the checking account the payments are
	// drawn from (Snap needs it before signing).
	AddBankAccount(ctx context.Context, req *BankAccountRequest) error
	// AddCard gives the lender the card the payments are charged to. The
	// card number and CVV pass through to the lender and are never kept.
	AddCard(ctx context.Context, req *BankCardRequest) error
	// ESign records the signed agreement with the lender.
	ESign(ctx context.Context, req *OfferRequest) error
	// Complete finishes the lender's account opening after signing.
	Complete(ctx context.Context, req *OfferRequest) (*Decision, error)
	// Status reports where the lender's application stands (for pending).
	Status(ctx context.Context, providerKey, lenderApplicationID string) (*Decision, error)
	// Document returns a document to show: "disclosures", "agreement",
	// "terms", "esign" or "prequalification".
	Document(ctx context.Context, providerKey, kind string) (*Document, error)
	// Quiz hands out the identity questions of an application whose
	// decision carries a StipulationIdentityQuiz (a fetch, not a step).
	Quiz(ctx context.Context, req *QuizRequest) (*Quiz, error)
	// Answers grades the answers to a quiz: passed, failed or expired.
	Answers(ctx context.Context, req *AnswersRequest) (*QuizResult, error)
}

// StipulationIdentityQuiz is the stipulation type of a lender that asks
// identity questions (knowledge-based authentication) before signing.
const StipulationIdentityQuiz = "identity_quiz"

// Quiz results.
const (
	QuizPassed  = "passed"
	QuizFailed  = "failed"
	QuizExpired = "expired"
)

// QuizRequest asks for the identity questions of a lender application;
// Attempt counts from 1.
type QuizRequest struct {
	ProviderKey         string
	LenderApplicationID string
	Attempt             int
	Now                 time.Time
}

// Quiz is a set of identity questions. It never carries the right answers.
type Quiz struct {
	ID        string         `json:"quizId"`
	ExpiresAt time.Time      `json:"expiresAt"`
	Questions []QuizQuestion `json:"questions"`
}

// QuizQuestion is one question with its choices.
type QuizQuestion struct {
	ID      string       `json:"id"`
	Text    string       `json:"text"`
	Choices []QuizChoice `json:"choices"`
}

// QuizChoice is one answer a question offers.
type QuizChoice struct {
	ID   string `json:"id"`
	Text string `json:"text"`
}

// AnswersRequest answers a quiz: question id to choice id.
type AnswersRequest struct {
	ProviderKey         string
	LenderApplicationID string
	QuizID              string
	Answers             map[string]string
	Reference           string
	Now                 time.Time
}

// QuizResult is the lender's grade of a quiz's answers.
type QuizResult struct {
	Result string `json:"result"` // QuizPassed, QuizFailed, QuizExpired
}

// DecisionRequest is a prequalify, prescreen or full application to one
// lender.
type DecisionRequest struct {
	ProviderKey         string
	Operation           string // prequalify, prescreen, apply
	Reference           string // our reference for the step, the lender's idempotency key
	Role                string
	LocationState       string
	PurchaseAmountCents int64
	Primary             Applicant
	Joint               *Applicant
	// TestCase names a sandbox test case; ignored by real lenders and
	// refused in env prod.
	TestCase string
	Now      time.Time
}

// PlansRequest asks for the payment plans of an approved application.
type PlansRequest struct {
	ProviderKey         string
	LenderApplicationID string
	AmountCents         int64 // the amount to finance
	ApprovedAmountCents int64
	Now                 time.Time
}

// OfferRequest acts on the offer of a lender application.
type OfferRequest struct {
	ProviderKey         string
	LenderApplicationID string
	ProviderPlanCode    string
	AmountCents         int64
	Reference           string
	Now                 time.Time
}

// BankAccountRequest is the checking account of an accepted offer's
// payments. Routing and account numbers are personal data: they are sent,
// never logged.
type BankAccountRequest struct {
	ProviderKey         string
	LenderApplicationID string
	RoutingNumber       string
	AccountNumber       string
	BankName            string
	AccountType         string // "checking"
	Reference           string
	Now                 time.Time
}

// BankCardRequest is the card an accepted offer's payments are charged to.
// Number and CVV are sent to the lender and nowhere else (no column, no log,
// no error message, no recorded answer).
type BankCardRequest struct {
	ProviderKey         string
	LenderApplicationID string
	CardholderName      string
	Number              string
	ExpiryMonth         int
	ExpiryYear          int
	CVV                 string
	ZIP                 string
	Reference           string
	Now                 time.Time
}

// Lenders finds the Lender for a provider key; ENOTFOUND for unknown keys.
type Lenders interface {
	Lender(providerKey string) (Lender, error)
}

package chairside

import (
	"context"
	"reflect"
	"time"
)

// Lender is what every lender does for us: the core of an application,
// from the decision to the opened account. A lender's own steps between
// (a bank account, a down payment, the Wisconsin spouse question …) are
// optional: each is a small interface below, which a lender implements
// only when it has that step, and the flow service asks for one with
// StepOf before anything is claimed. The sandbox (package lender/sandbox)
// gives each of its eleven lenders the steps its product has; the HTTP
// adapter (lender/httplender) has every step, as our protocol does.
//
// Every lender step carries Reference, our platform reference for the
// step — the same on every attempt of it (LenderCall.Reference) — which
// the lender uses as its idempotency key so that a retry can never become
// a second application (a second hard inquiry).
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
	// ESign records the signed agreement with the lender.
	ESign(ctx context.Context, req *OfferRequest) error
	// Complete finishes the lender's account opening after signing.
	Complete(ctx context.Context, req *OfferRequest) (*Decision, error)
	// Status reports where the lender's application stands (for pending).
	Status(ctx context.Context, req *StatusRequest) (*Decision, error)
	// Document returns a document to show: "disclosures", "agreement",
	// "terms", "esign", "prequalification", a lender step's own
	// ("california_notice", "cardholder_agreement") or one of the
	// documents pages' (the DocKind… kinds).
	Document(ctx context.Context, req *DocumentRequest) (*Document, error)
}

// StatusRequest asks where a lender's application stands.
type StatusRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language  string
	LenderRef string
}

// DocumentRequest asks for a lender's document of a kind (Lender.Document).
type DocumentRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language string
	Kind     string
}

// BankAccounts is a lender whose payments are drawn from a checking
// account it must have before signing (a lease paid on paydays, a payment
// plan paid by bank transfer).
type BankAccounts interface {
	// AddBankAccount gives the lender the checking account the payments
	// are drawn from.
	AddBankAccount(ctx context.Context, req *BankAccountRequest) error
}

// Cards is a lender that charges its monthly payments to a card it must
// have before signing (an in-office payment plan).
type Cards interface {
	// AddCard gives the lender the card the payments are charged to. The
	// card number and CVV pass through to the lender and are never kept.
	AddCard(ctx context.Context, req *BankCardRequest) error
}

// DownPayments is a lender whose offer may need a down payment, settled
// at the office, before signing.
type DownPayments interface {
	// DownPayment records the down payment of an accepted offer: collected
	// by the office staff, or to be paid at the office before treatment.
	DownPayment(ctx context.Context, req *DownPaymentRequest) error
}

// Contacts is a lender that asks, before signing, for one more person
// through whom to reach the patient.
type Contacts interface {
	// AddContact gives the lender that person. Nothing of it is kept by
	// the caller.
	AddContact(ctx context.Context, req *ContactRequest) error
}

// Consents is a lender with documents the patient agrees to (or
// acknowledges) on a screen of their own: its agreement, the California
// notice, a cardholder agreement.
type Consents interface {
	// RecordConsent tells the lender the patient agreed to one of them.
	RecordConsent(ctx context.Context, req *ConsentNotice) error
}

// Spouses is a lender that must notify the spouse of an applicant living
// in Wisconsin (the state's marital property law).
type Spouses interface {
	// AddSpouse answers whether the applicant is married and, if so, the
	// spouse the lender must notify.
	AddSpouse(ctx context.Context, req *SpouseRequest) error
}

// Quizzes is a lender that may ask identity questions before signing: its
// decision then carries a StipulationIdentityQuiz.
type Quizzes interface {
	// Quiz hands out the identity questions of an application (a fetch,
	// not a step).
	Quiz(ctx context.Context, req *QuizRequest) (*Quiz, error)
	// Answers grades the answers to a quiz: passed, failed or expired.
	Answers(ctx context.Context, req *AnswersRequest) (*QuizResult, error)
}

// Patches is a lender that may leave a decision pending until it is sent
// something more (PatchIncome: the verified yearly income).
type Patches interface {
	// Patch gives a pending application what its lender asked for (a
	// stipulation whose type is the patch type) and answers its decision
	// after it, with the lenderApplicationId to use from then on.
	Patch(ctx context.Context, req *PatchRequest) (*Decision, error)
}

// Stipulations is a lender that tells where each thing a pending decision
// waits for stands, when asked.
type Stipulations interface {
	// Stipulations answers the current status of some of a pending
	// application's stipulations (a read, not a step).
	Stipulations(ctx context.Context, req *StipulationsRequest) ([]Stipulation, error)
}

// CreditLimits is a revolving (card) lender that may raise the limit of an
// account the patient already has.
type CreditLimits interface {
	// ChangeCreditLimit asks for a higher limit on an existing revolving
	// account. A decline is an ordinary answer (the limit unchanged); an
	// error means the lender could not be reached.
	ChangeCreditLimit(ctx context.Context, req *CreditLimitRequest) (*CreditLimitAnswer, error)
}

// StepOf answers l's optional step S (one of the interfaces above) and
// whether l has it. A decorator — a Lender around another, such as the
// metrics' counter in lender/instrument.go — implements no step itself,
// since it cannot know which its lender has: it answers through an
// As(target any) bool method instead (see AsStep).
func StepOf[S any](l Lender) (S, bool) {
	var step S
	ok := AsStep(l, &step)
	return step, ok
}

// AsStep sets *target, a pointer to an optional step's interface, to l's
// step and reports whether l has it: l itself when its type has the
// methods, else what l's As method answers. A decorator that changes
// nothing of the steps implements As with AsStep on the lender it wraps;
// one that does (the metrics' counter) wraps what that answers.
func AsStep(l Lender, target any) bool {
	if l == nil {
		return false
	}
	t := reflect.ValueOf(target)
	if t.Kind() != reflect.Pointer || t.IsNil() || t.Elem().Kind() != reflect.Interface {
		panic("chairside.AsStep: target must be a non-nil pointer to an interface")
	}
	if v := reflect.ValueOf(l); v.Type().Implements(t.Elem().Type()) {
		t.Elem().Set(v)
		return true
	}
	if d, ok := l.(interface{ As(target any) bool }); ok {
		return d.As(target)
	}
	return false
}

// Credit limit answers (CreditLimitAnswer.Status).
const (
	CreditLimitApproved = "approved"
	CreditLimitDeclined = "declined"
)

// CreditLimitRequest asks for a new credit limit on the account a lender
// application found, with the yearly income (before taxes, in cents) that
// backs it.
type CreditLimitRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language               string
	LenderRef              string
	RequestedLimitCents    int64
	AnnualGrossIncomeCents int64
	Reference              string
	Now                    time.Time
}

// CreditLimitAnswer is the lender's answer to a credit limit change: the
// limit after it (the new one when approved, the old one when declined)
// and, when the lender gives one, the application id to use from then on.
type CreditLimitAnswer struct {
	Status           string // CreditLimitApproved or CreditLimitDeclined
	CreditLimitCents int64
	LenderRef        string
}

// StipulationsRequest asks for the status of stipulations of a lender
// application. Known is what we last heard of each (a lender with its own
// records answers from those; the stateless sandbox moves each one on from
// it).
type StipulationsRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language  string
	LenderRef string
	Known     []Stipulation
	Now       time.Time
}

// PatchIncome is the patch (and stipulation) type of a lender that asks for
// the patient's verified yearly income before deciding.
const PatchIncome = "income"

// PatchRequest is what a patch sends: for PatchIncome, the yearly income
// before taxes in cents.
type PatchRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language               string
	LenderRef              string
	PatchType              string
	AnnualGrossIncomeCents int64
	Reference              string
	Now                    time.Time
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
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language  string
	LenderRef string
	Attempt   int
	Now       time.Time
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
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language  string
	LenderRef string
	QuizID    string
	Answers   map[string]string
	Reference string
	Now       time.Time
}

// QuizResult is the lender's grade of a quiz's answers.
type QuizResult struct {
	Result string `json:"result"` // QuizPassed, QuizFailed, QuizExpired
}

// DecisionRequest is a prequalify, prescreen or full application to one
// lender.
type DecisionRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language            string
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
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language            string
	LenderRef           string
	AmountCents         int64 // the amount to finance
	ApprovedAmountCents int64
	Now                 time.Time
}

// OfferRequest acts on the offer of a lender application.
type OfferRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language       string
	LenderRef      string
	LenderPlanCode string
	AmountCents    int64
	Reference      string
	Now            time.Time
}

// BankAccountRequest is the checking account of an accepted offer's
// payments. Routing and account numbers are personal data: they are sent,
// never logged.
type BankAccountRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language      string
	LenderRef     string
	RoutingNumber string
	AccountNumber string
	BankName      string
	AccountType   string // "checking"
	Reference     string
	Now           time.Time
}

// BankCardRequest is the card an accepted offer's payments are charged to.
// Number and CVV are sent to the lender and nowhere else (no column, no log,
// no error message, no recorded answer).
type BankCardRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language       string
	LenderRef      string
	CardholderName string
	Number         string
	ExpiryMonth    int
	ExpiryYear     int
	CVV            string
	ZIP            string
	Reference      string
	Now            time.Time
}

// Down payment methods (DownPaymentRequest.Method).
const (
	DownPaymentCollected = "collected_in_office" // the office staff took it today
	DownPaymentAtOffice  = "pay_at_office"       // the patient pays it at the office before treatment
)

// DownPaymentRequest records an accepted offer's down payment.
type DownPaymentRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language    string
	LenderRef   string
	AmountCents int64
	Method      string
	Reference   string
	Now         time.Time
}

// ContactRequest is one more person through whom the lender may reach the
// patient. It is personal data: sent, never logged or kept.
type ContactRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language     string
	LenderRef    string
	Name         string
	Relationship string
	Phone        string
	Reference    string
	Now          time.Time
}

// ConsentNotice is the patient's agreement to one lender document.
type ConsentNotice struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language        string
	LenderRef       string
	Kind            string // a Consent… kind
	DocumentID      string
	DocumentVersion string
	Reference       string
	Now             time.Time
}

// SpouseRequest answers whether a Wisconsin applicant is married and, if
// so, names the spouse and where the lender may write to them. Personal
// data: sent, never logged or kept.
type SpouseRequest struct {
	LenderKey string
	// Language is the patient's ("es"; "" for English): what the lender writes for them is in it.
	Language     string
	LenderRef    string
	Married      bool
	FirstName    string
	LastName     string
	AddressLine1 string
	AddressLine2 string
	City         string
	State        string
	ZipCode      string
	Reference    string
	Now          time.Time
}

// Lenders finds the Lender for a lender key; ENOTFOUND for unknown keys.
// What it answers has the optional steps of that lender (StepOf).
type Lenders interface {
	Lender(lenderKey string) (Lender, error)
}

package chairside

import (
	"context"
	"time"
)

// The money line of a lender application: what happened to its money,
// from the lender's approval to the deposit in the practice's bank
// account (docs/behaviour.md, "After the signature"). Each fact is one
// entry, added once and never changed; where a case stands is read from
// its entries, the latest of each kind.
const (
	MoneyApproved  = "approved"  // the lender approved AmountCents
	MoneySigned    = "signed"    // the patient signed for AmountCents financed
	MoneyCompleted = "completed" // the lender opened the account or loan
	MoneyHeld      = "held"      // the lender holds the funding back for a review
	MoneyFunded    = "funded"    // the lender funded: AmountCents gross, FeeCents, NetCents
	MoneyDeposited = "deposited" // the lender sent NetCents to the bank in deposit DepositRef
	// MoneyVoided: the lender canceled the case before funding it; no money
	// moves and none will.
	MoneyVoided = "voided"
	// MoneyRefunded: the lender refunded AmountCents to the patient after
	// funding; the practice gives back NetCents (the amount less the part
	// of the fee the lender returns, FeeCents).
	MoneyRefunded = "refunded"
	// MoneyRefundRefused: the lender refused to refund AmountCents (past
	// its refund window); no money moves. Kept so the office sees it.
	MoneyRefundRefused = "refund_refused"
	// MoneyAmountChanged: before the patient signed, the office changed
	// the treatment amount to AmountCents; the offer is chosen again.
	MoneyAmountChanged = "amount_changed"
)

// MoneyEntry is one fact of a lender application's money line.
type MoneyEntry struct {
	ID                  string `json:"-"`
	LenderApplicationID string `json:"-"`
	ApplicationID       string `json:"-"` // read, never written: the lender application's
	LenderKey           string `json:"providerKey"`
	Kind                string `json:"kind"`
	// AmountCents is the amount the fact is about: approved, financed, or
	// the gross amount funded.
	AmountCents int64 `json:"amountCents"`
	// FeeCents is the lender's fee to the practice (its merchant discount),
	// FeeRateBP that fee as a rate in basis points (hundredths of a
	// percent) of the gross; NetCents what the practice receives. Funded
	// and deposited entries carry all three; NetCents = AmountCents -
	// FeeCents.
	FeeCents  int64 `json:"feeCents,omitempty"`
	FeeRateBP int   `json:"feeRateBp,omitempty"`
	NetCents  int64 `json:"netCents,omitempty"`
	// Reference is what names the fact: the lender's funding reference,
	// the deposit's reference, or our own record's id. One lender
	// application has at most one entry of a kind with a reference, so a
	// fact heard twice (a webhook and a poll) is kept once.
	Reference string `json:"reference"`
	// DepositRef is the deposit that carries (or will carry) the money,
	// DepositOn when it is sent (or expected to be).
	DepositRef string    `json:"depositRef,omitempty"`
	DepositOn  time.Time `json:"depositOn,omitzero"`
	// On is when the fact happened, as the lender dates it.
	On         time.Time `json:"on"`
	RecordedAt time.Time `json:"recordedAt"`
}

// Funding states a lender reports for a completed application
// (FundingStatus.State).
const (
	FundingWaiting   = "waiting"   // not funded yet; ExpectedOn says when
	FundingHeld      = "held"      // held back for a review; HeldReason says why
	FundingFunded    = "funded"    // funded; the deposit is on its way
	FundingDeposited = "deposited" // the deposit was sent
)

// Fundings is a lender that tells what becomes of an application's money
// after it is completed: when it funds, its fee, and the deposit that
// carries the money to the practice. A lender without it ends at
// completion (the money line stops at "completed").
type Fundings interface {
	Funding(ctx context.Context, req *FundingRequest) (*FundingStatus, error)
}

// FundingRequest asks where the money of a completed application stands.
type FundingRequest struct {
	LenderKey      string
	LenderRef      string
	LenderPlanCode string
	// AmountCents is the amount financed, CompletedAt when the lender
	// completed the application (as our record has it).
	AmountCents int64
	CompletedAt time.Time
	Now         time.Time
}

// FundingStatus is a lender's answer about a completed application's money.
type FundingStatus struct {
	State string
	// ExpectedOn is when the lender expects to fund (waiting).
	ExpectedOn time.Time
	HeldReason string
	// FundingRef, the amounts and FundedOn are set once funded.
	FundingRef string
	GrossCents int64
	FeeCents   int64
	FeeRateBP  int
	NetCents   int64
	FundedOn   time.Time
	// DepositRef and DepositOn name the deposit: expected once funded,
	// sent once deposited.
	DepositRef string
	DepositOn  time.Time
}

// FundingPoll is a completed lender application whose money the
// reconciler follows, as it claims it to ask the lender.
type FundingPoll struct {
	LenderApplicationRef
	LenderPlanCode string
	// AmountCents and CompletedAt are the completed entry's.
	AmountCents int64
	CompletedAt time.Time
	// Polls counts the claims so far, this one included; Since is when the
	// watch began.
	Polls int
	Since time.Time
}

// FundingFirstPoll is how long after completion a lender is first asked
// about the funding; afterwards, when its answer expects something.
const FundingFirstPoll = 10 * time.Second

// Changes is a lender that lets the practice change a case after the
// patient completed it (docs/behaviour.md, "After the signature"): void it
// before the lender funds, or refund it, in full or in part, after. Each
// is a lender step made once (docs/exactly-once.md): Reference is the
// step's, the same on every attempt. A refusal is an ordinary answer
// (ChangeAnswer.Status), not an error.
//
// ChangeAmount comes earlier: the office changed the treatment amount
// after the patient accepted an offer and before they signed. The lender
// lets the accepted offer go (FinancedCents, the accepted plan) and will
// price plans for the new amount (AmountCents); CompletedAt is zero.
type Changes interface {
	Void(ctx context.Context, req *ChangeRequest) (*ChangeAnswer, error)
	Refund(ctx context.Context, req *ChangeRequest) (*ChangeAnswer, error)
	ChangeAmount(ctx context.Context, req *ChangeRequest) (*ChangeAnswer, error)
}

// ChangeRequest asks a lender to void or refund a completed application.
type ChangeRequest struct {
	LenderKey      string
	LenderRef      string
	LenderPlanCode string
	// FinancedCents is the amount financed and CompletedAt the completion,
	// as our record has them; AmountCents is the refund asked for, and
	// RefundedCents what was refunded before it.
	FinancedCents int64
	CompletedAt   time.Time
	AmountCents   int64
	RefundedCents int64
	Reason        string
	Reference     string
	Now           time.Time
}

// Change answers (ChangeAnswer.Status).
const (
	ChangeDone = "done"
	// ChangeTooLate: a void asked after the lender funded; the case must
	// be refunded instead.
	ChangeTooLate = "too_late"
	// ChangeRefused: the lender will not make the change (a refund past its
	// window); Message says why.
	ChangeRefused = "refused"
)

// ChangeAnswer is a lender's answer to a change.
type ChangeAnswer struct {
	Status string
	// Reference is the lender's own reference of the change, when done.
	Reference string
	// FeeReturnedCents is, for a refund, the part of its fee the lender
	// gives back to the practice.
	FeeReturnedCents int64
	Message          string
}

// Money alerts (docs/behaviour.md, "After the signature"), as the
// store finds them (store.DB.ListMoneyAlerts).
const (
	// AlertLateFunding: a completed case its lender has not funded a
	// business day after it said it would (or, before it said, a week
	// after completion).
	AlertLateFunding = "late_funding"
	// AlertRefundRefused: the lender refused a refund.
	AlertRefundRefused = "refund_refused"
	// AlertDepositMismatch: a deposit carried a case for other figures
	// than its funding said.
	AlertDepositMismatch = "deposit_mismatch"
)

// MoneyAlertWindow is how far back refused refunds and mismatched
// deposits stay alerts, on the office's funding screen and on /metrics.
const MoneyAlertWindow = 30 * 24 * time.Hour

// AlertKinds are the money alerts' kinds.
var AlertKinds = []string{AlertLateFunding, AlertRefundRefused, AlertDepositMismatch}

// MoneyAlert is one case the practice should look at.
type MoneyAlert struct {
	Kind                string
	ApplicationID       string
	LenderApplicationID string
	LenderKey           string
	// Since is when the alert began: the day the funding was expected, the
	// refusal, the deposit.
	Since time.Time
}

package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// Store is what the flow service reads and writes, and nothing more: the
// methods of package store's DB this package calls, grouped by what they
// keep. Find methods answer ENOTFOUND when nothing matches; versioned
// updates answer ECONFLICT when the record moved since it was read.
type Store interface {
	locationReader
	sessionStore
	applicationStore
	lenderCallStore
	lenderNewsStore
	moneyStore
	recordStore
}

// Batcher is a Store that runs several writes as one commit: Batch hands fn
// a view of itself (T, the store's own type) whose writes are all kept or
// none. Calls in fn that answer ENOTFOUND or ECONFLICT leave the batch
// usable, so fn may handle them and go on; inside a batch, Batch just
// calls fn.
type Batcher[T Store] interface {
	Store
	Batch(ctx context.Context, fn func(tx T) error) error
}

// locationReader reads the offices (cached by the service, location.go).
type locationReader interface {
	FindLocationByID(ctx context.Context, id string) (*chairside.Location, error)
	FindLocationByEntityKey(ctx context.Context, entityKey string) (*chairside.Location, error)
}

// sessionStore keeps patients' sessions. ConsumeFlowToken marks a token
// used and returns it in one step (missing, used or expired: ENOTFOUND).
// FindSession answers finished and idle sessions too (callers check
// Session.Live); FinishSession sets the outcome once, a second finish
// answers ECONFLICT.
type sessionStore interface {
	ConsumeFlowToken(ctx context.Context, hash string, now time.Time) (*chairside.FlowToken, error)
	CreateSession(ctx context.Context, s *chairside.Session) error
	FindSession(ctx context.Context, id string) (*chairside.Session, error)
	TouchSession(ctx context.Context, id string, now time.Time) error
	FinishSession(ctx context.Context, id, outcome string, now time.Time) error
}

// applicationStore keeps applications (applicants sealed at rest), one
// lender application per lender tried, their decisions (append-only; the
// latest is loaded into LenderApplication.Decision) and the plans
// offered (SavePaymentPlans replaces the set). UpdateLenderApplication
// succeeds only from pa.Version, then increments it. TakePull takes one
// credit pull from a scope's allowance in one statement and, when the
// limit was reached, fails the batch it is in with refused's error; called
// inside the claim's batch, so a refused claim takes nothing.
type applicationStore interface {
	CreateApplication(ctx context.Context, a *chairside.Application) error
	FindApplication(ctx context.Context, id string) (*chairside.Application, error)
	ChangePurchaseAmount(ctx context.Context, id string, from, to int64) error
	UpdateApplication(ctx context.Context, a *chairside.Application) error
	TakePull(ctx context.Context, scope string, limit int, refused func() error) error

	CreateLenderApplication(ctx context.Context, pa *chairside.LenderApplication) error
	FindLenderApplication(ctx context.Context, applicationID, lenderKey string) (*chairside.LenderApplication, error)
	FindLenderApplications(ctx context.Context, applicationID string, lenderKeys ...string) ([]*chairside.LenderApplication, error)
	ListLenderApplications(ctx context.Context, applicationID string) ([]*chairside.LenderApplication, error)
	UpdateLenderApplication(ctx context.Context, pa *chairside.LenderApplication) error
	CreateDecision(ctx context.Context, d *chairside.Decision) error
	SavePaymentPlans(ctx context.Context, lenderApplicationID string, plans []chairside.PaymentPlan) error
	ListPaymentPlans(ctx context.Context, lenderApplicationID string) ([]chairside.PaymentPlan, error)
	FindPaymentPlan(ctx context.Context, lenderApplicationID, code string) (*chairside.PaymentPlan, error)
}

// lenderCallStore keeps the claim on each lender step (step.go).
// ClaimLenderCall inserts c as running when the step has no call and
// answers claimed; otherwise it answers the stored call. RetakeLenderCall
// claims a failed or expired call again from the attempt c holds, else
// ECONFLICT. SettleLenderCall stores the outcome if c.Attempt still runs,
// else ECONFLICT.
type lenderCallStore interface {
	ClaimLenderCall(ctx context.Context, c *chairside.LenderCall) (existing *chairside.LenderCall, claimed bool, err error)
	FindLenderCall(ctx context.Context, lenderApplicationID, step string) (*chairside.LenderCall, error)
	RetakeLenderCall(ctx context.Context, c *chairside.LenderCall) error
	SettleLenderCall(ctx context.Context, c *chairside.LenderCall) error
}

// lenderNewsStore keeps what lenders tell us unasked and the polls of
// pending applications (lender_news.go). RecordLenderEvent inserts an
// event once (a second with its key and id: ECONFLICT). A pending
// decision written by CreateDecision adds or restarts its poll, any other
// removes it; ClaimPendingPolls takes the polls due with a lease, so two
// servers never poll one application together.
type lenderNewsStore interface {
	FindByLenderRef(ctx context.Context, lenderKey, lenderRef string) (*chairside.LenderApplicationRef, error)
	RecordLenderEvent(ctx context.Context, e *chairside.LenderEvent) error
	ClaimPendingPolls(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*chairside.PendingPoll, error)
	ReschedulePendingPoll(ctx context.Context, lenderApplicationID string, next time.Time) error
}

// moneyStore keeps the money line (money.go). AppendMoney adds an entry
// once (the same kind and reference again changes nothing and answers
// false); a completed entry with watch starts its funding poll, a
// deposited or voided one ends it. MoneyLine reads an application's
// lines in the order they were added. ClaimFundingPolls takes the polls due with a
// lease, as ClaimPendingPolls does.
type moneyStore interface {
	AppendMoney(ctx context.Context, e *chairside.MoneyEntry, watch bool) (bool, error)
	// RecordMoney is AppendMoney for a caller that does not ask whether
	// the entry was new; inside a batch its failure is the batch's answer
	// when the batch ends (store/sql.go, later).
	RecordMoney(ctx context.Context, e *chairside.MoneyEntry, watch bool) error
	RecordDeposit(ctx context.Context, lenderKey, reference string, on time.Time, netCents int64) error
	MoneyLine(ctx context.Context, applicationID string) ([]*chairside.MoneyEntry, error)
	ClaimFundingPolls(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*chairside.FundingPoll, error)
	RescheduleFundingPoll(ctx context.Context, lenderApplicationID string, next, expected time.Time) error
}

// recordStore keeps what is only ever added: consents, the audit events of
// a session, texts and emails to send; and reads the offices' help.
type recordStore interface {
	CreateConsent(ctx context.Context, c *chairside.Consent) error
	AppendEvent(ctx context.Context, e *chairside.Event) error
	ListEvents(ctx context.Context, sessionID string) ([]*chairside.Event, error)
	EnqueueOutbox(ctx context.Context, m *chairside.OutboxMessage) error
	ListHelpOverrides(ctx context.Context, locationID, groupID string) ([]*chairside.HelpOverride, error)
}

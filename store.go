package chairside

import (
	"context"
	"time"
)

// Store keeps everything Chairside must remember. Package store implements
// it for SQLite (the embedded default) and PostgreSQL (many servers), with
// one set of migrations and one test suite for both.
//
// Find methods answer an *Error with ENOTFOUND when nothing matches. Update
// methods on versioned records answer ECONFLICT when the record changed
// since it was read, which is how "exactly one of 50 parallel accepts
// succeeds" is kept without locks in server memory.
//
// The store seals personal data (applicants, the patient's name on a flow
// token, signature images) before writing it: callers hand it plaintext and
// never see ciphertext. Package store keeps each group of methods below in
// a file named after its entity (store/session.go, store/decision.go …),
// as this package does for the types.
type Store interface {
	// Locations.
	CreateLocation(ctx context.Context, l *Location) error
	FindLocationByID(ctx context.Context, id string) (*Location, error)
	FindLocationByEntityKey(ctx context.Context, entityKey string) (*Location, error)
	ListLocations(ctx context.Context) ([]*Location, error)
	// UpsertLocation creates l, or updates the location with its entity key
	// (name, state, group, brand, waterfall), which keeps its id and
	// creation time; l is given the stored id and creation time.
	UpsertLocation(ctx context.Context, l *Location) error

	// Flow tokens. ConsumeFlowToken marks the token used and returns it in
	// one atomic step; a missing, used or expired token answers ENOTFOUND.
	CreateFlowToken(ctx context.Context, t *FlowToken) error
	ConsumeFlowToken(ctx context.Context, hash string, now time.Time) (*FlowToken, error)

	// Sessions. FindSession answers finished and idle sessions too; callers
	// check Session.Live. TouchSession moves LastSeenAt. FinishSession sets
	// the outcome once; a second finish answers ECONFLICT.
	CreateSession(ctx context.Context, s *Session) error
	FindSession(ctx context.Context, id string) (*Session, error)
	TouchSession(ctx context.Context, id string, now time.Time) error
	FinishSession(ctx context.Context, id, outcome string, now time.Time) error

	// Applications, with their applicants sealed at rest. Create and
	// Update set a.SSNIndex from the primary SSN.
	CreateApplication(ctx context.Context, a *Application) error
	FindApplication(ctx context.Context, id string) (*Application, error)
	UpdateApplication(ctx context.Context, a *Application) error

	// Pull allowances. ReservePull takes one credit pull from the
	// allowance of scope (a session, or an SSN's blind index on a day) in
	// one atomic statement: false when limit pulls were already taken.
	// Called inside the transaction that claims the pull, so a refused or
	// rolled-back claim takes nothing.
	ReservePull(ctx context.Context, scope string, limit int) (bool, error)

	// Provider applications. UpdateProviderApplication succeeds only when
	// pa.Version is the stored version, then increments pa.Version.
	CreateProviderApplication(ctx context.Context, pa *ProviderApplication) error
	FindProviderApplication(ctx context.Context, applicationID, providerKey string) (*ProviderApplication, error)
	ListProviderApplications(ctx context.Context, applicationID string) ([]*ProviderApplication, error)
	UpdateProviderApplication(ctx context.Context, pa *ProviderApplication) error

	// Decisions are append-only; the latest one is loaded into
	// ProviderApplication.Decision by the Find methods.
	CreateDecision(ctx context.Context, d *Decision) error

	// Payment plans offered to a provider application. SavePaymentPlans
	// replaces the offered set; only a code in it can be selected.
	SavePaymentPlans(ctx context.Context, providerApplicationID string, plans []PaymentPlan) error
	ListPaymentPlans(ctx context.Context, providerApplicationID string) ([]PaymentPlan, error)

	// Consents and events are append-only.
	CreateConsent(ctx context.Context, c *Consent) error
	ListConsents(ctx context.Context, applicationID string) ([]*Consent, error)

	AppendEvent(ctx context.Context, e *Event) error
	ListEvents(ctx context.Context, sessionID string) ([]*Event, error)

	// Lender calls: the claim on each lender step (see LenderCall).
	// ClaimLenderCall inserts c as a running call when the step has none
	// and answers claimed=true; otherwise it changes nothing and answers
	// the stored call. RetakeLenderCall claims a failed or expired call
	// again: it moves it to running with c's lease and hashes and the next
	// attempt, from the attempt c holds, else ECONFLICT. SettleLenderCall
	// stores c's State, Response and SettledAt if c.Attempt is still the
	// running attempt, else ECONFLICT.
	ClaimLenderCall(ctx context.Context, c *LenderCall) (existing *LenderCall, claimed bool, err error)
	FindLenderCall(ctx context.Context, providerApplicationID, step string) (*LenderCall, error)
	RetakeLenderCall(ctx context.Context, c *LenderCall) error
	SettleLenderCall(ctx context.Context, c *LenderCall) error

	// Lender events and pending polls (docs/lender-protocol.md,
	// "Webhooks"). FindLenderApplication locates the provider application
	// a lender knows by its id, for the lender of the base provider key
	// providerKey; ENOTFOUND when none. RecordLenderEvent inserts e once: a second event with
	// its provider key and id answers ECONFLICT. CreateDecision keeps
	// pending polls: a pending decision adds (or restarts) its provider
	// application's poll, due PendingFirstPoll later; any other removes it.
	// ClaimPendingPolls takes up to limit polls due at now, each with a
	// conditional update that moves it to now+lease, so servers sharing a
	// database never poll one application together. ReschedulePendingPoll
	// sets a claimed poll's next time (gone polls are left alone).
	FindLenderApplication(ctx context.Context, providerKey, lenderApplicationID string) (*LenderApplicationRef, error)
	RecordLenderEvent(ctx context.Context, e *LenderEvent) error
	ClaimPendingPolls(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*PendingPoll, error)
	ReschedulePendingPoll(ctx context.Context, providerApplicationID string, next time.Time) error
	// TakeLease takes or renews the lease called name for holder until
	// until: true when holder holds it now (it was free, expired, or
	// holder's already). Background loops that one server at a time must
	// run (the purge) take it before each round.
	TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error)

	// PurgePersonalData erases the applicants of every application whose
	// session finished before the cutoff, keeping decisions, consents and
	// events. It answers how many applications were purged.
	PurgePersonalData(ctx context.Context, finishedBefore time.Time) (int, error)

	// Help content of offices and groups (docs/content.md, "Help").
	// ReplaceHelpOverrides replaces every override of one scope (a
	// location id, or a group id) with overrides, none to remove them.
	// ListHelpOverrides answers the overrides of a location and of its
	// group (none for groupID ""), in every language.
	ReplaceHelpOverrides(ctx context.Context, scope, scopeID string, overrides []*HelpOverride) error
	ListHelpOverrides(ctx context.Context, locationID, groupID string) ([]*HelpOverride, error)

	// EnqueueOutbox queues one text or email to send (see OutboxMessage),
	// its recipient and body sealed.
	EnqueueOutbox(ctx context.Context, m *OutboxMessage) error

	// Batch runs fn with a view of the store whose calls all commit together
	// (one transaction, one flush to disk), so a step's several writes cost
	// one commit. If fn returns an error nothing of it is kept. Calls inside
	// fn that answer ENOTFOUND or ECONFLICT leave the batch usable (fn may
	// handle them and go on). Inside a batch, Batch just calls fn.
	Batch(ctx context.Context, fn func(Store) error) error

	// Ping checks the database is reachable.
	Ping(ctx context.Context) error
	Close() error
}

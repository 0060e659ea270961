// Package flow is the application service of Chairside: it starts and ends
// patients' web sessions, runs an application through a location's lender
// waterfall (apply start, prequalify/prescreen/apply, plans, selection,
// acceptance, signing, completion) and enforces what the transport must not
// be trusted with: that every object is reached through the caller's
// session, that steps run in order, that credit pulls are capped, consented
// to and never repeated by a retry.
//
// The service speaks domain types (package chairside) and returns
// *chairside.Error codes; package httpapi turns them into HTTP.
package flow

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/locale"
)

// Defaults for Options fields left zero.
const (
	DefaultLenderTimeout  = 25 * time.Second
	DefaultDailySSNCap    = 10
	DefaultSessionPullCap = 8
	// touchEvery throttles TouchSession: an authenticated call writes
	// LastSeenAt only when the stored value is older than this, which keeps
	// the hot path to one read per call while keeping the idle limit
	// (minutes) accurate to seconds.
	touchEvery = 5 * time.Second
	// locationTTL is how long a location (name, state, waterfall) is cached
	// in memory. Locations change rarely and a short staleness is harmless;
	// the cache saves a database read on nearly every call.
	locationTTL = 30 * time.Second
	// maxPlans bounds how many plans a lender may offer; lender answers are
	// untrusted.
	maxPlans = 50
)

// Options configure a Service. Zero values get sensible defaults.
type Options struct {
	// Env is the environment (chairside.EnvProd …); test cases are refused
	// in prod. Default: chairside.EnvDefault.
	Env string
	// Now is the clock; default time.Now.
	Now chairside.Clock
	// LenderTimeout bounds every lender call; a decision call that runs out
	// becomes a responseCode "error" decision. Default 25 s.
	LenderTimeout time.Duration
	// DecisionTimeout answers how long the patient waits for a lender's
	// decision on a full application (apply) or a quick check, within
	// LenderTimeout (docs/behaviour.md, "Time-outs"). Default: the
	// catalogue's (catalogue.DecisionTimeout); the server passes the
	// lenders file's (registry.Registry.DecisionTimeout).
	DecisionTimeout func(lenderKey string, apply bool) time.Duration
	// DocumentsFreshFor is how long a lender's document is held and served
	// without asking the lender again, when the lender's answer does not
	// say (documents_held.go). Default DefaultDocumentsFreshFor.
	DocumentsFreshFor time.Duration
	// TimeoutAfter and WarnCountdown are the browser's idle timer and
	// warning countdown sent with each new session (docs/behaviour.md,
	// "Time-outs"). Defaults
	// chairside.DefaultTimeoutAfter and chairside.DefaultWarnCountdown.
	TimeoutAfter  time.Duration
	WarnCountdown time.Duration
	// Logger receives the service's log lines (never personal data).
	// Default: discard.
	Logger *slog.Logger
	// DailySSNCap is how many credit pulls one SSN may take in a UTC day
	// across all sessions; SessionPullCap how many one session may take
	// (docs/exactly-once.md, "Credit-pull caps"). Over a cap answers
	// rate_limited without a lender call.
	DailySSNCap    int
	SessionPullCap int
	// TestCaseIDs, when not nil, lists the test case ids POST
	// /test-cases/apply/{id} accepts (sandbox.TestCases()); others answer
	// resource_not_found. TestCases, when set, lists them with their
	// names for GET /test-cases, and gives TestCaseIDs when that is nil.
	TestCaseIDs []string
	TestCases   []TestCaseInfo
	// DemoEntityKey is the first demo office's entity key when the demo
	// offices are loaded: where a named test case starts ("" for none).
	DemoEntityKey string
	// PlanRefused hears of each lender plan left out because its figures
	// do not add up (money.Reason…), for /metrics. Default: nothing.
	PlanRefused func(lenderKey, reason string)
}

// Service is the application service. It is safe for concurrent use and
// keeps no state another server would need: everything lives in the Store,
// apart from a short-lived cache of locations.
type Service struct {
	store Store
	// batchIn runs fn over a batch of the store (Batcher.Batch).
	batchIn func(ctx context.Context, fn func(tx Store) error) error
	lenders chairside.Lenders
	keys    chairside.BlindIndexer
	opts    Options
	now     chairside.Clock
	log     *slog.Logger

	locMu    sync.Mutex
	locs     map[string]cachedLocation // by id
	locsByEK map[string]cachedLocation // by entity key

	pdfs pdfCache  // printed sheets by name
	help helpCache // help answers by what they are built from

	docCalls singleflight.Group // lender documents being fetched, by lender, kind and language (document)
	docs     heldDocs           // lender documents held while fresh, by the same key (documents_held.go)
}

// New returns a Service over a store and the lenders. keys (a
// *seal.Keyring) hashes what each lender step asks, so a stored hash never
// lets anyone test guesses of the personal data it covers; the SSN's blind
// index is the store's (chairside.Application.SSNIndex).
func New[T Store](store Batcher[T], lenders chairside.Lenders, keys chairside.BlindIndexer, opts Options) *Service {
	if opts.Env == "" {
		opts.Env = chairside.EnvDefault
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	if opts.LenderTimeout <= 0 {
		opts.LenderTimeout = DefaultLenderTimeout
	}
	if opts.DocumentsFreshFor <= 0 {
		opts.DocumentsFreshFor = DefaultDocumentsFreshFor
	}
	if opts.DecisionTimeout == nil {
		opts.DecisionTimeout = catalogue.DecisionTimeout
	}
	if opts.TimeoutAfter <= 0 {
		opts.TimeoutAfter = chairside.DefaultTimeoutAfter
	}
	if opts.WarnCountdown <= 0 {
		opts.WarnCountdown = chairside.DefaultWarnCountdown
	}
	if opts.PlanRefused == nil {
		opts.PlanRefused = func(string, string) {}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewJSONHandler(io.Discard, nil))
	}
	if opts.DailySSNCap <= 0 {
		opts.DailySSNCap = DefaultDailySSNCap
	}
	if opts.SessionPullCap <= 0 {
		opts.SessionPullCap = DefaultSessionPullCap
	}
	if opts.TestCaseIDs == nil && opts.TestCases != nil {
		for _, tc := range opts.TestCases {
			opts.TestCaseIDs = append(opts.TestCaseIDs, tc.ID)
		}
	}
	return &Service{
		store: store,
		batchIn: func(ctx context.Context, fn func(tx Store) error) error {
			return store.Batch(ctx, func(tx T) error { return fn(tx) })
		},
		lenders: lenders,
		keys:    keys,
		opts:    opts,
		now:     opts.Now,
		log:     opts.Logger,
		locs:    make(map[string]cachedLocation),

		locsByEK: make(map[string]cachedLocation),
	}
}

// Env returns the environment the service runs in.
func (s *Service) Env() string { return s.opts.Env }

// Caller is who makes a call and what the call carries: the live session
// AuthenticateCall found, and the request facts the service records with
// consents, uses for idempotency and counts dates from. Everything a call
// needs travels here, in the open, never in its context.
type Caller struct {
	Session *chairside.Session
	// IP and UserAgent are recorded with consents (never logged).
	IP        string
	UserAgent string
	// IdempotencyKey is the client's optional Idempotency-Key header.
	IdempotencyKey string
	// Zone is the patient's time zone (flow/timezone.go); nil counts
	// from the server's day.
	Zone *time.Location
	// Language is the language of the patient's screens for this call
	// (English when zero): what the lenders and the documents say to the
	// patient is asked for in it (docs/languages.md).
	Language locale.Language

	// touch is the move of Session.LastSeenAt that AuthenticateCall left
	// for the call's first write (batch) or for SettleTouch; nil when none
	// is due.
	touch *pendingTouch
}

// SessionHash returns the first 12 characters of a session id (itself a
// hash of the browser's id): enough to follow one session through the logs,
// useless to take it over.
func SessionHash(id string) string {
	if len(id) > 12 {
		return id[:12]
	}
	return id
}

// event appends an audit event. Events never carry personal data. A failure
// is logged, not returned: the step it records already happened.
func (s *Service) event(ctx context.Context, sess *chairside.Session, lenderKey, typ string, data map[string]any) {
	s.eventIn(ctx, s.store, sess, lenderKey, typ, data)
}

// eventIn is event on st, the store or a batch of it.
func (s *Service) eventIn(ctx context.Context, st Store, sess *chairside.Session, lenderKey, typ string, data map[string]any) {
	e := &chairside.Event{
		ID:            newID(),
		SessionID:     sess.ID,
		ApplicationID: sess.ApplicationID,
		LenderKey:     lenderKey,
		Type:          typ,
		Data:          data,
		CreatedAt:     s.now().UTC(),
	}
	if err := st.AppendEvent(context.WithoutCancel(ctx), e); err != nil {
		s.log.Error("append event", "session", SessionHash(sess.ID), "type", typ, "err", err)
	}
}

// Now is the service's clock, for the layers that check times against it
// (a webhook's signature).
func (s *Service) Now() time.Time { return s.now() }

// batch runs a step's writes in one batch of the store (one commit). The
// first batch of a patient's call (c; nil for a lender's news or a poll)
// also writes the move of the session's LastSeenAt that AuthenticateCall
// left pending, in the same commit.
//
// A batch whose lender call was taken over before it could settle
// (settleCall) answers errClaimLost: the store answers that when the
// batch ends, not at the settle (store/sql.go, later).
func (s *Service) batch(ctx context.Context, c *Caller, fn func(st Store) error) error {
	err := s.batchTouching(ctx, c, fn)
	if errors.Is(err, chairside.ErrCallTakenOver) {
		return errClaimLost
	}
	return err
}

// batchTouching is batch with the session's pending touch.
func (s *Service) batchTouching(ctx context.Context, c *Caller, fn func(st Store) error) error {
	var t *pendingTouch
	if c != nil {
		t = c.touch
	}
	if t == nil || !t.take() {
		return s.batchIn(ctx, fn)
	}
	err := s.batchIn(ctx, func(st Store) error {
		if err := fn(st); err != nil {
			return err
		}
		return st.TouchSession(ctx, t.session, t.at)
	})
	if err != nil {
		t.untake() // nothing of the batch was kept; SettleTouch writes it
	}
	return err
}

// newID returns a random 128-bit id in hex.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// sha256Hex returns the hex SHA-256 of s.
func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// errorf is chairside.Errorf returning the error interface, for brevity.
func errorf(code, format string, args ...any) error {
	return chairside.Errorf(code, format, args...)
}

// isCode reports whether err carries the chairside error code.
func isCode(err error, code string) bool {
	return err != nil && chairside.ErrorCode(err) == code
}

// Package lendersim is a lender simulator: an HTTP server that speaks our
// lender protocol (package lender/protocol) for all eleven products under
// /lenders/{providerKey}/…, so that the HTTP adapter (lender/httplender),
// the server and the browser can be tried against a lender that sits
// behind a network (docs/lender-protocol.md, "The simulator").
//
// Decisions, plans, documents and quizzes come from the built-in sandbox
// (lender/sandbox), reached through its lenders with every step. What a real lender
// adds, the simulator adds in memory: applications by id and by platform
// reference, an idempotency store, pending applications that a timer
// approves and announces by signed webhook, the money of completed
// applications followed and announced by webhook (funding.go), and faults
// (slow answers, 503s, garbage, dropped connections, webhooks repeated,
// late, out of order or missing) that tests and people set at run time.
// Counters let tests see what reached it.
package lendersim

import (
	"context"
	"crypto/subtle"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/lender/sandbox"
)

// Defaults of Options.
const (
	DefaultPendingFor      = 5 * time.Second
	DefaultWebhookAttempts = 5
	DefaultWebhookBackoff  = time.Second
)

// Operation names of the counters and fault filters: the lender.Op…
// names of the adapter, and these two of the simulator's own.
const (
	OpLookup      = "lookup"             // GET /applications?platformReference=…
	OpCreditLimit = lender.OpCreditLimit // POST /applications/{id}/credit-limit
)

// Options configure a Sim. The zero value serves without credentials and
// sends no webhooks.
type Options struct {
	// APIKey, when set, must come as "Authorization: Bearer <APIKey>";
	// APISecret, when set, as X-Api-Secret. Anything else answers 401.
	APIKey, APISecret string
	// WebhookURL is where events go, "{providerKey}" replaced by the
	// lender's key; "" sends none. WebhookSecret signs them.
	WebhookURL    string
	WebhookSecret string
	// PendingFor is how long a pending application stays pending before
	// the simulator approves it.
	PendingFor time.Duration
	// WebhookAttempts and WebhookBackoff bound the deliveries of one
	// event: the wait doubles after each failed attempt.
	WebhookAttempts int
	WebhookBackoff  time.Duration
	// RetryAfter, when set, goes with every 503 as its Retry-After
	// header, in whole seconds rounded up.
	RetryAfter time.Duration
	// Client sends the webhooks; nil for one with a short time-out.
	Client *http.Client
	// Logger is told of webhook deliveries and advanced applications.
	Logger *slog.Logger
	// FundingDay is how long a business day of the lenders' funding lasts
	// (sandbox.Options.FundingDay); zero counts real business days.
	FundingDay time.Duration
}

// Sim is the simulator. It implements http.Handler; Close stops its
// timers and webhook deliveries.
type Sim struct {
	opts Options
	sb   *sandbox.Sandbox
	mux  *http.ServeMux
	log  *slog.Logger

	ctx    context.Context // ends at Close: stops timers and deliveries
	cancel context.CancelFunc
	wg     sync.WaitGroup

	changeMu sync.Mutex // one void or refund at a time (funding.go)

	mu      sync.Mutex
	apps    map[string]*application // by lender and lender application id
	byRef   map[string]*application // by lender and platform reference
	idem    map[string]*idemEntry   // by lender and Idempotency-Key
	faults  map[string]*Fault       // by lender
	creates map[string]int          // by lender and platform reference
	hits    map[string]int          // by lender and operation
	// deliveries are the webhooks delivered, by lender, in the order
	// their receiver answered; heldBack the events a webhook-reorder
	// fault holds, by lender.
	deliveries map[string][]Delivery
	heldBack   map[string][]outgoing
	// tail holds, per lender, a channel closed once the lender's latest
	// delivery in order is done: each event waits for the one before it,
	// as a lender's webhook queue sends them (a late or reordered event is
	// the fault that breaks the order on purpose).
	tail   map[string]chan struct{}
	timers []*time.Timer
}

// New returns a simulator.
func New(opts Options) *Sim {
	if opts.PendingFor <= 0 {
		opts.PendingFor = DefaultPendingFor
	}
	if opts.WebhookAttempts <= 0 {
		opts.WebhookAttempts = DefaultWebhookAttempts
	}
	if opts.WebhookBackoff <= 0 {
		opts.WebhookBackoff = DefaultWebhookBackoff
	}
	if opts.Client == nil {
		opts.Client = &http.Client{Timeout: 10 * time.Second}
	}
	s := &Sim{
		opts: opts, sb: sandbox.New(sandbox.Options{FundingDay: opts.FundingDay}), log: opts.Logger,
		apps: map[string]*application{}, byRef: map[string]*application{}, idem: map[string]*idemEntry{},
		faults: map[string]*Fault{}, creates: map[string]int{}, hits: map[string]int{},
		deliveries: map[string][]Delivery{}, heldBack: map[string][]outgoing{}, tail: map[string]chan struct{}{},
	}
	if s.log == nil {
		s.log = slog.New(slog.DiscardHandler)
	}
	s.ctx, s.cancel = context.WithCancel(context.Background())
	s.routes()
	return s
}

// ServeHTTP serves the protocol and the simulator's own /_sim/ endpoints.
func (s *Sim) ServeHTTP(w http.ResponseWriter, r *http.Request) { s.mux.ServeHTTP(w, r) }

// Close stops the pending timers and waits for webhook deliveries under
// way to give up.
func (s *Sim) Close() {
	s.mu.Lock()
	s.cancel() // under the lock: no delivery starts after it
	for _, t := range s.timers {
		t.Stop()
	}
	s.mu.Unlock()
	s.wg.Wait()
}

// SetWebhookURL sends the webhooks to url from now on (Options.WebhookURL):
// for a program whose address is known only once it listens.
func (s *Sim) SetWebhookURL(url string) {
	s.mu.Lock()
	s.opts.WebhookURL = url
	s.mu.Unlock()
}

// Creates is how many times a create (or a patch) with this platform
// reference actually ran at the lender, replays not counted.
func (s *Sim) Creates(lenderKey, reference string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.creates[pair(lenderKey, reference)]
}

// Hits is how many requests of an operation reached the lender, whatever
// their answer (a fault, a replay, a 401 included).
func (s *Sim) Hits(lenderKey, op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hits[pair(lenderKey, op)]
}

// Webhooks is how many webhook deliveries of the lender were answered 2xx.
func (s *Sim) Webhooks(lenderKey string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.deliveries[lenderKey])
}

// Deliveries are the lender's webhook deliveries answered 2xx, in the
// order the answers came: a test sees from them what arrived twice, or in
// which order.
func (s *Sim) Deliveries(lenderKey string) []Delivery {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.deliveries[lenderKey])
}

// Application answers the decision the lender holds for an application,
// false when it holds none.
func (s *Sim) Application(lenderKey, lenderRef string) (protocol.Decision, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	app := s.apps[pair(lenderKey, lenderRef)]
	if app == nil {
		return protocol.Decision{}, false
	}
	return *app.decision, true
}

func pair(a, b string) string { return a + "\x00" + b }

// lender is the sandbox lender of a base lender key, with every step:
// our protocol has an endpoint for each step and does not say which a
// lender uses, so the simulator answers every one for every product, by
// the sandbox's rules (docs/lender-protocol.md, "The simulator").
func (s *Sim) sandbox(key string) (lender.AllSteps, bool) {
	if base, _ := catalogue.ParseKey(key); base != key {
		return nil, false
	}
	l, err := s.sb.AllSteps(key)
	return l, err == nil
}

// authorised checks the credentials of a request, in constant time.
func (s *Sim) authorised(r *http.Request) bool {
	ok := true
	if s.opts.APIKey != "" {
		got, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		ok = subtle.ConstantTimeCompare([]byte(got), []byte(s.opts.APIKey)) == 1
	}
	if s.opts.APISecret != "" {
		ok = subtle.ConstantTimeCompare([]byte(r.Header.Get(protocol.HeaderAPISecret)), []byte(s.opts.APISecret)) == 1 && ok
	}
	return ok
}

func (s *Sim) routes() {
	s.mux = http.NewServeMux()
	const app = "/lenders/{lender}/applications/{id}/"
	for pattern, rt := range map[string]struct {
		op string
		h  handler
	}{
		"POST /lenders/{lender}/applications":     {lender.OpDecide, s.create},
		"GET /lenders/{lender}/applications":      {OpLookup, s.lookup},
		"GET /lenders/{lender}/applications/{id}": {lender.OpStatus, s.status},
		"GET /lenders/{lender}/documents/{kind}":  {lender.OpDocument, s.document},
		"GET " + app + protocol.SubPlans:          {lender.OpPlans, s.plans},
		"POST " + app + protocol.SubAccept:        {lender.OpAcceptOffer, s.accept},
		"POST " + app + protocol.SubBankAccount:   {lender.OpBankAccount, s.bankAccount},
		"POST " + app + protocol.SubBankCard:      {lender.OpBankCard, s.bankCard},
		"POST " + app + protocol.SubDownPayment:   {lender.OpDownPayment, s.downPayment},
		"POST " + app + protocol.SubContacts:      {lender.OpContact, s.contact},
		"POST " + app + protocol.SubConsents:      {lender.OpConsent, s.consent},
		"POST " + app + protocol.SubSpouse:        {lender.OpSpouse, s.spouse},
		"POST " + app + protocol.SubESign:         {lender.OpESign, s.esign},
		"POST " + app + protocol.SubComplete:      {lender.OpComplete, s.complete},
		"GET " + app + protocol.SubQuiz:           {lender.OpQuiz, s.quiz},
		"POST " + app + protocol.SubQuizAnswers:   {lender.OpAnswers, s.answers},
		"POST " + app + protocol.SubPatches:       {lender.OpPatch, s.patch},
		"GET " + app + protocol.SubStipulations:   {lender.OpStipulations, s.stipulations},
		"POST " + app + protocol.SubCreditLimit:   {OpCreditLimit, s.creditLimit},
		"GET " + app + protocol.SubFunding:        {lender.OpFunding, s.funding},
		"POST " + app + protocol.SubVoid:          {lender.OpVoid, s.void},
		"POST " + app + protocol.SubRefunds:       {lender.OpRefund, s.refund},
		"POST " + app + protocol.SubAmount:        {lender.OpAmount, s.amount},
	} {
		s.mux.Handle(pattern, s.route(rt.op, rt.h))
	}
	s.mux.HandleFunc("GET /_sim/faults", s.listFaults)
	s.mux.HandleFunc("POST /_sim/faults", s.postFault)
	s.mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		s.write(w, r.Header.Get(protocol.HeaderCorrelationID), fail(http.StatusNotFound, protocol.CodeNotFound, "No such endpoint."))
	})
}

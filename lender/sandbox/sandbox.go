// Package sandbox is the built-in lender for all eleven lender keys: a
// deterministic stand-in for each real lender product, behind
// chairside.Lender and the optional steps its product has. It decides from magic last names, named test cases or a
// credit profile simulated from the SSN, offers plans shaped like the real
// products (docs/behaviour.md, "Plans and offers"), and can be slowed down
// or made to fail
// so the rest of the system can be tested against a misbehaving lender.
//
// The sandbox is stateless: it keeps no applications in memory, so several
// server copies behind a load balancer, or one restarted, answer alike
// (docs/decisions.md, "Lenders"). Decide puts everything later calls need into
// the lenderApplicationId it returns (operation, outcome, simulated score,
// approved amount, down payment, decision date, a hash of the Reference),
// signed with a fixed sandbox HMAC key (see id.go); Plans, Status,
// AcceptOffer, ESign and Complete read it back from the id, and answer
// ENOTFOUND for an id that is not theirs, malformed or edited.
//
// Decide is a pure function of the request: the same Reference with the
// same request on the same UTC day gives the same lenderApplicationId and
// the same answer, in any process, so a retried submit finds the first
// application instead of making a second one. (A retry that changes the
// applicant's data under the same Reference gets the new data's answer;
// the flow service refuses such a retry with its lender-call records,
// docs/exactly-once.md.)
//
// What needs memory is derived or left to the caller:
//   - pending-then-approved answers pending at Decide and approved at every
//     later call (Status, Plans, the offer steps), as if approved at the
//     first status check, which is what the flow service does first;
//   - offer-step order (accept, then sign, then complete; no new plan after
//     signing) is the flow service's, which moves each step with versioned
//     records in the database. The sandbox checks only what a request shows:
//     the application has an offer, the plan code is one of the product's,
//     and ESign and Complete name a plan.
package sandbox

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"sync"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	lenderops "github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/locale"
)

// Operations, as the fault injector and the journal name them: the names
// the metrics give every lender's calls (package lender).
const (
	OpDecide       = lenderops.OpDecide
	OpPlans        = lenderops.OpPlans
	OpAcceptOffer  = lenderops.OpAcceptOffer
	OpESign        = lenderops.OpESign
	OpBankAccount  = lenderops.OpBankAccount
	OpBankCard     = lenderops.OpBankCard
	OpDownPayment  = lenderops.OpDownPayment
	OpContact      = lenderops.OpContact
	OpConsent      = lenderops.OpConsent
	OpSpouse       = lenderops.OpSpouse
	OpComplete     = lenderops.OpComplete
	OpStatus       = lenderops.OpStatus
	OpDocument     = lenderops.OpDocument
	OpQuiz         = lenderops.OpQuiz
	OpAnswers      = lenderops.OpAnswers
	OpPatch        = lenderops.OpPatch
	OpStipulations = lenderops.OpStipulations
	OpCreditLimit  = lenderops.OpCreditLimit
	OpFunding      = lenderops.OpFunding
	OpVoid         = lenderops.OpVoid
	OpRefund       = lenderops.OpRefund
	OpAmount       = lenderops.OpAmount
)

// Fault is a failure the sandbox can inject into an operation.
type Fault int

// Faults. FaultTimeout hangs until the caller's context ends (as a lender
// that never answers); FaultServerError answers like an HTTP 5xx;
// FaultMalformed like an answer that cannot be read. The last two return an
// ELENDER error, which callers turn into an error decision.
const (
	FaultNone Fault = iota
	FaultTimeout
	FaultServerError
	FaultMalformed
)

// DefaultTimeoutCap bounds how long a hang lasts when the caller's context
// has no deadline, so a forgotten timeout can never block forever.
const DefaultTimeoutCap = 30 * time.Second

// Options configure a Sandbox. The zero value answers at once, never fails.
type Options struct {
	// Latency is added to every operation (about a second in the demo, none
	// in tests); the wait ends early when the context does.
	Latency time.Duration
	// Faults, when set, is asked before every operation (op is one of the Op
	// constants) and may inject a failure.
	Faults func(op string) Fault
	// TimeoutCap bounds hangs (the Timeout magic name, FaultTimeout) when the
	// context has no deadline; DefaultTimeoutCap when zero.
	TimeoutCap time.Duration
	// Observe, when set, is told of every call as it reaches the sandbox,
	// before the latency and any fault: what a lender's own request log
	// would show. Tests count lender calls and check references with it.
	Observe func(Call)
	// Journal, when not empty, is a file to which every call is appended as
	// one JSON line (a Call), as it arrives. It outlives the process, so a
	// test that kills the server mid-call can still see what the lender
	// was asked, and with which reference.
	Journal string
	// FundingDay, when set, is how long a business day of the lenders'
	// funding lasts (funding.go): a few seconds in a demo, so that a
	// practice sees a case funded and deposited in minutes. Zero counts
	// real business days.
	FundingDay time.Duration
}

// Call is one call that reached a sandbox lender.
type Call struct {
	Time      time.Time `json:"time"`
	Op        string    `json:"op"` // one of the Op constants
	LenderKey string    `json:"lender"`
	// Reference is our platform reference for the steps that carry one
	// (decide, acceptOffer, esign, complete).
	Reference string `json:"reference,omitempty"`
}

// Sandbox holds the sandbox lenders. It keeps no applications: any two
// Sandbox values with the same options answer alike. It implements
// chairside.Lenders and is safe for concurrent use.
type Sandbox struct {
	opts      Options
	journalMu sync.Mutex
}

// New returns a Sandbox.
func New(opts Options) *Sandbox {
	if opts.TimeoutCap <= 0 {
		opts.TimeoutCap = DefaultTimeoutCap
	}
	return &Sandbox{opts: opts}
}

// Lender returns the sandbox lender of a lender key (modifiers such as
// ":role=secondary" are ignored), with the optional steps of its product
// and no others (capabilities.go). Unknown keys give ENOTFOUND.
func (s *Sandbox) Lender(lenderKey string) (chairside.Lender, error) {
	l, err := s.core(lenderKey)
	if err != nil {
		return nil, err
	}
	return withSteps[l.p.Key](l), nil
}

// AllSteps returns the sandbox lender of a lender key with every
// optional step, whatever its product has, each answered by the sandbox's
// rules: for the simulator (lender/lendersim), which speaks our lender
// protocol, where every lender has an endpoint for every step.
func (s *Sandbox) AllSteps(lenderKey string) (lenderops.AllSteps, error) {
	l, err := s.core(lenderKey)
	if err != nil {
		return nil, err
	}
	return allStepsOf(l), nil
}

// core returns the core of the sandbox lender of a lender key.
func (s *Sandbox) core(lenderKey string) (*lender, error) {
	p, err := catalogue.Get(lenderKey)
	if err != nil {
		return nil, err
	}
	return &lender{sb: s, p: p, prod: products[p.Key]}, nil
}

var _ chairside.Lenders = (*Sandbox)(nil)

// lender is the sandbox lender of one lender: its core methods, which
// every lender's lender has.
type lender struct {
	sb   *Sandbox
	p    chairside.LenderConfig
	prod *product
}

var _ chairside.Lender = (*lender)(nil)

// begin reports the call to the observers, waits the configured latency
// and applies an injected fault; every operation starts with it.
func (l *lender) begin(ctx context.Context, op, reference string) error {
	l.sb.observe(Call{Time: time.Now().UTC(), Op: op, LenderKey: l.p.Key, Reference: reference})
	return l.sb.begin(ctx, op)
}

// observe tells Observe and the journal of a call. A journal that cannot
// be written is reported on stderr and does not fail the call: it is a
// testing aid, not part of the lender's answer.
func (s *Sandbox) observe(c Call) {
	if s.opts.Observe != nil {
		s.opts.Observe(c)
	}
	if s.opts.Journal == "" {
		return
	}
	line, _ := json.Marshal(c)
	s.journalMu.Lock()
	defer s.journalMu.Unlock()
	f, err := os.OpenFile(s.opts.Journal, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o600)
	if err == nil {
		_, err = f.Write(append(line, '\n'))
		err = errors.Join(err, f.Close())
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "sandbox journal:", err)
	}
}

func (s *Sandbox) begin(ctx context.Context, op string) error {
	if err := sleep(ctx, s.opts.Latency); err != nil {
		return err
	}
	if s.opts.Faults == nil {
		return nil
	}
	switch s.opts.Faults(op) {
	case FaultTimeout:
		return s.hang(ctx)
	case FaultServerError:
		return fmt.Errorf("sandbox %s: injected HTTP 503: %w", op,
			chairside.Errorf(chairside.ELENDER, "The lender is not answering right now."))
	case FaultMalformed:
		return fmt.Errorf("sandbox %s: injected malformed answer: %w", op,
			chairside.Errorf(chairside.ELENDER, "The lender's answer could not be read."))
	}
	return nil
}

// hang waits for the context to end, as for a lender that never answers,
// but no longer than the timeout cap.
func (s *Sandbox) hang(ctx context.Context) error {
	if err := sleep(ctx, s.opts.TimeoutCap); err != nil {
		return err
	}
	return fmt.Errorf("sandbox: no answer within %s: %w", s.opts.TimeoutCap,
		chairside.Errorf(chairside.ELENDER, "The lender did not answer in time."))
}

// sleep waits d or until ctx ends, and returns ctx.Err() in the latter case.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// find reads the application an id stands for, or ENOTFOUND.
func (l *lender) find(id string) (record, error) {
	return l.parseID(id)
}

// offerable returns an application whose offer can be acted on, with its
// current answer. An application decided by the Error magic name keeps
// failing, as a lender whose system is down would. The answer is for the
// checks of a step, so its words are English; Complete, which hands its
// decision back, answers again in the call's language.
func (l *lender) offerable(id string) (record, *chairside.Decision, error) {
	r, err := l.find(id)
	if err != nil {
		return record{}, nil, err
	}
	if r.outcome == OutcomeError {
		return record{}, nil, fmt.Errorf("sandbox: application %s: %w", id,
			chairside.Errorf(chairside.ELENDER, "The lender could not process the request."))
	}
	d := l.answer(locale.English, id, r, true)
	if !chairside.Positive(d.ResponseCode) {
		return record{}, nil, chairside.Errorf(chairside.ECONFLICT, "There is no offer to accept.")
	}
	return r, d, nil
}

// checkPlan refuses a missing plan code (ECONFLICT, in the words of the
// step) and one the product does not have (ENOTFOUND).
func (l *lender) checkPlan(code, step string) error {
	if code == "" {
		return chairside.Errorf(chairside.ECONFLICT, "Choose a payment plan before %s.", step)
	}
	if !slices.Contains(l.prod.planCodes(), code) {
		return chairside.Errorf(chairside.ENOTFOUND, "Unknown payment plan.")
	}
	return nil
}

// AcceptOffer accepts a plan of a positive decision. The plan code must be
// one of the lender's. Accepting again is fine; which plan was accepted
// last, and whether the agreement is already signed, is the caller's record
// (the sandbox keeps none).
func (l *lender) AcceptOffer(ctx context.Context, req *chairside.OfferRequest) error {
	if err := l.begin(ctx, OpAcceptOffer, req.Reference); err != nil {
		return err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return err
	}
	if req.LenderPlanCode == "" {
		return chairside.Errorf(chairside.ENOTFOUND, "Unknown payment plan.")
	}
	return l.checkPlan(req.LenderPlanCode, "accepting")
}

// ESign records the signature of an offer; the request must name the plan
// signed for. Signing twice is fine. That the offer was accepted first is
// the caller's to enforce.
func (l *lender) ESign(ctx context.Context, req *chairside.OfferRequest) error {
	if err := l.begin(ctx, OpESign, req.Reference); err != nil {
		return err
	}
	if _, _, err := l.offerable(req.LenderRef); err != nil {
		return err
	}
	return l.checkPlan(req.LenderPlanCode, "signing")
}

// Complete opens the account of an offer and answers approved; the request
// must name the plan. That it was accepted and signed first is the
// caller's to enforce.
func (l *lender) Complete(ctx context.Context, req *chairside.OfferRequest) (*chairside.Decision, error) {
	if err := l.begin(ctx, OpComplete, req.Reference); err != nil {
		return nil, err
	}
	r, _, err := l.offerable(req.LenderRef)
	if err != nil {
		return nil, err
	}
	if err := l.checkPlan(req.LenderPlanCode, "completing"); err != nil {
		return nil, err
	}
	d := l.answer(language(req.Language), req.LenderRef, r, true)
	d.ResponseCode = chairside.ResponseApproved
	d.PendingReasons = []string{}
	return d, nil
}

// Status reports the current answer of an application. A pending decision
// stays pending; under the pending-then-approved outcome the answer is
// approved (every status check answers alike, the first one included).
func (l *lender) Status(ctx context.Context, req *chairside.StatusRequest) (*chairside.Decision, error) {
	if err := l.begin(ctx, OpStatus, ""); err != nil {
		return nil, err
	}
	r, err := l.find(req.LenderRef)
	if err != nil {
		return nil, err
	}
	return l.answer(language(req.Language), req.LenderRef, r, true), nil
}

// Patch answers a pending-income application's verified income: the
// application is approved for the amount it was waiting to approve. The
// answer carries a new lenderApplicationId (the record of the approval, from
// the patch's Reference, so a retry gets the same one): the sandbox keeps
// no state, so the id is what remembers the patch. Any other application,
// or another patch type, is ECONFLICT: the lender asked for nothing of it.
func (l patches) Patch(ctx context.Context, req *chairside.PatchRequest) (*chairside.Decision, error) {
	if err := l.begin(ctx, OpPatch, req.Reference); err != nil {
		return nil, err
	}
	if req.Reference == "" {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "A reference is required.")
	}
	r, err := l.find(req.LenderRef)
	if err != nil {
		return nil, err
	}
	if r.outcome != OutcomePendingIncome || req.PatchType != chairside.PatchIncome {
		return nil, chairside.Errorf(chairside.ECONFLICT, "The lender did not ask for this.")
	}
	if req.AnnualGrossIncomeCents < 0 {
		return nil, chairside.Errorf(chairside.EBADREQUEST, "The income cannot be negative.")
	}
	r.outcome, r.ref = OutcomeApproved, refHash(l.p.Key, req.Reference)
	id := l.encodeID(r)
	d := l.answer(language(req.Language), id, r, true)
	if !req.Now.IsZero() {
		d.CreatedAt = req.Now
	}
	return d, nil
}

// Stipulations answers the status of the stipulations asked about, each
// moved one step on from what the caller last heard: waiting (pending,
// open) to received, received to satisfied, satisfied stays. So refreshing
// is deterministic: a test can rely on two refreshes making a stipulation
// done. A stipulation the application does not have is ENOTFOUND.
func (l stipulations) Stipulations(ctx context.Context, req *chairside.StipulationsRequest) ([]chairside.Stipulation, error) {
	if err := l.begin(ctx, OpStipulations, ""); err != nil {
		return nil, err
	}
	r, err := l.find(req.LenderRef)
	if err != nil {
		return nil, err
	}
	have := map[string]chairside.Stipulation{}
	for _, st := range l.answer(language(req.Language), req.LenderRef, r, true).Stipulations {
		have[st.ID] = st
	}
	out := make([]chairside.Stipulation, 0, len(req.Known))
	for _, k := range req.Known {
		st, ok := have[k.ID]
		if !ok {
			return nil, chairside.Errorf(chairside.ENOTFOUND, "Unknown stipulation.")
		}
		st.Status = nextStipulationStatus(k.Status)
		out = append(out, st)
	}
	return out, nil
}

// nextStipulationStatus is where a refresh moves a stipulation's status.
func nextStipulationStatus(status string) string {
	switch status {
	case "received":
		return "satisfied"
	case "satisfied":
		return "satisfied"
	}
	return "received"
}

package flow_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// TestConcurrentSubmitsMakeOneLenderCall: a burst of the same submit on one
// session — each with its own Idempotency-Key, or none — reaches the lender
// once and leaves one decision and one authorisation, for a soft pull and a
// hard pull alike. Every answer is that decision or in_flight.
func TestConcurrentSubmitsMakeOneLenderCall(t *testing.T) {
	for _, op := range []string{flow.OpPrequalify, flow.OpApply} {
		t.Run(op, func(t *testing.T) {
			storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
				f := newFixture(t, e, flow.Options{})
				c := f.caller(t)
				req := f.request(t, c, "synchrony_standard", op, "Approve", "123450010")
				var wg sync.WaitGroup
				var mu sync.Mutex
				codes := map[string]int{}
				for i := range 20 {
					wg.Go(func() {
						cc := *c
						if i%2 == 0 {
							cc.IdempotencyKey = fmt.Sprintf("tap-%d", i)
						}
						r := *req
						resp, err := value(f.svc.Submit(context.Background(), &cc, "synchrony_standard", op, &r))
						mu.Lock()
						defer mu.Unlock()
						switch {
						case err == nil:
							codes[resp.ResponseCode]++
						default:
							codes[chairside.ErrorCode(err)]++
						}
					})
				}
				wg.Wait()
				if n, _ := f.log.count(sandbox.OpDecide); n != 1 {
					t.Fatalf("%d lender calls, want 1 (answers %v)", n, codes)
				}
				decided := 0
				for code, n := range codes {
					switch {
					case chairside.Positive(code):
						decided++
					case code != chairside.EINFLIGHT:
						t.Errorf("answers %v: %s (%d) is neither the decision nor in_flight", codes, code, n)
					}
				}
				if decided != 1 {
					t.Errorf("answers %v: want one decision", codes)
				}
				events, err := f.db.ListEvents(context.Background(), c.Session.ID)
				if err != nil {
					t.Fatal(err)
				}
				decisions := 0
				for _, ev := range events {
					if ev.Type == "decision.recorded" {
						decisions++
					}
				}
				consents, err := f.db.ListConsents(context.Background(), c.Session.ApplicationID)
				if err != nil {
					t.Fatal(err)
				}
				if decisions != 1 || len(consents) != 1 {
					t.Fatalf("%d decisions and %d consents recorded, want 1 and 1", decisions, len(consents))
				}
				// Afterwards every repeat gets the decision, without a call.
				again, err := value(f.svc.Submit(context.Background(), c, "synchrony_standard", op, req))
				if n, _ := f.log.count(sandbox.OpDecide); err != nil || !chairside.Positive(again.ResponseCode) || n != 1 {
					t.Fatalf("repeat: %v, %d lender calls", err, n)
				}
			})
		})
	}
}

// TestSSNCapHoldsAcrossParallelSessions: 20 sessions applying at once with
// one SSN make exactly as many pulls as the per-SSN cap allows.
func TestSSNCapHoldsAcrossParallelSessions(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		callers := make([]*flow.Caller, 20)
		for i := range callers {
			callers[i] = f.caller(t)
		}
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[string]int{}
		for _, c := range callers {
			wg.Go(func() {
				_, err := f.submit(t, c, "synchrony_standard", "Approve", "123450011")
				mu.Lock()
				codes[chairside.ErrorCode(err)]++
				mu.Unlock()
			})
		}
		wg.Wait()
		n, _ := f.log.count(sandbox.OpDecide)
		if n != flow.DefaultDailySSNCap || codes[""] != flow.DefaultDailySSNCap || codes[chairside.EDAILYLIMIT] != 20-flow.DefaultDailySSNCap {
			t.Fatalf("%d lender calls, answers %v; want %d calls and the rest daily_limit", n, codes, flow.DefaultDailySSNCap)
		}
	})
}

// gatedLenders holds the first call of one operation until released, as a
// lender that is slow to answer while the server dies.
type gatedLenders struct {
	chairside.Lenders
	op      string // sandbox.OpDecide or sandbox.OpAcceptOffer
	arrived chan struct{}
	release chan struct{}
	once    sync.Once
}

func (g *gatedLenders) Lender(key string) (chairside.Lender, error) {
	l, err := g.Lenders.Lender(key)
	return &gatedLender{Lender: l, g: g}, err
}

type gatedLender struct {
	chairside.Lender
	g *gatedLenders
}

// As hands out the optional steps of the lender it gates, ungated.
func (l *gatedLender) As(target any) bool { return chairside.AsStep(l.Lender, target) }

func (l *gatedLender) wait() {
	first := false
	l.g.once.Do(func() { first = true })
	if first {
		close(l.g.arrived)
		<-l.g.release
	}
}

func (l *gatedLender) Decide(ctx context.Context, req *chairside.DecisionRequest) (*chairside.Decision, error) {
	d, err := l.Lender.Decide(ctx, req)
	if l.g.op == sandbox.OpDecide {
		l.wait()
	}
	return d, err
}

func (l *gatedLender) AcceptOffer(ctx context.Context, req *chairside.OfferRequest) error {
	err := l.Lender.AcceptOffer(ctx, req)
	if l.g.op == sandbox.OpAcceptOffer {
		l.wait()
	}
	return err
}

// TestAbandonedStepIsTakenOverWithTheSameReference: a request that stops
// while the lender answers (a server killed mid-call, played here by a
// second server on the same database whose clock is past the claim's
// lease) leaves the step in flight: nothing else may happen to it, and
// only after the lease the next attempt takes it over, asking the lender
// again with the same reference. The first request, when it finally comes
// back, cannot overwrite the answer.
func TestAbandonedStepIsTakenOverWithTheSameReference(t *testing.T) {
	for _, op := range []string{sandbox.OpDecide, sandbox.OpAcceptOffer} {
		t.Run(op, func(t *testing.T) {
			storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
				f := newFixture(t, e, flow.Options{})
				ctx := context.Background()
				c := f.caller(t)
				gate := &gatedLenders{Lenders: f.lenders, op: op, arrived: make(chan struct{}), release: make(chan struct{})}
				first := flow.New(e.DB, gate, e.Keys, flow.Options{})
				late := time.Now
				second := flow.New(e.DB, f.lenders, e.Keys, flow.Options{Now: func() time.Time { return late() }})

				var code string
				if op == sandbox.OpAcceptOffer {
					if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123450012"); err != nil {
						t.Fatal(err)
					}
					code = f.confirmPlan(t, c, "synchrony_standard")
				}
				run := func(svc *flow.Service) error {
					if op == sandbox.OpDecide {
						req := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Approve", "123450012")
						_, err := svc.Submit(ctx, c, "synchrony_standard", flow.OpPrequalify, req)
						return err
					}
					_, err := svc.AcceptOffer(ctx, c, "synchrony_standard", nil)
					return err
				}
				done := make(chan error, 1)
				go func() { done <- run(first) }()
				<-gate.arrived // the lender has the first request

				// While it is in flight: the retry waits, nothing else moves.
				if err := run(second); chairside.ErrorCode(err) != chairside.EINFLIGHT || chairside.RetryAfterOf(err) <= 0 {
					t.Fatalf("retry within the lease: %v", err)
				}
				if op == sandbox.OpAcceptOffer {
					if _, err := f.svc.SelectPlan(ctx, c, "synchrony_standard", code); chairside.ErrorCode(err) != chairside.EINFLIGHT {
						t.Fatalf("plan change while accepting: %v", err)
					}
					if _, err := f.svc.Complete(ctx, c, "synchrony_standard"); chairside.ErrorCode(err) != chairside.ECONFLICT && chairside.ErrorCode(err) != chairside.EINFLIGHT {
						t.Fatalf("a later step while accepting: %v", err)
					}
				} else if _, err := f.svc.Plans(ctx, c, "synchrony_standard", 100000); err == nil {
					t.Fatal("plans before the decision is recorded")
				}

				// Past the lease the retry takes over, with the same reference.
				late = func() time.Time { return time.Now().Add(time.Minute) }
				if err := run(second); err != nil {
					t.Fatalf("takeover: %v", err)
				}
				n, refs := f.log.count(op)
				if n != 2 || len(refs) != 1 {
					t.Fatalf("lender saw %d calls with references %v; want 2 with one reference", n, refs)
				}
				// The first request comes back too late: its answer is the
				// recorded one, or in flight; it writes nothing.
				close(gate.release)
				if err := <-done; err != nil && chairside.ErrorCode(err) != chairside.EINFLIGHT {
					t.Fatalf("the abandoned request: %v", err)
				}
				pa, err := f.svc.ApplicationStatus(ctx, c, "synchrony_standard")
				if err != nil {
					t.Fatal(err)
				}
				want := chairside.StatusDecided
				if op == sandbox.OpAcceptOffer {
					want = chairside.StatusOfferAccepted
				}
				if pa.Status != want {
					t.Fatalf("status %q, want %q", pa.Status, want)
				}
			})
		})
	}
}

// TestRepeatWhileAnotherStepIsInFlight: a step is claimed before its call
// is read when nothing else is in flight (claimOrFind), and read first when
// something is; either way it answers the same. While the accept is with
// the lender, a repeat of the done prequalify with its Idempotency-Key gets
// its recorded answer, and a step never asked (complete) is refused as in
// flight, leaving no call behind.
func TestRepeatWhileAnotherStepIsInFlight(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		tap := *c
		tap.IdempotencyKey = "pq-tap"
		req := f.request(t, c, "synchrony_standard", flow.OpPrequalify, "Approve", "123450014")
		first, err := f.svc.Submit(ctx, &tap, "synchrony_standard", flow.OpPrequalify, req)
		if err != nil {
			t.Fatal(err)
		}
		firstJSON, err := first.JSON()
		if err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, "synchrony_standard")

		gate := &gatedLenders{Lenders: f.lenders, op: sandbox.OpAcceptOffer, arrived: make(chan struct{}), release: make(chan struct{})}
		done := make(chan error, 1)
		go func() {
			_, err := flow.New(e.DB, gate, e.Keys, flow.Options{}).AcceptOffer(ctx, c, "synchrony_standard", nil)
			done <- err
		}()
		<-gate.arrived // the accept is with the lender

		again, err := f.svc.Submit(ctx, &tap, "synchrony_standard", flow.OpPrequalify, req)
		if err != nil {
			t.Fatalf("the repeat while accepting: %v", err)
		}
		againJSON, err := again.JSON()
		if err != nil {
			t.Fatal(err)
		}
		if string(againJSON) != string(firstJSON) {
			t.Fatalf("the repeat is not the recorded answer:\n%s\n%s", againJSON, firstJSON)
		}
		if _, err := f.svc.Complete(ctx, c, "synchrony_standard"); chairside.ErrorCode(err) != chairside.EINFLIGHT {
			t.Fatalf("complete while accepting: %v, want in flight", err)
		}
		pa, err := e.DB.FindLenderApplication(ctx, c.Session.ApplicationID, "synchrony_standard")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := e.DB.FindLenderCall(ctx, pa.ID, chairside.StepComplete); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("complete left a call behind: %v", err)
		}
		close(gate.release)
		if err := <-done; err != nil {
			t.Fatalf("the accept: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpDecide); n != 1 {
			t.Fatalf("the lender decided %d times, want once", n)
		}
	})
}

// TestServerDecidesWhatTheBrowserShows: plan eligibility, finish outcomes
// and the bounds of every applicant field are the server's.
func TestServerDecidesWhatTheBrowserShows(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()

		// Nothing decided yet: not completed, not pending.
		c := f.caller(t)
		if _, err := f.svc.Finish(ctx, c, chairside.OutcomeCompleted); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("completed straight after start: %v", err)
		}
		if _, err := f.svc.Finish(ctx, c, chairside.OutcomePending); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("pending straight after start: %v", err)
		}

		// A plan whose minimum is above the amount cannot be chosen.
		if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123450013"); err != nil {
			t.Fatal(err)
		}
		plans, err := f.svc.Plans(ctx, c, "synchrony_standard", 100000)
		if err != nil {
			t.Fatal(err)
		}
		tooSmall := ""
		for _, p := range plans.PaymentPlans {
			if p.MinAmountCents > p.AmountFinancedCents {
				tooSmall = p.LenderPlanCode
			}
		}
		if tooSmall == "" {
			t.Fatal("no plan with a minimum above $1,000 to try")
		}
		if _, err := f.svc.SelectPlan(ctx, c, "synchrony_standard", tooSmall); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("select %s at $1,000: %v", tooSmall, err)
		}
		// An approved offer not taken is no completed financing.
		if _, err := f.svc.Finish(ctx, c, chairside.OutcomeCompleted); err != nil {
			t.Fatal(err)
		}

		// A decline ends as declined; pending needs a pending decision.
		d := f.caller(t)
		if _, err := f.submit(t, d, "synchrony_standard", "Pending", "123450014"); err != nil {
			t.Fatal(err)
		}
		if r, err := f.svc.Finish(ctx, d, chairside.OutcomePending); err != nil || r.Outcome != chairside.OutcomePending {
			t.Fatalf("pending after a pending decision: %v %v", r, err)
		}
		g := f.caller(t)
		if _, err := f.submit(t, g, "synchrony_standard", "Decline", "123450015"); err != nil {
			t.Fatal(err)
		}
		if r, err := f.svc.Finish(ctx, g, chairside.OutcomeCompleted); err != nil || r.Outcome != chairside.OutcomeDeclined {
			t.Fatalf("finish after a decline: %v %v", r, err)
		}

		// Fields the lender did not ask for are still checked.
		h := f.caller(t)
		req := f.request(t, h, "synchrony_standard", flow.OpPrequalify, "Approve", "123450016")
		req.Primary.IDNumber = strings.Repeat("A", 20000)
		req.Primary.JobTitle = "Chief\x00Officer"
		req.Primary.HousingPaymentAmount = testkit.Ptr(int64(-100))
		req.Primary.HousingMonths = testkit.Ptr(5000)
		_, err = f.svc.Submit(ctx, h, "synchrony_standard", flow.OpPrequalify, req)
		got := map[string]bool{}
		for _, fe := range chairside.FieldErrorsOf(err) {
			got[fe.Field] = true
		}
		for _, field := range []string{"primary.idNumber", "primary.jobTitle", "primary.housingPaymentAmount", "primary.housingMonths"} {
			if !got[field] {
				t.Errorf("%s was not refused: %v", field, err)
			}
		}
		if n, _ := f.log.count(sandbox.OpDecide); n != 3 {
			t.Fatalf("%d lender calls, want 3", n)
		}
	})
}

// TestCompletedJourney: the whole journey on the service, then finish
// completed is recorded as completed.
func TestCompletedJourney(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c := f.caller(t)
		if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123450017"); err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, "synchrony_standard")
		if _, err := f.svc.AcceptOffer(ctx, c, "synchrony_standard", nil); err != nil {
			t.Fatal(err)
		}
		// Complete before signing is refused.
		if _, err := f.svc.Complete(ctx, c, "synchrony_standard"); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("complete before signing: %v", err)
		}
		if _, err := f.svc.ESign(ctx, c, "synchrony_standard", f.esignRequest(t, c, "synchrony_standard", true)); err != nil {
			t.Fatal(err)
		}
		pa, err := value(f.svc.Complete(ctx, c, "synchrony_standard"))
		if err != nil || pa.Status != chairside.StatusCompleted {
			t.Fatalf("complete: %v %v", pa, err)
		}
		if r, err := f.svc.Finish(ctx, c, chairside.OutcomeCompleted); err != nil || r.Outcome != chairside.OutcomeCompleted {
			t.Fatalf("finish: %v %v", r, err)
		}
		for _, op := range []string{sandbox.OpAcceptOffer, sandbox.OpESign, sandbox.OpComplete} {
			if n, refs := f.log.count(op); n != 1 || len(refs) != 1 {
				t.Errorf("%s: %d calls, references %v", op, n, refs)
			}
		}
	})
}

// TestParallelAcceptsOneSucceeds: of 50 parallel accepts of one offer
// exactly one succeeds and reaches the lender; each other answers conflict
// or in_flight (both 409 over HTTP).
func TestParallelAcceptsOneSucceeds(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		c := f.caller(t)
		if _, err := f.submit(t, c, "synchrony_standard", "Approve", "123456784"); err != nil {
			t.Fatal(err)
		}
		f.confirmPlan(t, c, "synchrony_standard")
		var wg sync.WaitGroup
		var mu sync.Mutex
		codes := map[string]int{}
		for range 50 {
			wg.Go(func() {
				_, err := f.svc.AcceptOffer(context.Background(), c, "synchrony_standard", nil)
				mu.Lock()
				codes[chairside.ErrorCode(err)]++
				mu.Unlock()
			})
		}
		wg.Wait()
		if codes[""] != 1 || codes[chairside.ECONFLICT]+codes[chairside.EINFLIGHT] != 49 {
			t.Fatalf("answers %v, want one success and 49 conflict or in_flight", codes)
		}
		if n, _ := f.log.count(sandbox.OpAcceptOffer); n != 1 {
			t.Fatalf("%d accepts reached the lender, want 1", n)
		}
	})
}

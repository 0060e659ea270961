package httplender_test

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/lendersim"
)

// completedOverHTTP decides, accepts, signs and completes an application
// at the simulator and answers its id and the amount accepted.
func completedOverHTTP(t *testing.T, r *rig, ref string) (string, int64) {
	t.Helper()
	ctx := context.Background()
	d, err := r.l.Decide(ctx, decideReq(r.key, ref, "Approve"))
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("decide: %+v %v", d, err)
	}
	plans, err := r.l.Plans(ctx, &chairside.PlansRequest{LenderKey: r.key, LenderRef: d.LenderRef, AmountCents: 300_000})
	if err != nil || len(plans) == 0 {
		t.Fatalf("plans: %v %v", plans, err)
	}
	offer := &chairside.OfferRequest{LenderKey: r.key, LenderRef: d.LenderRef, LenderPlanCode: plans[0].LenderPlanCode,
		AmountCents: plans[0].AmountFinancedCents, Reference: ref + "-accept"}
	if err := r.l.AcceptOffer(ctx, offer); err != nil {
		t.Fatal(err)
	}
	offer.Reference = ref + "-esign"
	if err := r.l.ESign(ctx, offer); err != nil {
		t.Fatal(err)
	}
	offer.Reference = ref + "-complete"
	if _, err := r.l.Complete(ctx, offer); err != nil {
		t.Fatal(err)
	}
	return d.LenderRef, plans[0].AmountFinancedCents
}

// TestFundingAndChangesOverHTTP: over our protocol a completed application
// is first waiting, then funded with fee and net adding up to the amount
// accepted, then deposited; a void once funded is too late; a refund is
// done, and the same refund sent again (its reference is its key) answers
// the same without refunding twice; an application not completed has no
// funding to tell.
func TestFundingAndChangesOverHTTP(t *testing.T) {
	r := newRigWith(t, "synchrony_standard", lendersim.Options{FundingDay: 200 * time.Millisecond}, nil)
	ctx := context.Background()
	id, financed := completedOverHTTP(t, r, "fund-1")
	funding := func() *chairside.FundingStatus {
		t.Helper()
		st, err := r.l.Funding(ctx, &chairside.FundingRequest{LenderKey: r.key, LenderRef: id})
		if err != nil {
			t.Fatalf("funding: %v", err)
		}
		return st
	}
	if st := funding(); st.State != chairside.FundingWaiting || st.ExpectedOn.IsZero() {
		t.Fatalf("at once: %+v", st)
	}
	deadline := time.Now().Add(10 * time.Second)
	var st *chairside.FundingStatus
	for st = funding(); st.State != chairside.FundingDeposited && time.Now().Before(deadline); st = funding() {
		time.Sleep(50 * time.Millisecond)
	}
	if st.State != chairside.FundingDeposited || st.GrossCents != financed || st.FeeCents+st.NetCents != financed || st.DepositRef == "" {
		t.Fatalf("deposited: %+v (financed %d)", st, financed)
	}

	change := func(void bool, ref string, amount int64) *chairside.ChangeAnswer {
		t.Helper()
		req := &chairside.ChangeRequest{LenderKey: r.key, LenderRef: id, AmountCents: amount, Reason: "test", Reference: ref}
		var a *chairside.ChangeAnswer
		var err error
		if void {
			a, err = r.l.Void(ctx, req)
		} else {
			a, err = r.l.Refund(ctx, req)
		}
		if err != nil {
			t.Fatalf("change %s: %v", ref, err)
		}
		return a
	}
	if a := change(true, "void-1", 0); a.Status != chairside.ChangeTooLate {
		t.Fatalf("a void once funded: %+v", a)
	}
	first := change(false, "refund-1", financed-1_000)
	if first.Status != chairside.ChangeDone || first.Reference == "" || first.FeeReturnedCents <= 0 {
		t.Fatalf("refund: %+v", first)
	}
	if again := change(false, "refund-1", financed-1_000); *again != *first {
		t.Fatalf("the same refund again: %+v, first %+v", again, first)
	}
	// Only 1,000 is left: the simulator counted the first refund once.
	if _, err := r.l.Refund(ctx, &chairside.ChangeRequest{LenderKey: r.key, LenderRef: id, AmountCents: 2_000, Reason: "x", Reference: "refund-2"}); err == nil || !strings.Contains(err.Error(), "at most what is left") {
		t.Fatalf("a refund of more than is left: %v", err)
	}
	if a := change(false, "refund-3", 1_000); a.Status != chairside.ChangeDone {
		t.Fatalf("the rest: %+v", a)
	}

	d, err := r.l.Decide(ctx, decideReq(r.key, "fund-2", "Approve"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.l.Funding(ctx, &chairside.FundingRequest{LenderKey: r.key, LenderRef: d.LenderRef}); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("funding of an application not completed: %v", err)
	}
}

// TestFundingHeldOverHTTP: a case the lender holds for review reads, over
// our protocol, waiting, then held with its reason and the day it will
// fund, then funded, then deposited, never going back; each answer is
// the sandbox's own for that moment.
func TestFundingHeldOverHTTP(t *testing.T) {
	// Synchrony funds a held case four business days after completion:
	// each state lasts long enough to be read by polling.
	r := newRigWith(t, "synchrony_standard", lendersim.Options{FundingDay: 500 * time.Millisecond}, nil)
	ctx := context.Background()
	d, err := r.l.Decide(ctx, &chairside.DecisionRequest{LenderKey: r.key, Operation: "apply", Reference: "held-1", Role: "primary",
		LocationState: "NV", PurchaseAmountCents: 300_000, Primary: applicant("Approve"), TestCase: "funding-held", Now: time.Now().UTC()})
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("decide: %+v %v", d, err)
	}
	id, financed := completeOffer(t, r, d.LenderRef, "held-1")
	order := []string{chairside.FundingWaiting, chairside.FundingHeld, chairside.FundingFunded, chairside.FundingDeposited}
	var seen []string
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		st, err := r.l.Funding(ctx, &chairside.FundingRequest{LenderKey: r.key, LenderRef: id})
		if err != nil {
			t.Fatal(err)
		}
		switch st.State {
		case chairside.FundingHeld:
			if st.HeldReason == "" || st.ExpectedOn.IsZero() {
				t.Fatalf("held: %+v", st)
			}
		case chairside.FundingFunded, chairside.FundingDeposited:
			if st.GrossCents != financed || st.FeeCents+st.NetCents != financed || st.FundingRef == "" || st.DepositRef == "" {
				t.Fatalf("%s: %+v (financed %d)", st.State, st, financed)
			}
		}
		if len(seen) == 0 || seen[len(seen)-1] != st.State {
			seen = append(seen, st.State)
		}
		if st.State == chairside.FundingDeposited {
			break
		}
	}
	if !slices.Equal(seen, order) {
		t.Fatalf("states read %v, want %v", seen, order)
	}
}

// completeOffer accepts the first plan of an application for $3,000,
// signs and completes it, and answers its id and the amount financed.
func completeOffer(t *testing.T, r *rig, id, ref string) (string, int64) {
	t.Helper()
	ctx := context.Background()
	plans, err := r.l.Plans(ctx, &chairside.PlansRequest{LenderKey: r.key, LenderRef: id, AmountCents: 300_000})
	if err != nil || len(plans) == 0 {
		t.Fatalf("plans: %v %v", plans, err)
	}
	offer := &chairside.OfferRequest{LenderKey: r.key, LenderRef: id, LenderPlanCode: plans[0].LenderPlanCode,
		AmountCents: plans[0].AmountFinancedCents, Reference: ref + "-accept"}
	if err := r.l.AcceptOffer(ctx, offer); err != nil {
		t.Fatal(err)
	}
	offer.Reference = ref + "-esign"
	if err := r.l.ESign(ctx, offer); err != nil {
		t.Fatal(err)
	}
	offer.Reference = ref + "-complete"
	if _, err := r.l.Complete(ctx, offer); err != nil {
		t.Fatal(err)
	}
	return id, plans[0].AmountFinancedCents
}

// TestChangesBeforeFundingOverHTTP: with real business days the case is
// days from funding: a refund is refused (an answer, with its reason, not
// an error), a void is done under the lender's reference, and the voided
// case then has no funding to tell (409, a conflict).
func TestChangesBeforeFundingOverHTTP(t *testing.T) {
	r := newRig(t, "synchrony_standard", nil)
	ctx := context.Background()
	id, financed := completedOverHTTP(t, r, "before-1")
	if st, err := r.l.Funding(ctx, &chairside.FundingRequest{LenderKey: r.key, LenderRef: id}); err != nil || st.State != chairside.FundingWaiting || !st.ExpectedOn.After(time.Now()) {
		t.Fatalf("funding at once: %+v %v", st, err)
	}
	req := &chairside.ChangeRequest{LenderKey: r.key, LenderRef: id, AmountCents: financed / 2, Reason: "test", Reference: "before-refund"}
	if a, err := r.l.Refund(ctx, req); err != nil || a.Status != chairside.ChangeRefused || a.Message == "" || a.Reference != "" {
		t.Fatalf("a refund before funding: %+v %v", a, err)
	}
	req.AmountCents, req.Reference = 0, "before-void"
	if a, err := r.l.Void(ctx, req); err != nil || a.Status != chairside.ChangeDone || a.Reference == "" {
		t.Fatalf("a void before funding: %+v %v", a, err)
	}
	if _, err := r.l.Funding(ctx, &chairside.FundingRequest{LenderKey: r.key, LenderRef: id}); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("the funding of a voided case: %v", err)
	}
}

// TestChangesRetriedAfterLostAnswer: the lender makes a change and the
// connection drops before its answer. The adapter sends it again under
// the same Idempotency-Key (our reference) and gets the first answer: a
// refund counted once by the lender, a void done once. A funding read
// answered 503 is read again.
func TestChangesRetriedAfterLostAnswer(t *testing.T) {
	r := newRigWith(t, "synchrony_standard", lendersim.Options{FundingDay: 50 * time.Millisecond}, nil)
	ctx := context.Background()
	id, financed := completedOverHTTP(t, r, "lost-1")
	funded := false
	for deadline := time.Now().Add(10 * time.Second); !funded && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		st, err := r.l.Funding(ctx, &chairside.FundingRequest{LenderKey: r.key, LenderRef: id})
		if err != nil {
			t.Fatal(err)
		}
		funded = st.State == chairside.FundingFunded || st.State == chairside.FundingDeposited
	}
	if !funded {
		t.Fatal("never funded")
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpFunding, Count: 1})
	before := r.sim.Hits(r.key, lender.OpFunding)
	if _, err := r.l.Funding(ctx, &chairside.FundingRequest{LenderKey: r.key, LenderRef: id}); err != nil {
		t.Fatalf("funding after a 503: %v", err)
	}
	if n := r.sim.Hits(r.key, lender.OpFunding) - before; n != 2 {
		t.Fatalf("funding read %d times, want 2", n)
	}

	r.fault(t, lendersim.Fault{Kind: lendersim.FaultDrop, Op: lender.OpRefund, Count: 1})
	req := &chairside.ChangeRequest{LenderKey: r.key, LenderRef: id, AmountCents: financed - 1_000, Reason: "test", Reference: "lost-refund"}
	a, err := r.l.Refund(ctx, req)
	if err != nil || a.Status != chairside.ChangeDone || a.Reference == "" {
		t.Fatalf("a refund whose answer was lost: %+v %v", a, err)
	}
	if n := r.sim.Hits(r.key, lender.OpRefund); n != 2 {
		t.Fatalf("refund sent %d times, want 2", n)
	}
	// Counted once: 1,000 is left, not nothing.
	rest := &chairside.ChangeRequest{LenderKey: r.key, LenderRef: id, AmountCents: 1_000, Reason: "test", Reference: "lost-rest"}
	if a, err := r.l.Refund(ctx, rest); err != nil || a.Status != chairside.ChangeDone {
		t.Fatalf("the rest after a lost answer: %+v %v", a, err)
	}

	r.fault(t, lendersim.Fault{Kind: lendersim.FaultDrop, Op: lender.OpVoid, Count: 1})
	req.AmountCents, req.Reference = 0, "lost-void"
	if a, err := r.l.Void(ctx, req); err != nil || a.Status != chairside.ChangeTooLate {
		t.Fatalf("a void whose answer was lost: %+v %v", a, err)
	}
	if n := r.sim.Hits(r.key, lender.OpVoid); n != 2 {
		t.Fatalf("void sent %d times, want 2", n)
	}
}

// TestMalformedMoneyAnswers: a funding whose fee and net are not its
// gross, a funding of another application, a change answered for
// another change, and a change done without the lender's reference are
// malformed answers, not money.
func TestMalformedMoneyAnswers(t *testing.T) {
	answers := map[string]string{
		"/lenders/x/applications/A/funding": `{"applicationId":"A","state":"funded","currency":"USD","fundingRef":"F","grossCents":1000,` +
			`"feeCents":10,"netCents":900,"fundedOn":"2026-03-04T00:00:00Z","depositRef":"D","depositOn":"2026-03-05T00:00:00Z"}`,
		"/lenders/x/applications/B/funding": `{"applicationId":"A","state":"waiting","currency":"USD"}`,
		"/lenders/x/applications/A/refunds": `{"applicationId":"A","platformReference":"someone-else","status":"done","reference":"R"}`,
		"/lenders/x/applications/A/void":    `{"applicationId":"A","platformReference":"mine","status":"done"}`,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, req *http.Request) { w.Write([]byte(answers[req.URL.Path])) })
	base := newRedirectServer(t, mux) + "/lenders/x"
	l, err := httplender.New(httplender.Config{LenderKey: catalogue.Snap, BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range []string{"A", "B"} {
		_, err := l.Funding(ctx, &chairside.FundingRequest{LenderKey: catalogue.Snap, LenderRef: id})
		lenderErr(t, err, lender.KindMalformed)
	}
	req := &chairside.ChangeRequest{LenderKey: catalogue.Snap, LenderRef: "A", AmountCents: 100, Reason: "test", Reference: "mine"}
	_, err = l.Refund(ctx, req)
	lenderErr(t, err, lender.KindMalformed)
	_, err = l.Void(ctx, req)
	lenderErr(t, err, lender.KindMalformed)
}

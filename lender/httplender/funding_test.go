package httplender_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
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

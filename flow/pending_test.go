package flow_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// pendingJourney starts an application under a named test case and
// submits to the primary lender (Synchrony) under it.
func pendingJourney(t *testing.T, f *fixture, testCase string) (*flow.Caller, *flow.DecisionResponse) {
	t.Helper()
	c := f.caller(t)
	if _, err := f.svc.ApplyTestCase(context.Background(), c, testCase); err != nil {
		t.Fatal(err)
	}
	d, err := f.submit(t, c, "synchrony_standard", "Patchwork", "123450042")
	if err != nil {
		t.Fatal(err)
	}
	return c, d
}

// TestStatusPollingTransitions: a pending answer stays pending on every
// check (no new decision), and pending-then-approved is recorded approved
// at the first check, with plans to choose from.
func TestStatusPollingTransitions(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		c, d := pendingJourney(t, f, "primary-pending")
		if d.ResponseCode != chairside.ResponsePending {
			t.Fatalf("primary-pending answered %q", d.ResponseCode)
		}
		for range 2 {
			pa, err := f.svc.ApplicationStatus(ctx, c, "synchrony_standard")
			if err != nil || pa.Decision.ResponseCode != chairside.ResponsePending {
				t.Fatalf("still pending: %v %+v", err, pa)
			}
		}
		if _, err := f.svc.Plans(ctx, c, "synchrony_standard", 200_000); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("plans of a pending application: %v", err)
		}

		c2, d2 := pendingJourney(t, f, "pending-then-approved")
		if d2.ResponseCode != chairside.ResponsePending {
			t.Fatalf("pending-then-approved answered %q", d2.ResponseCode)
		}
		pa, err := f.svc.ApplicationStatus(ctx, c2, "synchrony_standard")
		if err != nil || !chairside.Positive(pa.Decision.ResponseCode) {
			t.Fatalf("after the check: %v %+v", err, pa)
		}
		f.confirmPlan(t, c2, "synchrony_standard")
	})
}

// TestPatchIncomeExactlyOnce: the income patch is checked like the form's
// income field, reaches the lender once, replays with the same
// Idempotency-Key, refuses other data and approves the application.
func TestPatchIncomeExactlyOnce(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		key := "synchrony_standard"
		c, d := pendingJourney(t, f, "patch-income")
		if d.ResponseCode != chairside.ResponsePending || len(d.Stipulations) != 1 || d.Stipulations[0].Type != chairside.PatchIncome {
			t.Fatalf("patch-income answered %+v", d)
		}
		for _, bad := range []*flow.PatchRequest{{}, {AnnualGrossIncome: testkit.Ptr(int64(-100))}, {AnnualGrossIncome: testkit.Ptr(int64(1_000_000_000))}} {
			_, err := f.svc.Patch(ctx, c, key, chairside.PatchIncome, bad)
			var ce *chairside.Error
			if chairside.ErrorCode(err) != chairside.EINVALID || !errors.As(err, &ce) || len(ce.FieldErrors) != 1 || ce.FieldErrors[0].Field != "annualGrossIncome" {
				t.Fatalf("bad income %+v: %v", bad, err)
			}
		}
		if _, err := f.svc.Patch(ctx, c, key, "shoe-size", &flow.PatchRequest{AnnualGrossIncome: testkit.Ptr(int64(6_500_000))}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("unknown patch type: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpPatch); n != 0 {
			t.Fatalf("%d patches reached the lender before a valid one", n)
		}

		c.IdempotencyKey = "patch-tap-1"
		req := &flow.PatchRequest{AnnualGrossIncome: testkit.Ptr(int64(6_500_000))}
		pa, err := value(f.svc.Patch(ctx, c, key, chairside.PatchIncome, req))
		if err != nil || !chairside.Positive(pa.Decision.ResponseCode) || pa.LenderRef == d.LenderRef {
			t.Fatalf("patch: %v %+v", err, pa)
		}
		again, err := value(f.svc.Patch(ctx, c, key, chairside.PatchIncome, req))
		if err != nil || again.LenderRef != pa.LenderRef || again.Decision.ResponseCode != pa.Decision.ResponseCode {
			t.Fatalf("replay: %v %+v", err, again)
		}
		c.IdempotencyKey = "patch-tap-2"
		if _, err := f.svc.Patch(ctx, c, key, chairside.PatchIncome, req); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("same patch, another key: %v", err)
		}
		if _, err := f.svc.Patch(ctx, c, key, chairside.PatchIncome, &flow.PatchRequest{AnnualGrossIncome: testkit.Ptr(int64(7_000_000))}); chairside.ErrorCode(err) != chairside.EIDEMPOTENCY {
			t.Fatalf("other income: %v", err)
		}
		if n, refs := f.log.count(sandbox.OpPatch); n != 1 || len(refs) != 1 {
			t.Fatalf("lender saw %d patches", n)
		}
		// The approved application goes on like any other.
		f.confirmPlan(t, c, key)
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPatchNotAsked: a lender that did not ask for the income gets no
// patch, and nothing reaches it.
func TestPatchNotAsked(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		c, _ := pendingJourney(t, f, "primary-pending")
		_, err := f.svc.Patch(context.Background(), c, "synchrony_standard", chairside.PatchIncome, &flow.PatchRequest{AnnualGrossIncome: testkit.Ptr(int64(6_500_000))})
		if chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("patch not asked for: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpPatch); n != 0 {
			t.Fatalf("%d patches reached the lender", n)
		}
	})
}

// TestExistingAccountAccepted: an existing account's offer is chosen,
// accepted, signed and completed like any approval, without a hard-pull
// authorisation (the account is there already: nothing is opened).
func TestExistingAccountAccepted(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		key := "synchrony_standard"
		c, d := pendingJourney(t, f, "existing-account")
		if !d.ExistingAccount || !chairside.Positive(d.ResponseCode) {
			t.Fatalf("existing-account answered %+v", d)
		}
		f.confirmPlan(t, c, key)
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.ESign(ctx, c, key, f.esignRequest(t, c, key, false)); err != nil {
			t.Fatal(err)
		}
		if pa, err := value(f.svc.Complete(ctx, c, key)); err != nil || pa.Status != chairside.StatusCompleted {
			t.Fatalf("complete: %v", err)
		}
	})
}

// TestExpiredOfferRefused: once an offer's expiresAt has passed, no plan
// can be fetched, chosen or accepted.
func TestExpiredOfferRefused(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		clk := &quizClock{t: time.Now().UTC()}
		f := newFixture(t, e, flow.Options{Now: clk.now})
		ctx := context.Background()
		key := "synchrony_standard"
		c := f.caller(t)
		d, err := f.submit(t, c, key, "Approve", "123450043")
		if err != nil || d.ExpiresAt == nil {
			t.Fatalf("approve: %v %+v", err, d)
		}
		code := f.confirmPlan(t, c, key)
		clk.add(d.ExpiresAt.Sub(clk.now()) + time.Second)
		if _, err := f.svc.AcceptOffer(ctx, c, key, nil); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("accept after expiry: %v", err)
		}
		if _, err := f.svc.SelectPlan(ctx, c, key, code); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("select after expiry: %v", err)
		}
		if _, err := f.svc.Plans(ctx, c, key, 200_000); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("plans after expiry: %v", err)
		}
		if n, _ := f.log.count(sandbox.OpAcceptOffer); n != 0 {
			t.Fatalf("%d accepts reached the lender", n)
		}
	})
}

// TestStipulationRefresh: a refresh moves the sandbox's stipulation on
// (waiting, received, done) and records it with the decision, which stays
// pending; one stipulation reads back as recorded; an unknown id is not
// found, and a decision that is not pending has nothing to refresh.
func TestStipulationRefresh(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		key := "synchrony_standard"
		c, d := pendingJourney(t, f, "primary-pending")
		if len(d.Stipulations) != 1 || d.Stipulations[0].State != flow.StipulationWaiting {
			t.Fatalf("stipulations: %+v", d.Stipulations)
		}
		id := d.Stipulations[0].ID
		for _, want := range []string{flow.StipulationReceived, flow.StipulationDone, flow.StipulationDone} {
			got, err := f.svc.RefreshStipulations(ctx, c, key, &flow.RefreshStipulationsRequest{StipulationIDs: []string{id}})
			if err != nil || len(got.Stipulations) != 1 || got.Stipulations[0].State != want {
				t.Fatalf("refresh, want %s: %v %+v", want, err, got)
			}
			st, err := f.svc.StipulationStatus(ctx, c, key, id)
			if err != nil || st.State != want {
				t.Fatalf("status, want %s: %v %+v", want, err, st)
			}
		}
		if all, err := f.svc.RefreshStipulations(ctx, c, key, nil); err != nil || len(all.Stipulations) != 1 {
			t.Fatalf("refresh all: %v %+v", err, all)
		}
		if pa, err := f.svc.ApplicationStatus(ctx, c, key); err != nil || pa.Decision.ResponseCode != chairside.ResponsePending {
			t.Fatalf("still pending: %v %+v", err, pa)
		}
		if _, err := f.svc.StipulationStatus(ctx, c, key, "STIP-nope"); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("unknown id: %v", err)
		}
		if _, err := f.svc.RefreshStipulations(ctx, c, key, &flow.RefreshStipulationsRequest{StipulationIDs: []string{"STIP-nope"}}); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("refresh unknown id: %v", err)
		}

		approved := f.caller(t)
		if _, err := f.submit(t, approved, key, "Approve", "123450044"); err != nil {
			t.Fatal(err)
		}
		if _, err := f.svc.RefreshStipulations(ctx, approved, key, nil); chairside.ErrorCode(err) != chairside.ECONFLICT {
			t.Fatalf("refresh of an approval: %v", err)
		}
	})
}

// TestStipulationStateRule: the one rule that reads lenders' status words.
func TestStipulationStateRule(t *testing.T) {
	for status, want := range map[string]string{
		"pending": flow.StipulationWaiting, "open": flow.StipulationWaiting, "": flow.StipulationWaiting, "whatever": flow.StipulationWaiting,
		"received": flow.StipulationReceived, "In_Review": flow.StipulationReceived,
		"satisfied": flow.StipulationDone, "closed": flow.StipulationDone, "waived": flow.StipulationDone,
	} {
		if got := flow.StipulationState(status); got != want {
			t.Errorf("StipulationState(%q) = %q, want %q", status, got, want)
		}
	}
}

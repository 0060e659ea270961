package sandbox

import (
	"context"
	"slices"
	"testing"

	"github.com/chairside/chairside"
)

// TestPendingOutcomes: the named test cases of the pending screens answer
// what each promises, and keep answering it at every status check.
func TestPendingOutcomes(t *testing.T) {
	ctx := context.Background()
	sb := New(Options{})
	for _, tt := range []struct {
		testCase, key, reason, stipType string
	}{
		{"patch-income", "synchrony_standard", ReasonIncome, chairside.PatchIncome},
		{"under-review", "synchrony_standard", ReasonRedFlag, ""},
		{"lendingclub-true-pending", "lendingclub_standard", "identity_verification", "identity_verification"},
	} {
		l := mustLender(t, sb, tt.key)
		req := request(tt.key, "apply", tt.testCase, "Anyname")
		req.Role = "primary"
		req.TestCase = tt.testCase
		d, err := l.Decide(ctx, req)
		if err != nil || d.ResponseCode != chairside.ResponsePending || !slices.Equal(d.PendingReasons, []string{tt.reason}) {
			t.Fatalf("%s: %+v %v", tt.testCase, d, err)
		}
		if got := len(d.Stipulations); (tt.stipType == "") != (got == 0) || (got > 0 && d.Stipulations[0].Type != tt.stipType) {
			t.Fatalf("%s: stipulations %+v", tt.testCase, d.Stipulations)
		}
		st, err := l.Status(ctx, &chairside.StatusRequest{LenderKey: tt.key, LenderRef: d.LenderRef})
		if err != nil || st.ResponseCode != chairside.ResponsePending {
			t.Fatalf("%s status: %+v %v", tt.testCase, st, err)
		}
	}
}

// TestPatchIncome: only a pending-income application takes the income
// patch; it answers approved with a new id whose plans exist, and the same
// reference gives the same id.
func TestPatchIncome(t *testing.T) {
	ctx := context.Background()
	const key = "synchrony_standard"
	l := mustLender(t, New(Options{}), key)
	req := request(key, "apply", "patch", "Anyname")
	req.Role, req.TestCase = "primary", "patch-income"
	d, err := l.Decide(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	patches := mustStep[chairside.Patches](t, l)
	patch := &chairside.PatchRequest{LenderKey: key, LenderRef: d.LenderRef, PatchType: chairside.PatchIncome, AnnualGrossIncomeCents: 6_500_000, Reference: "ref-patch-1"}
	p1, err := patches.Patch(ctx, patch)
	if err != nil || p1.ResponseCode != chairside.ResponseApproved || p1.LenderRef == d.LenderRef || p1.ApprovedAmountCents != d.ApprovedAmountCents {
		t.Fatalf("patch: %+v %v", p1, err)
	}
	p2, err := patches.Patch(ctx, patch)
	if err != nil || p2.LenderRef != p1.LenderRef {
		t.Fatalf("retry: %+v %v", p2, err)
	}
	if plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: key, LenderRef: p1.LenderRef, AmountCents: 200_000}); err != nil || len(plans) == 0 {
		t.Fatalf("plans after the patch: %v", err)
	}
	other := *patch
	other.PatchType = "employment"
	if _, err := patches.Patch(ctx, &other); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("another patch type: %v", err)
	}
	req.TestCase = "primary-pending"
	pending, err := l.Decide(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	other = *patch
	other.LenderRef = pending.LenderRef
	if _, err := patches.Patch(ctx, &other); chairside.ErrorCode(err) != chairside.ECONFLICT {
		t.Fatalf("a lender that did not ask: %v", err)
	}
}

// TestOfferExpired: the offer-expired case answers a positive decision
// whose expiry is already before the decision was made.
func TestOfferExpired(t *testing.T) {
	const key = "lendingclub_standard"
	l := mustLender(t, New(Options{}), key)
	req := request(key, "prequalify", "expired", "Anyname")
	req.TestCase = "offer-expired"
	d, err := l.Decide(context.Background(), req)
	if err != nil || !chairside.Positive(d.ResponseCode) || d.ExpiresAt == nil || !d.ExpiresAt.Before(d.CreatedAt) {
		t.Fatalf("offer-expired: %+v %v", d, err)
	}
}

// TestStipulationsMoveOn: each refresh moves a stipulation one step on from
// what the caller last heard; one the application does not have is unknown.
func TestStipulationsMoveOn(t *testing.T) {
	ctx := context.Background()
	const key = "synchrony_standard"
	l := mustLender(t, New(Options{}), key)
	req := request(key, "apply", "stips", "Pending")
	d, err := l.Decide(ctx, req)
	if err != nil || len(d.Stipulations) != 1 {
		t.Fatalf("decide: %+v %v", d, err)
	}
	known, stips := d.Stipulations, mustStep[chairside.Stipulations](t, l)
	for _, want := range []string{"received", "satisfied", "satisfied"} {
		got, err := stips.Stipulations(ctx, &chairside.StipulationsRequest{LenderKey: key, LenderRef: d.LenderRef, Known: known})
		if err != nil || len(got) != 1 || got[0].Status != want {
			t.Fatalf("want %s: %+v %v", want, got, err)
		}
		known = got
	}
	_, err = stips.Stipulations(ctx, &chairside.StipulationsRequest{LenderKey: key, LenderRef: d.LenderRef,
		Known: []chairside.Stipulation{{ID: "STIP-nope"}}})
	if chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Fatalf("unknown stipulation: %v", err)
	}
}

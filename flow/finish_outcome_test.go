package flow_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// TestFinishSaysWhatHappened: a session that ends without a completed
// application is recorded as what happened — declined, no offer, an offer
// past its date, an offer not taken — never as completed, which only a
// lender that completed an application earns (docs/behaviour.md,
// "Finishing").
func TestFinishSaysWhatHappened(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		f := newFixture(t, e, flow.Options{})
		ctx := context.Background()
		finish := func(c *flow.Caller) string {
			t.Helper()
			r, err := f.svc.Finish(ctx, c, chairside.OutcomeCompleted)
			if err != nil {
				t.Fatal(err)
			}
			return r.Outcome
		}
		declined := f.caller(t)
		if _, err := f.submit(t, declined, "synchrony_standard", "Decline", "123450041"); err != nil {
			t.Fatal(err)
		}
		if got := finish(declined); got != chairside.OutcomeDeclined {
			t.Errorf("after a decline: %s", got)
		}
		noOffer := f.caller(t)
		if _, err := f.submit(t, noOffer, "synchrony_standard", "Nooffer", "123450042"); err != nil {
			t.Fatal(err)
		}
		if got := finish(noOffer); got != chairside.OutcomeNoOffer {
			t.Errorf("after no offer: %s", got)
		}
		notTaken := f.caller(t)
		if _, err := f.submit(t, notTaken, "synchrony_standard", "Approve", "123450043"); err != nil {
			t.Fatal(err)
		}
		if got := finish(notTaken); got != chairside.OutcomeNoFinancing {
			t.Errorf("an offer not taken: %s", got)
		}
		if got := finish(expiredOffer(t, f, e)); got != chairside.OutcomeOfferExpired {
			t.Errorf("after an offer past its date: %s", got)
		}
	})
}

// expiredOffer answers a session at an office whose first lender,
// LendingClub, finds an offer that has already expired (test case
// offer-expired).
func expiredOffer(t *testing.T, f *fixture, e storetest.Engine) *flow.Caller {
	t.Helper()
	ctx := context.Background()
	loc := &chairside.Location{EntityKey: "1000200030006000", Name: "Hill Country Dental Care", State: "TX", GroupID: "group-100",
		Waterfall: []chairside.WaterfallStep{{LenderKey: "lendingclub_standard", Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}}}
	if err := e.DB.CreateLocation(ctx, loc); err != nil {
		t.Fatal(err)
	}
	start, err := f.svc.StartByEntityKey(ctx, loc.EntityKey, flow.StartOptions{PurchaseAmountCents: testkit.Ptr(int64(450_000))})
	if err != nil {
		t.Fatal(err)
	}
	sess, err := f.svc.Authenticate(ctx, start.Session.WebSessionID)
	if err != nil {
		t.Fatal(err)
	}
	c := &flow.Caller{Session: sess, IP: "127.0.0.1", UserAgent: "test"}
	if _, err := f.svc.ApplyTestCase(ctx, c, "offer-expired"); err != nil {
		t.Fatal(err)
	}
	if d, err := f.submit(t, c, "lendingclub_standard", "Lopez", "123450044"); err != nil || d.ExpiresAt == nil {
		t.Fatalf("expired offer: %+v %v", d, err)
	}
	return c
}

package flow_test

import (
	"context"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/store/storetest"
)

// TestReconcilerPollsPendingApplications: a pending application is polled
// once its first poll is due, not before; an approval found by the poll is
// recorded and ends the polling; one that stays pending is polled again
// later, ever more rarely.
func TestReconcilerPollsPendingApplications(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		clk := &quizClock{t: time.Now().UTC()}
		f := newFixture(t, e, flow.Options{Now: clk.now})
		ctx := context.Background()
		round := func() []flow.PollResult {
			t.Helper()
			got, err := f.svc.ReconcilePending(ctx, 10)
			if err != nil {
				t.Fatal(err)
			}
			return got
		}
		approving, _ := pendingJourney(t, f, "pending-then-approved")
		staying, _ := pendingJourney(t, f, "primary-pending")

		if got := round(); len(got) != 0 {
			t.Fatalf("polled before the first poll was due: %+v", got)
		}
		clk.add(chairside.PendingFirstPoll)
		got := round()
		if len(got) != 2 {
			t.Fatalf("first round polled %d applications, want 2: %+v", len(got), got)
		}
		results := map[string]int{}
		for _, r := range got {
			results[r.Result]++
			if r.LenderKey != "synchrony_standard" {
				t.Errorf("poll of %q", r.LenderKey)
			}
		}
		if results["changed"] != 1 || results["unchanged"] != 1 {
			t.Fatalf("first round: %+v", got)
		}
		pa, err := f.svc.LenderApplication(ctx, approving, "synchrony_standard")
		if err != nil || !chairside.Positive(pa.Decision.ResponseCode) {
			t.Fatalf("the approved application: %v %+v", err, pa)
		}
		pa, err = f.svc.LenderApplication(ctx, staying, "synchrony_standard")
		if err != nil || pa.Decision.ResponseCode != chairside.ResponsePending {
			t.Fatalf("the pending application: %v %+v", err, pa)
		}

		// The one still pending is next due twice the first wait later.
		clk.add(2*chairside.PendingFirstPoll - time.Second)
		if got := round(); len(got) != 0 {
			t.Fatalf("polled again too soon: %+v", got)
		}
		clk.add(time.Second)
		if got := round(); len(got) != 1 || got[0].Result != "unchanged" {
			t.Fatalf("second poll: %+v", got)
		}
	})
}

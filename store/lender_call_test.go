package store_test

import (
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestLenderCalls(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		c := &chairside.LenderCall{LenderApplicationID: pa.ID, Step: chairside.StepAccept, SessionID: s.ID,
			Reference: "ref-1", RequestHash: "h1", ClaimedAt: t0, LeaseUntil: t0.Add(time.Minute)}
		existing, claimed, err := db.ClaimLenderCall(ctx, c)
		must(t, err)
		if !claimed || existing != nil || c.Attempt != 1 || c.State != chairside.CallRunning {
			t.Fatalf("first claim: claimed %v, existing %+v, call %+v", claimed, existing, c)
		}
		// A second claim finds the first, running, and changes nothing.
		existing, claimed, err = db.ClaimLenderCall(ctx, &chairside.LenderCall{LenderApplicationID: pa.ID, Step: chairside.StepAccept,
			SessionID: s.ID, Reference: "ref-2", RequestHash: "h2", ClaimedAt: t0, LeaseUntil: t0.Add(time.Minute)})
		must(t, err)
		if claimed || existing.Reference != "ref-1" || existing.RequestHash != "h1" || existing.State != chairside.CallRunning || existing.Expired(t0) || !existing.Expired(t0.Add(time.Minute)) {
			t.Fatalf("second claim: claimed %v, existing %+v", claimed, existing)
		}
		// Its lease still runs: no takeover.
		early := *existing
		early.ClaimedAt, early.LeaseUntil = t0.Add(30*time.Second), t0.Add(2*time.Minute)
		wantCode(t, db.RetakeLenderCall(ctx, &early), chairside.ECONFLICT)
		// After it, a takeover moves to attempt 2; the old attempt can no
		// longer settle, the new one can.
		late := *existing
		late.ClaimedAt, late.LeaseUntil = t0.Add(2*time.Minute), t0.Add(3*time.Minute)
		must(t, db.RetakeLenderCall(ctx, &late))
		if late.Attempt != 2 {
			t.Fatalf("takeover attempt %d", late.Attempt)
		}
		c.State, c.Response = chairside.CallDone, []byte(`{"old":true}`)
		wantCode(t, db.SettleLenderCall(ctx, c), chairside.ECONFLICT)
		late.State, late.Response = chairside.CallDone, []byte(`{"status":"offer_accepted"}`)
		must(t, db.SettleLenderCall(ctx, &late))
		got, err := db.FindLenderCall(ctx, pa.ID, chairside.StepAccept)
		must(t, err)
		if got.State != chairside.CallDone || string(got.Response) != `{"status":"offer_accepted"}` || got.Attempt != 2 || got.Reference != "ref-1" || got.SettledAt == nil {
			t.Fatalf("settled call: %+v", got)
		}
		// A done call is neither taken over nor settled again.
		wantCode(t, db.RetakeLenderCall(ctx, got), chairside.ECONFLICT)
		wantCode(t, db.SettleLenderCall(ctx, &late), chairside.ECONFLICT)
		// A failed call is taken over at once.
		f := &chairside.LenderCall{LenderApplicationID: pa.ID, Step: chairside.StepESign, SessionID: s.ID,
			Reference: "ref-3", RequestHash: "h", ClaimedAt: t0, LeaseUntil: t0.Add(time.Hour)}
		_, _, err = db.ClaimLenderCall(ctx, f)
		must(t, err)
		f.State = chairside.CallFailed
		must(t, db.SettleLenderCall(ctx, f))
		must(t, db.RetakeLenderCall(ctx, f))
		if f.Attempt != 2 || f.State != chairside.CallRunning {
			t.Fatalf("retake of a failed call: %+v", f)
		}

		_, err = db.FindLenderCall(ctx, pa.ID, chairside.StepComplete)
		wantCode(t, err, chairside.ENOTFOUND)
		_, _, err = db.ClaimLenderCall(ctx, &chairside.LenderCall{LenderApplicationID: "missing", Step: chairside.StepAccept, Reference: "ref-4"})
		wantCode(t, err, chairside.ENOTFOUND)
		_, _, err = db.ClaimLenderCall(ctx, &chairside.LenderCall{})
		wantCode(t, err, chairside.EINVALID)
	})
}

// TestClaimLenderCallConcurrent: of parallel claims of one step exactly one
// claims it, on both engines.
func TestClaimLenderCallConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		var claimed atomic.Int32
		var wg sync.WaitGroup
		for i := range 30 {
			wg.Go(func() {
				ex, ok, err := db.ClaimLenderCall(ctx, &chairside.LenderCall{LenderApplicationID: pa.ID, Step: chairside.StepPrequalify,
					SessionID: s.ID, Reference: fmt.Sprintf("ref-%d", i), RequestHash: "h", ClaimedAt: t0, LeaseUntil: t0.Add(time.Minute)})
				if err != nil {
					t.Error(err)
					return
				}
				if ok {
					claimed.Add(1)
				} else if ex == nil || ex.State != chairside.CallRunning {
					t.Errorf("not claimed and no running call: %+v", ex)
				}
			})
		}
		wg.Wait()
		if claimed.Load() != 1 {
			t.Fatalf("%d claims succeeded, want 1", claimed.Load())
		}
	})
}

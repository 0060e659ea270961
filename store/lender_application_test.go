package store_test

import (
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestLenderApplications(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		if pa.Version != 1 || pa.ID == "" {
			t.Fatalf("created pa = %+v", pa)
		}
		got, err := db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if !reflect.DeepEqual(got, pa) {
			t.Fatalf("FindProviderApplication = %+v, want %+v", got, pa)
		}
		if got.Decision != nil {
			t.Fatal("decision before any was recorded")
		}
		wantCode(t, db.CreateLenderApplication(ctx, &chairside.LenderApplication{ApplicationID: a.ID, LenderKey: "synchrony_standard", Status: chairside.StatusStarted}), chairside.ECONFLICT)
		wantCode(t, db.CreateLenderApplication(ctx, &chairside.LenderApplication{ApplicationID: "missing", LenderKey: "x", Status: chairside.StatusStarted}), chairside.ENOTFOUND)

		// Update from the current version succeeds and increments it.
		db.Now = func() time.Time { return t0.Add(time.Minute) }
		got.Status, got.LenderRef, got.SelectedPlanCode = chairside.StatusPlanSelected, "L-1", "P24"
		must(t, db.UpdateLenderApplication(ctx, got))
		if got.Version != 2 || !got.UpdatedAt.Equal(t0.Add(time.Minute)) {
			t.Fatalf("after update: version %d, UpdatedAt %v", got.Version, got.UpdatedAt)
		}
		again, err := db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if !reflect.DeepEqual(again, got) {
			t.Fatalf("after update = %+v, want %+v", again, got)
		}
		// The stale copy conflicts and changes nothing.
		pa.Status = chairside.StatusCompleted
		wantCode(t, db.UpdateLenderApplication(ctx, pa), chairside.ECONFLICT)
		if pa.Version != 1 {
			t.Fatalf("failed update changed Version to %d", pa.Version)
		}
		again, _ = db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		if again.Status != chairside.StatusPlanSelected {
			t.Fatalf("stale update wrote status %q", again.Status)
		}
		wantCode(t, db.UpdateLenderApplication(ctx, &chairside.LenderApplication{ID: "missing", Version: 1}), chairside.ENOTFOUND)
		_, err = db.FindLenderApplication(ctx, a.ID, "proceed")
		wantCode(t, err, chairside.ENOTFOUND)

		// List, in creation order, each with its own latest decision.
		pa2 := &chairside.LenderApplication{ApplicationID: a.ID, LenderKey: "proceed", Role: chairside.RoleSecondary, ApplyMode: chairside.ModeFull, Status: chairside.StatusStarted, CreatedAt: t0.Add(time.Second)}
		must(t, db.CreateLenderApplication(ctx, pa2))
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: "synchrony_standard", Operation: "prequalify", ResponseCode: chairside.ResponseDeclined, CreatedAt: t0}))
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa2.ID, LenderKey: "proceed", Operation: "apply", ResponseCode: chairside.ResponseApproved, ApprovedAmountCents: 500000, CreatedAt: t0.Add(time.Second)}))
		list, err := db.ListLenderApplications(ctx, a.ID)
		must(t, err)
		if len(list) != 2 || list[0].LenderKey != "synchrony_standard" || list[1].LenderKey != "proceed" {
			t.Fatalf("ListProviderApplications = %v", list)
		}
		if list[0].Decision == nil || list[0].Decision.ResponseCode != chairside.ResponseDeclined ||
			list[1].Decision == nil || list[1].Decision.ResponseCode != chairside.ResponseApproved {
			t.Fatalf("decisions attached wrongly: %+v / %+v", list[0].Decision, list[1].Decision)
		}
		none, err := db.ListLenderApplications(ctx, "missing")
		must(t, err)
		if len(none) != 0 {
			t.Fatalf("list for a missing application = %v", none)
		}
	})
}

// TestUpdateLenderApplicationConcurrent is "50 parallel accepts → exactly
// one succeeds": every goroutine read the same version.
func TestUpdateLenderApplicationConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		const n = 50
		var ok, conflicts atomic.Int32
		var winner atomic.Value
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			mine := *pa // each request holds its own copy read at version 1
			mine.Status = chairside.StatusOfferAccepted
			mine.LenderRef = "L-" + string(rune('A'+i%26))
			wg.Go(func() {
				<-start
				err := db.UpdateLenderApplication(ctx, &mine)
				switch chairside.ErrorCode(err) {
				case "":
					ok.Add(1)
					winner.Store(mine.LenderRef)
				case chairside.ECONFLICT:
					conflicts.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		close(start)
		wg.Wait()
		if ok.Load() != 1 || conflicts.Load() != n-1 {
			t.Fatalf("%d succeeded, %d conflicted; want 1 and %d", ok.Load(), conflicts.Load(), n-1)
		}
		got, err := db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if got.Version != 2 || got.LenderRef != winner.Load() {
			t.Fatalf("stored version %d lender id %q; want 2 and the winner's %q", got.Version, got.LenderRef, winner.Load())
		}
	})
}

// TestFindLenderApplications: several lenders' applications in one query,
// each equal to FindLenderApplication's (its latest decision included, a
// later one of the same millisecond by seq), a lender without one left
// out, inside a Batch and outside, on both engines.
func TestFindLenderApplications(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		syf := newLenderApplication(t, db, a, "synchrony_standard")
		fortiva := newLenderApplication(t, db, a, "fortiva_standard")
		other := newSession(t, db, t0)
		newLenderApplication(t, db, newApplication(t, db, other, applicant("Bo", "Ng", "078051121"), nil), "fortiva_standard") // another application's
		for _, code := range []string{chairside.ResponseError, chairside.ResponseDeclined} {
			must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: syf.ID, LenderKey: "synchrony_standard", Operation: "prequalify", ResponseCode: code, CreatedAt: t0}))
		}
		check := func(st *store.DB) {
			t.Helper()
			got, err := st.FindLenderApplications(ctx, a.ID, "synchrony_standard", "fortiva_standard", "snap_standard")
			must(t, err)
			if len(got) != 2 {
				t.Fatalf("%d lender applications, want synchrony's and fortiva's: %+v", len(got), got)
			}
			for _, pa := range got {
				want, err := st.FindLenderApplication(ctx, a.ID, pa.LenderKey)
				must(t, err)
				if !reflect.DeepEqual(pa, want) {
					t.Errorf("%s = %+v\nwant %+v", pa.LenderKey, pa, want)
				}
				if pa.LenderKey == "synchrony_standard" && (pa.Decision == nil || pa.Decision.ResponseCode != chairside.ResponseDeclined) {
					t.Errorf("synchrony's decision %+v, want the later one (declined)", pa.Decision)
				}
				if pa.ID == fortiva.ID && pa.Decision != nil {
					t.Errorf("fortiva has no decision, got %+v", pa.Decision)
				}
			}
		}
		check(db)
		must(t, db.Batch(ctx, func(st *store.DB) error { check(st); return nil }))
		got, err := db.FindLenderApplications(ctx, a.ID, "snap_standard")
		must(t, err)
		if len(got) != 0 {
			t.Fatalf("a lender without an application: %+v", got)
		}
		// The counts a step asks for, whose query is written once: one lender, and two.
		if got, err := db.FindLenderApplications(ctx, a.ID, "synchrony_standard"); err != nil || len(got) != 1 || got[0].Decision.ResponseCode != chairside.ResponseDeclined {
			t.Fatalf("one lender: %+v %v", got, err)
		}
		if got, err := db.FindLenderApplications(ctx, a.ID, "fortiva_standard", "synchrony_standard"); err != nil || len(got) != 2 {
			t.Fatalf("two lenders: %+v %v", got, err)
		}
		if got, err := db.FindLenderApplications(ctx, a.ID); err != nil || got != nil {
			t.Fatalf("no lenders asked: %v %v", got, err)
		}
	})
}

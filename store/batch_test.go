package store_test

import (
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestBatch: a step's writes commit together in one transaction (on
// PostgreSQL too), answers such as a version conflict or a duplicate event
// leave the batch usable, and when fn fails nothing it wrote is kept.
func TestBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		dup := &chairside.Event{SessionID: s.ID, Type: "flow.started", CreatedAt: t0}
		must(t, db.AppendEvent(ctx, dup))

		stale := *pa
		err := db.Batch(ctx, func(st *store.DB) error {
			pa.Status = chairside.StatusPlanSelected
			must(t, st.UpdateLenderApplication(ctx, pa))
			// Answers inside the batch: a duplicate event, a stale update, a
			// second lender application for the same lender.
			wantCode(t, st.AppendEvent(ctx, dup), chairside.ECONFLICT)
			stale.Status = chairside.StatusCompleted
			wantCode(t, st.UpdateLenderApplication(ctx, &stale), chairside.ECONFLICT)
			wantCode(t, st.CreateLenderApplication(ctx, &chairside.LenderApplication{ApplicationID: a.ID, LenderKey: "synchrony_standard", Status: chairside.StatusStarted}), chairside.ECONFLICT)
			// The batch goes on after them, and reads its own writes.
			must(t, st.AppendEvent(ctx, &chairside.Event{SessionID: s.ID, Type: "plan.selected", CreatedAt: t0}))
			got, err := st.FindLenderApplication(ctx, a.ID, "synchrony_standard")
			must(t, err)
			if got.Status != chairside.StatusPlanSelected {
				t.Errorf("inside the batch: status %q", got.Status)
			}
			return nil
		})
		must(t, err)
		got, err := db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if got.Status != chairside.StatusPlanSelected || got.Version != 2 {
			t.Fatalf("after the batch: status %q version %d", got.Status, got.Version)
		}
		events, err := db.ListEvents(ctx, s.ID)
		must(t, err)
		if len(events) != 2 || events[1].Type != "plan.selected" {
			t.Fatalf("events after the batch: %v", events)
		}

		// fn's error is answered, and nothing it wrote before stays: not the
		// decision, not the event, not the pull it reserved.
		err = db.Batch(ctx, func(st *store.DB) error {
			must(t, st.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: "synchrony_standard", Operation: "prequalify", ResponseCode: chairside.ResponseApproved, CreatedAt: t0}))
			must(t, st.AppendEvent(ctx, &chairside.Event{SessionID: s.ID, Type: "decision.recorded", CreatedAt: t0}))
			if ok, err := st.ReservePull(ctx, "session:"+s.ID, 1); err != nil || !ok {
				t.Fatalf("reserve: %v %v", ok, err)
			}
			stale.Status = chairside.StatusCompleted
			return st.UpdateLenderApplication(ctx, &stale)
		})
		wantCode(t, err, chairside.ECONFLICT)
		got, err = db.FindLenderApplication(ctx, a.ID, "synchrony_standard")
		must(t, err)
		if got.Decision != nil {
			t.Fatalf("a decision written in a failed batch was kept: %+v", got.Decision)
		}
		if events, _ := db.ListEvents(ctx, s.ID); len(events) != 2 {
			t.Fatalf("an event of a failed batch was kept: %d events", len(events))
		}
		if ok, err := db.ReservePull(ctx, "session:"+s.ID, 1); err != nil || !ok {
			t.Fatalf("the pull reserved in a failed batch was kept: %v %v", ok, err)
		}
	})
}

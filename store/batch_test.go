package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestBatch: a step's writes commit together in one transaction (on
// PostgreSQL too), an answer such as a duplicate lender application leaves
// the batch usable, and when fn fails nothing it wrote is kept.
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
			// An answer inside the batch: a second lender application for
			// the same lender.
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
			must(t, st.TakePull(ctx, "session:"+s.ID, 1, func() error { return errors.New("no pull left") }))
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
		if !takePull(t, db, "session:"+s.ID, 1) {
			t.Fatal("the pull reserved in a failed batch was kept")
		}
	})
}

// TestBatchLaterVerdicts: a write sent with later (store/sql.go) answers
// nil at the call; the Batch answers its verdict at its end, on both
// engines alike, keeps nothing of fn's writes, and the statements fn sent
// after it ran as usual.
func TestBatchLaterVerdicts(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "synchrony_standard")
		dup := &chairside.Event{ID: "dup", SessionID: s.ID, Type: "flow.started", CreatedAt: t0}
		must(t, db.AppendEvent(ctx, dup))

		cases := []struct {
			name, code, message string
			write               func(st *store.DB) error
		}{
			{"a stale version", chairside.ECONFLICT, "This step was already done.", func(st *store.DB) error {
				stale := *pa
				stale.Version = 7
				return st.UpdateLenderApplication(ctx, &stale)
			}},
			{"a missing row", chairside.ENOTFOUND, "Provider application not found.", func(st *store.DB) error {
				return st.UpdateLenderApplication(ctx, &chairside.LenderApplication{ID: "missing", Version: 1})
			}},
			{"a duplicate", chairside.ECONFLICT, "This event already exists.", func(st *store.DB) error {
				return st.AppendEvent(ctx, &chairside.Event{ID: "dup", SessionID: s.ID, Type: "again", CreatedAt: t0})
			}},
			{"a missing reference", chairside.ENOTFOUND, "Provider application not found.", func(st *store.DB) error {
				return st.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: "missing", LenderKey: "synchrony_standard",
					Operation: "prequalify", ResponseCode: chairside.ResponseDeclined, CreatedAt: t0})
			}},
		}
		for _, c := range cases {
			ran := false
			err := db.Batch(ctx, func(st *store.DB) error {
				must(t, st.AppendEvent(ctx, &chairside.Event{SessionID: s.ID, Type: "before", CreatedAt: t0}))
				if err := c.write(st); err != nil {
					t.Errorf("%s: the call answered %v, want nil until the batch ends", c.name, err)
				}
				ran = true
				return nil
			})
			if !ran {
				t.Errorf("%s: the batch stopped at the write", c.name)
			}
			wantCode(t, err, c.code)
			if err != nil && !strings.Contains(err.Error(), c.message) {
				t.Errorf("%s: answered %q, want %q", c.name, err, c.message)
			}
		}
		events, err := db.ListEvents(ctx, s.ID)
		must(t, err)
		if len(events) != 1 {
			t.Fatalf("a failed batch kept its writes: %d events", len(events))
		}
		// Outside a Batch the write is a unit of its own and answers at once.
		wantCode(t, db.UpdateLenderApplication(ctx, &chairside.LenderApplication{ID: "missing", Version: 1}), chairside.ENOTFOUND)

		// A panic after a verdict is known (the read sent the stale
		// update first) is still raised again in the caller.
		func() {
			defer func() {
				if p := recover(); p != "a bug in a step" {
					t.Errorf("recovered %v, want the unit's panic", p)
				}
			}()
			db.Batch(ctx, func(st *store.DB) error {
				stale := *pa
				stale.Version = 7
				st.UpdateLenderApplication(ctx, &stale)
				st.FindLenderApplication(ctx, a.ID, "synchrony_standard")
				panic("a bug in a step")
			})
		}()
	})
}

// TestBatchRoundTrips: on PostgreSQL the writes a Batch sends with later
// leave together with its BEGIN, and its COMMIT is the only other round
// trip (store/txn.go); on SQLite each statement is one call.
func TestBatchRoundTrips(t *testing.T) {
	ctx := context.Background()
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		write := func(st *store.DB) error {
			for range 3 {
				must(t, st.AppendEvent(ctx, &chairside.Event{SessionID: s.ID, Type: "step", CreatedAt: t0}))
			}
			return nil
		}
		must(t, db.Batch(ctx, write)) // pgx prepares the statement once a connection
		before := db.RoundTrips()
		must(t, db.Batch(ctx, write))
		want := map[string]int64{store.SQLite: 5, store.Postgres: 2}[db.Engine()]
		if got := db.RoundTrips() - before; got != want {
			t.Fatalf("%d round trips for a batch of three writes, want %d", got, want)
		}
	})
}

// TestBatchOnALostConnection: when PostgreSQL ends the backend of a group
// in the middle of a step, the Batch answers an error and keeps nothing,
// and the store goes on: the writes after it, on every connection of the
// pool, all succeed (store/txn.go, end).
func TestBatchOnALostConnection(t *testing.T) {
	ctx := context.Background()
	db := storetest.Postgres(t).DB
	s := newSession(t, db, t0)
	event := func(typ string) *chairside.Event { return &chairside.Event{SessionID: s.ID, Type: typ, CreatedAt: t0} }
	err := db.Batch(ctx, func(st *store.DB) error {
		must(t, st.AppendEvent(ctx, event("lost")))
		pid, err := store.BackendPID(st) // sends the event first: the transaction is open
		must(t, err)
		if _, err := store.RawDB(db).ExecContext(ctx, `SELECT pg_terminate_backend($1)`, pid); err != nil {
			t.Fatal(err)
		}
		return st.AppendEvent(ctx, event("after"))
	})
	if err == nil {
		t.Fatal("a batch whose connection died answered nil")
	}
	for range 40 { // more than the pool's connections
		must(t, db.AppendEvent(ctx, event("again")))
	}
	events, err := db.ListEvents(ctx, s.ID)
	must(t, err)
	for _, e := range events {
		if e.Type != "again" {
			t.Fatalf("a batch that failed kept %q", e.Type)
		}
	}
	if len(events) != 40 {
		t.Fatalf("%d events after the lost connection, want 40", len(events))
	}
}

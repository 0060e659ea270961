package store_test

import (
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

func TestLenderEventsAreKeptOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		e := &chairside.LenderEvent{LenderKey: "snap_standard", EventID: "evt_1", Type: "application.updated", LenderRef: "L-1", Result: chairside.EventApplied}
		must(t, db.RecordLenderEvent(ctx, e))
		wantCode(t, db.RecordLenderEvent(ctx, &chairside.LenderEvent{LenderKey: "snap_standard", EventID: "evt_1", Type: "application.updated", Result: chairside.EventApplied}), chairside.ECONFLICT)
		// Inside a transaction a repeat leaves it usable (PostgreSQL aborts
		// a transaction on a failed insert): what follows still commits.
		must(t, db.Batch(ctx, func(tx *store.DB) error {
			wantCode(t, tx.RecordLenderEvent(ctx, &chairside.LenderEvent{LenderKey: "snap_standard", EventID: "evt_1", Type: "application.updated", Result: chairside.EventApplied}), chairside.ECONFLICT)
			return tx.RecordLenderEvent(ctx, &chairside.LenderEvent{LenderKey: "snap_standard", EventID: "evt_2", Type: "application.updated", Result: chairside.EventApplied})
		}))
		wantCode(t, db.RecordLenderEvent(ctx, &chairside.LenderEvent{LenderKey: "snap_standard", EventID: "evt_2", Type: "application.updated", Result: chairside.EventApplied}), chairside.ECONFLICT)
		// Event ids are the lender's: another lender may use the same one.
		must(t, db.RecordLenderEvent(ctx, &chairside.LenderEvent{LenderKey: "ads_standard", EventID: "evt_1", Type: "application.updated", Result: chairside.EventIgnored}))
	})
}

func TestFindByLenderRef(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "hfd_standard:role=highline_secondary")
		pa.LenderRef = "HFD-42"
		must(t, db.UpdateLenderApplication(ctx, pa))
		got, err := db.FindByLenderRef(ctx, "hfd_standard", "HFD-42")
		must(t, err)
		want := chairside.LenderApplicationRef{LenderApplicationID: pa.ID, ApplicationID: a.ID, SessionID: s.ID,
			LenderKey: "hfd_standard:role=highline_secondary", LenderRef: "HFD-42"}
		if *got != want {
			t.Fatalf("found %+v, want %+v", *got, want)
		}
		_, err = db.FindByLenderRef(ctx, "snap_standard", "HFD-42")
		wantCode(t, err, chairside.ENOTFOUND)
		_, err = db.FindByLenderRef(ctx, "hfd_standard", "")
		wantCode(t, err, chairside.ENOTFOUND)
	})
}

// A pending decision puts its application in the reconciler's queue, due
// PendingFirstPoll later; a claim moves it out of reach of other claims
// for the lease; any other decision takes it out.
func TestPendingPollsFollowDecisions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		pa := newLenderApplication(t, db, a, "snap_standard")
		pa.LenderRef = "SNAP-1"
		must(t, db.UpdateLenderApplication(ctx, pa))
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: "snap_standard", Operation: "apply",
			ResponseCode: chairside.ResponsePending, LenderRef: "SNAP-1", CreatedAt: t0}))

		claim := func(at time.Time) []*chairside.PendingPoll {
			t.Helper()
			got, err := db.ClaimPendingPolls(ctx, at, time.Minute, 10)
			must(t, err)
			return got
		}
		if got := claim(t0.Add(chairside.PendingFirstPoll - time.Millisecond)); len(got) != 0 {
			t.Fatalf("claimed %d polls before the first poll is due", len(got))
		}
		due := t0.Add(chairside.PendingFirstPoll)
		got := claim(due)
		if len(got) != 1 {
			t.Fatalf("claimed %d polls, want 1", len(got))
		}
		p := got[0]
		if p.LenderApplicationID != pa.ID || p.ApplicationID != a.ID || p.SessionID != s.ID || p.LenderKey != "snap_standard" || p.LenderRef != "SNAP-1" || p.Polls != 1 || !p.Since.Equal(t0) {
			t.Fatalf("poll = %+v", p)
		}
		if got := claim(due); len(got) != 0 {
			t.Fatal("a claimed poll was claimed again within its lease")
		}
		must(t, db.ReschedulePendingPoll(ctx, pa.ID, due.Add(time.Second)))
		if got := claim(due.Add(time.Second)); len(got) != 1 || got[0].Polls != 2 {
			t.Fatalf("rescheduled poll: %+v", got)
		}
		must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: "snap_standard", Operation: "apply",
			ResponseCode: chairside.ResponseApproved, LenderRef: "SNAP-1", CreatedAt: t0.Add(time.Hour)}))
		if got := claim(t0.Add(48 * time.Hour)); len(got) != 0 {
			t.Fatal("a decided application is still polled")
		}
	})
}

// Servers sharing a database claim every due poll exactly once between
// them.
func TestPendingPollsClaimedOnceAcrossServers(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		a := newApplication(t, db, s, applicant("Ann", "Lee", "078051120"), nil)
		const n = 8
		for _, key := range []string{"synchrony_standard", "ads_standard", "fortiva_standard", "genesis_aspen", "vive_standard", "aff_standard", "snap_standard", "hfd_standard"}[:n] {
			pa := newLenderApplication(t, db, a, key)
			must(t, db.CreateDecision(ctx, &chairside.Decision{LenderApplicationID: pa.ID, LenderKey: key, Operation: "apply", ResponseCode: chairside.ResponsePending, CreatedAt: t0}))
		}
		var mu sync.Mutex
		seen := map[string]int{}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				got, err := db.ClaimPendingPolls(ctx, t0.Add(time.Hour), time.Minute, n)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				for _, p := range got {
					seen[p.LenderApplicationID]++
				}
			})
		}
		wg.Wait()
		if len(seen) != n {
			t.Fatalf("claimed %d distinct polls, want %d", len(seen), n)
		}
		for id, c := range seen {
			if c != 1 {
				t.Fatalf("poll %s claimed %d times", id, c)
			}
		}
	})
}

func TestLeases(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		take := func(holder string, now time.Time) bool {
			t.Helper()
			ok, err := db.TakeLease(ctx, "purge", holder, now, now.Add(time.Minute))
			must(t, err)
			return ok
		}
		if !take("a", t0) {
			t.Fatal("a free lease was not taken")
		}
		if take("b", t0.Add(30*time.Second)) {
			t.Fatal("b took a lease a holds")
		}
		if !take("a", t0.Add(30*time.Second)) {
			t.Fatal("a could not renew its own lease")
		}
		if !take("b", t0.Add(91*time.Second)) {
			t.Fatal("b could not take a lease that ran out")
		}
		if take("a", t0.Add(92*time.Second)) {
			t.Fatal("a took back a lease b now holds")
		}
	})
}

// TestReady: ready with every migration applied; not when one is missing
// (a binary newer than its database) or the database is gone.
func TestReady(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		must(t, e.DB.Ready(ctx))
		raw := store.RawDB(e.DB)
		var name string
		var at int64
		if err := raw.QueryRowContext(ctx, `SELECT name, applied_at FROM schema_migrations ORDER BY name DESC LIMIT 1`).Scan(&name, &at); err != nil {
			t.Fatal(err)
		}
		if _, err := raw.ExecContext(ctx, store.Rebind(e.DB, `DELETE FROM schema_migrations WHERE name = ?`), name); err != nil {
			t.Fatal(err)
		}
		if err := e.DB.Ready(ctx); err == nil {
			t.Fatalf("ready with %s not applied", name)
		}
		if _, err := raw.ExecContext(ctx, store.Rebind(e.DB, `INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`), name, at); err != nil {
			t.Fatal(err)
		}
		must(t, e.DB.Ready(ctx))
		db2, err := store.Open(ctx, e.DSN, e.Keys)
		must(t, err)
		must(t, db2.Close())
		if err := db2.Ready(ctx); err == nil {
			t.Fatal("ready with the database closed")
		}
	})
}

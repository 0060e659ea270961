package store_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestReservePullConcurrent: parallel reservations never pass the limit.
func TestReservePullConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var taken atomic.Int32
		var wg sync.WaitGroup
		for range 25 {
			wg.Go(func() {
				err := db.Batch(ctx, func(st *store.DB) error {
					ok, err := st.ReservePull(ctx, "ssn:abc:2026-11-23", 10)
					if ok {
						taken.Add(1)
					}
					return err
				})
				if err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if taken.Load() != 10 {
			t.Fatalf("%d pulls reserved, want the limit of 10", taken.Load())
		}
		if ok, err := db.ReservePull(ctx, "ssn:abc:2026-11-24", 10); err != nil || !ok {
			t.Fatalf("another scope: %v %v", ok, err)
		}
		if ok, err := db.ReservePull(ctx, "x", 0); err != nil || ok {
			t.Fatalf("a limit of 0: %v %v", ok, err)
		}
	})
}

// TestPurgeDropsOldPullAllowances: allowances outlive the longest window a
// cap counts (a UTC day) by a day, then the purge deletes them, SSN blind
// index and all; younger ones stay.
func TestPurgeDropsOldPullAllowances(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		db.Now = func() time.Time { return t0 }
		for _, scope := range []string{"ssn:old:2026-01-01", "session:old"} {
			if ok, err := db.ReservePull(ctx, scope, 1); err != nil || !ok {
				t.Fatalf("reserve %s: %v %v", scope, ok, err)
			}
		}
		db.Now = func() time.Time { return t0.Add(47 * time.Hour) }
		if ok, err := db.ReservePull(ctx, "ssn:young:2026-01-02", 1); err != nil || !ok {
			t.Fatalf("reserve young: %v %v", ok, err)
		}
		if _, err := db.PurgePersonalData(ctx, t0); err != nil {
			t.Fatal(err)
		}
		// 47 hours on, nothing is old enough yet: the old scope stays spent.
		if ok, _ := db.ReservePull(ctx, "session:old", 1); ok {
			t.Fatal("an allowance younger than two days was purged")
		}
		db.Now = func() time.Time { return t0.Add(49 * time.Hour) }
		if _, err := db.PurgePersonalData(ctx, t0); err != nil {
			t.Fatal(err)
		}
		for scope, want := range map[string]bool{"ssn:old:2026-01-01": true, "session:old": true, "ssn:young:2026-01-02": false} {
			if ok, err := db.ReservePull(ctx, scope, 1); err != nil || ok != want {
				t.Errorf("%s after the purge: reserve = %v (%v), want %v", scope, ok, err, want)
			}
		}
	})
}

// TestTakePullFailsItsBatch: a pull taken with TakePull counts like
// ReservePull's; a spent allowance fails the Batch it is in with the
// caller's own error, asked for once and only then, and nothing of that
// Batch is kept, on both engines. On PostgreSQL the reservations leave
// together at the unit's end, then the COMMIT: two round trips, as for
// any Batch of writes (TestBatchRoundTrips), where ReservePull made one
// each.
func TestTakePullFailsItsBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		spent := errors.New("spent")
		asked := 0
		refused := func() error { asked++; return spent }
		take := func(st *store.DB) error {
			if err := st.TakePull(ctx, "session:s1", 2, refused); err != nil {
				return err
			}
			return st.TakePull(ctx, "ssn:x:2026-11-23", 5, refused)
		}
		must(t, db.Batch(ctx, take)) // pgx prepares the statement once a connection
		before := db.RoundTrips()
		must(t, db.Batch(ctx, take))
		if want := map[string]int64{store.SQLite: 4, store.Postgres: 2}[db.Engine()]; db.RoundTrips()-before != want {
			t.Fatalf("%d round trips for two pulls, want %d", db.RoundTrips()-before, want)
		}
		if asked != 0 {
			t.Fatalf("refused asked %d times while pulls were left", asked)
		}
		// The session's two pulls are spent: the third Batch fails, and its
		// pull of the SSN's allowance is undone with it.
		if err := db.Batch(ctx, take); !errors.Is(err, spent) || asked != 1 {
			t.Fatalf("third Batch: %v (refused asked %d times), want the caller's error once", err, asked)
		}
		for range 3 {
			if ok, err := db.ReservePull(ctx, "ssn:x:2026-11-23", 5); err != nil || !ok {
				t.Fatalf("the SSN's allowance after the refused Batch: %v %v, want three pulls left", ok, err)
			}
		}
		if ok, _ := db.ReservePull(ctx, "ssn:x:2026-11-23", 5); ok {
			t.Fatal("a sixth pull of five was taken")
		}
		// A limit of 0 refuses without a statement; outside a Batch the
		// error comes back at once.
		if err := db.TakePull(ctx, "none", 0, refused); !errors.Is(err, spent) {
			t.Fatalf("a limit of 0: %v", err)
		}
		if err := db.TakePull(ctx, "session:s1", 2, refused); !errors.Is(err, spent) {
			t.Fatalf("outside a Batch: %v", err)
		}
	})
}

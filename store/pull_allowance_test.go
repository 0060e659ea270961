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

// errSpent is what the tests' refusals answer.
var errSpent = errors.New("spent")

// takePull takes a pull of scope outside a Batch and answers whether one
// was left.
func takePull(t *testing.T, db *store.DB, scope string, limit int) bool {
	t.Helper()
	err := db.TakePull(ctx, scope, limit, func() error { return errSpent })
	if err != nil && !errors.Is(err, errSpent) {
		t.Fatalf("take a pull of %s: %v", scope, err)
	}
	return err == nil
}

// TestTakePullConcurrent: parallel Batches, each taking a pull of one
// scope, never pass the limit: the ones past it answer the refusal.
func TestTakePullConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var taken atomic.Int32
		var wg sync.WaitGroup
		for range 25 {
			wg.Go(func() {
				err := db.Batch(ctx, func(st *store.DB) error {
					return st.TakePull(ctx, "ssn:abc:2026-11-23", 10, func() error { return errSpent })
				})
				switch {
				case err == nil:
					taken.Add(1)
				case !errors.Is(err, errSpent):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if taken.Load() != 10 {
			t.Fatalf("%d pulls reserved, want the limit of 10", taken.Load())
		}
		if !takePull(t, db, "ssn:abc:2026-11-24", 10) {
			t.Fatal("another scope had no pull left")
		}
		if takePull(t, db, "x", 0) {
			t.Fatal("a limit of 0 gave a pull")
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
			if !takePull(t, db, scope, 1) {
				t.Fatalf("reserve %s: none left", scope)
			}
		}
		db.Now = func() time.Time { return t0.Add(47 * time.Hour) }
		if !takePull(t, db, "ssn:young:2026-01-02", 1) {
			t.Fatal("reserve young: none left")
		}
		if _, err := db.PurgePersonalData(ctx, t0); err != nil {
			t.Fatal(err)
		}
		// 47 hours on, nothing is old enough yet: the old scope stays spent.
		if takePull(t, db, "session:old", 1) {
			t.Fatal("an allowance younger than two days was purged")
		}
		db.Now = func() time.Time { return t0.Add(49 * time.Hour) }
		if _, err := db.PurgePersonalData(ctx, t0); err != nil {
			t.Fatal(err)
		}
		for scope, want := range map[string]bool{"ssn:old:2026-01-01": true, "session:old": true, "ssn:young:2026-01-02": false} {
			if ok := takePull(t, db, scope, 1); ok != want {
				t.Errorf("%s after the purge: a pull taken = %v, want %v", scope, ok, want)
			}
		}
	})
}

// TestTakePullFailsItsBatch: a spent allowance fails the Batch it is in with the
// caller's own error (the first refused one, when several are),
// asked for once and only then, and nothing of that
// Batch is kept, on both engines. On PostgreSQL the reservations leave
// together at the unit's end, then the COMMIT: two round trips, as for
// any Batch of writes (TestBatchRoundTrips), not one more for each pull.
func TestTakePullFailsItsBatch(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		asked := 0
		refused := func() error { asked++; return errSpent }
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
		if err := db.Batch(ctx, take); !errors.Is(err, errSpent) || asked != 1 {
			t.Fatalf("third Batch: %v (refused asked %d times), want the caller's error once", err, asked)
		}
		for range 3 {
			if !takePull(t, db, "ssn:x:2026-11-23", 5) {
				t.Fatal("the SSN's allowance after the refused Batch: want three pulls left")
			}
		}
		if takePull(t, db, "ssn:x:2026-11-23", 5) {
			t.Fatal("a sixth pull of five was taken")
		}
		// Both allowances spent: the first refused one is the Batch's answer
		// (the flow asks the session's first, so its cap speaks first).
		first, second := errors.New("first"), errors.New("second")
		takePull(t, db, "a", 1)
		takePull(t, db, "b", 1)
		err := db.Batch(ctx, func(st *store.DB) error {
			must(t, st.TakePull(ctx, "a", 1, func() error { return first }))
			return st.TakePull(ctx, "b", 1, func() error { return second })
		})
		if !errors.Is(err, first) {
			t.Fatalf("both spent: %v, want the first refusal", err)
		}
		// A limit of 0 refuses without a statement; outside a Batch the
		// error comes back at once.
		if err := db.TakePull(ctx, "none", 0, refused); !errors.Is(err, errSpent) {
			t.Fatalf("a limit of 0: %v", err)
		}
		if err := db.TakePull(ctx, "session:s1", 2, refused); !errors.Is(err, errSpent) {
			t.Fatalf("outside a Batch: %v", err)
		}
	})
}

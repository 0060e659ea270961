package store_test

import (
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestSignInTries: a scope's tries are taken before their passwords are
// checked; the fifth locks it for the window, a locked scope takes none,
// another scope is untouched, a cleared one starts again, and the count
// starts again once the lock or the window has passed.
func TestSignInTries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		const window = 15 * time.Minute
		now := t0
		reserve := func(scope string) (bool, time.Time) {
			t.Helper()
			ok, until, err := db.ReserveSignIn(ctx, scope, 5, window, now)
			must(t, err)
			return ok, until
		}
		for i := 1; i <= 4; i++ {
			if ok, until := reserve("a"); !ok || !until.IsZero() {
				t.Fatalf("try %d: %v, locked until %v", i, ok, until)
			}
		}
		if ok, until := reserve("a"); !ok || !until.Equal(now.Add(window)) {
			t.Fatalf("fifth try: %v, locked until %v; want taken, locking until %v", ok, until, now.Add(window))
		}
		now = now.Add(window - time.Second)
		if ok, until := reserve("a"); ok || !until.Equal(t0.Add(window)) {
			t.Fatalf("while locked: %v until %v", ok, until)
		}
		if ok, _ := reserve("b"); !ok {
			t.Fatal("another scope is locked too")
		}
		now = now.Add(time.Second)
		if ok, until := reserve("a"); !ok || !until.IsZero() {
			t.Fatalf("after the lock: %v until %v, want a fresh count", ok, until)
		}
		must(t, db.ClearSignIn(ctx, "b"))
		for i := 1; i <= 4; i++ {
			if ok, until := reserve("b"); !ok || !until.IsZero() {
				t.Fatalf("cleared scope, try %d: %v until %v", i, ok, until)
			}
		}
		// Tries further apart than the window do not add up.
		now = now.Add(window + time.Second)
		if ok, until := reserve("b"); !ok || !until.IsZero() {
			t.Fatalf("after a quiet window: %v until %v", ok, until)
		}
	})
}

// TestSignInTriesAtOnce: of 100 tries of one scope at once, exactly five
// are taken and the last of them locks, on both engines.
func TestSignInTriesAtOnce(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		var (
			mu           sync.Mutex
			taken, locks int
			wg           sync.WaitGroup
		)
		for range 100 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, until, err := db.ReserveSignIn(ctx, "crowd", 5, 15*time.Minute, t0)
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				defer mu.Unlock()
				if ok {
					taken++
					if !until.IsZero() {
						locks++
					}
				}
			}()
		}
		wg.Wait()
		if taken != 5 || locks != 1 {
			t.Fatalf("100 tries at once: %d taken, %d locking; want 5 and 1", taken, locks)
		}
	})
}

// TestPurgeForgetsOldSignInTries: the purge deletes the tries of a scope
// last tried over a day ago and keeps the others.
func TestPurgeForgetsOldSignInTries(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		now := time.Now()
		for scope, at := range map[string]time.Time{"old": now.Add(-25 * time.Hour), "recent": now.Add(-time.Hour)} {
			if _, _, err := db.ReserveSignIn(ctx, scope, 5, 15*time.Minute, at); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := db.PurgePersonalData(ctx, now.Add(-72*time.Hour)); err != nil {
			t.Fatal(err)
		}
		rows, err := store.RawDB(db).QueryContext(ctx, `SELECT scope FROM sign_in_throttle ORDER BY scope`)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var left []string
		for rows.Next() {
			var s string
			must(t, rows.Scan(&s))
			left = append(left, s)
		}
		if len(left) != 1 || left[0] != "recent" {
			t.Fatalf("after the purge: %v, want [recent]", left)
		}
	})
}

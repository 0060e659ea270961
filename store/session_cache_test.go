package store_test

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestSessionCache: on SQLite the store keeps the sessions it read
// (store/session_cache.go). The store's own writes are seen by the next
// read, a write rolled back is not, and what a read answers is a copy.
func TestSessionCache(t *testing.T) {
	db := storetest.SQLite(t).DB

	// Kept: a change made behind the store's back (no other server writes
	// a SQLite database) is not read again.
	s := newSession(t, db, t0)
	_, err := db.FindSession(ctx, s.ID)
	must(t, err)
	_, err = store.RawDB(db).ExecContext(ctx, `UPDATE sessions SET outcome = 'behind' WHERE id = ?`, s.ID)
	must(t, err)
	got, err := db.FindSession(ctx, s.ID)
	must(t, err)
	if got.Outcome != "" {
		t.Fatalf("outcome %q: the session was read again, not kept", got.Outcome)
	}
	got.LastSeenAt = t0.Add(time.Hour)
	if again, _ := db.FindSession(ctx, s.ID); !again.LastSeenAt.Equal(t0) {
		t.Fatalf("LastSeenAt %v: a caller's change reached the kept session", again.LastSeenAt)
	}

	// The store's writes: seen by the very next read.
	s = newSession(t, db, t0)
	_, err = db.FindSession(ctx, s.ID)
	must(t, err)
	must(t, db.TouchSession(ctx, s.ID, t0.Add(5*time.Minute)))
	if got, _ := db.FindSession(ctx, s.ID); !got.LastSeenAt.Equal(t0.Add(5 * time.Minute)) {
		t.Fatalf("after a touch LastSeenAt = %v", got.LastSeenAt)
	}
	// … and kept again once read after it.
	_, err = store.RawDB(db).ExecContext(ctx, `UPDATE sessions SET outcome = 'behind' WHERE id = ?`, s.ID)
	must(t, err)
	if got, _ := db.FindSession(ctx, s.ID); got.Outcome != "" {
		t.Fatalf("outcome %q: the session was not kept after its touch was read", got.Outcome)
	}
	_, err = store.RawDB(db).ExecContext(ctx, `UPDATE sessions SET outcome = '' WHERE id = ?`, s.ID)
	must(t, err)
	must(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, t0.Add(6*time.Minute)))
	if got, _ := db.FindSession(ctx, s.ID); got.Outcome != chairside.OutcomeCompleted || got.Live(t0.Add(6*time.Minute)) {
		t.Fatalf("after a finish: %+v", got)
	}

	// A write inside a Batch: the Batch reads its own write, and once it
	// is rolled back everyone reads the session as it was.
	s = newSession(t, db, t0)
	_, err = db.FindSession(ctx, s.ID)
	must(t, err)
	undo := errors.New("the step failed")
	err = db.Batch(ctx, func(st *store.DB) error {
		must(t, st.FinishSession(ctx, s.ID, chairside.OutcomeCancel, t0.Add(time.Minute)))
		inside, err := st.FindSession(ctx, s.ID)
		must(t, err)
		if inside.Outcome != chairside.OutcomeCancel {
			t.Errorf("inside its Batch the finish reads as %q", inside.Outcome)
		}
		return undo
	})
	if !errors.Is(err, undo) {
		t.Fatalf("Batch answered %v", err)
	}
	if got, _ := db.FindSession(ctx, s.ID); got.Outcome != "" || got.FinishedAt != nil {
		t.Fatalf("a finish rolled back reads as %+v", got)
	}
}

// TestSessionCacheUnderLoad: while readers read a session over and over,
// its touches and its finish are seen by every read that begins after the
// write returned.
func TestSessionCacheUnderLoad(t *testing.T) {
	db := storetest.SQLite(t).DB
	for range 20 {
		s := newSession(t, db, t0)
		var seen atomic.Int64 // the newest write returned, as minutes after t0; -1 once finished
		stop := make(chan struct{})
		var wg sync.WaitGroup
		var failures atomic.Int64
		for range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for {
					select {
					case <-stop:
						return
					default:
					}
					want := seen.Load()
					got, err := db.FindSession(ctx, s.ID)
					if err != nil {
						failures.Add(1)
						return
					}
					finished := got.FinishedAt != nil
					minutes := int64(got.LastSeenAt.Sub(t0) / time.Minute)
					if (want == -1 && !finished) || (want > 0 && !finished && minutes < want) {
						failures.Add(1)
						return
					}
				}
			}()
		}
		for m := int64(1); m <= 5; m++ {
			must(t, db.TouchSession(ctx, s.ID, t0.Add(time.Duration(m)*time.Minute)))
			seen.Store(m)
		}
		must(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, t0.Add(6*time.Minute)))
		seen.Store(-1)
		time.Sleep(2 * time.Millisecond)
		close(stop)
		wg.Wait()
		if n := failures.Load(); n > 0 {
			t.Fatalf("%d reads answered a session older than a write that had returned", n)
		}
	}
}

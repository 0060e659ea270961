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

func TestSessions(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		got, err := db.FindSession(ctx, s.ID)
		must(t, err)
		want := *s
		want.LastSeenAt = t0 // defaulted to CreatedAt
		if !reflect.DeepEqual(got, &want) {
			t.Fatalf("FindSession = %+v, want %+v", got, &want)
		}
		if !got.Live(t0.Add(time.Minute)) {
			t.Fatal("new session not live")
		}
		wantCode(t, db.CreateSession(ctx, s), chairside.ECONFLICT)

		// Touch moves LastSeenAt forward, never back.
		must(t, db.TouchSession(ctx, s.ID, t0.Add(5*time.Minute)))
		must(t, db.TouchSession(ctx, s.ID, t0.Add(2*time.Minute)))
		got, _ = db.FindSession(ctx, s.ID)
		if !got.LastSeenAt.Equal(t0.Add(5 * time.Minute)) {
			t.Fatalf("LastSeenAt = %v, want %v", got.LastSeenAt, t0.Add(5*time.Minute))
		}

		// Finish once; the second finish conflicts and keeps the first.
		must(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, t0.Add(10*time.Minute)))
		wantCode(t, db.FinishSession(ctx, s.ID, chairside.OutcomeCancel, t0.Add(11*time.Minute)), chairside.ECONFLICT)
		got, err = db.FindSession(ctx, s.ID)
		must(t, err)
		if got.Outcome != chairside.OutcomeCompleted || got.FinishedAt == nil || !got.FinishedAt.Equal(t0.Add(10*time.Minute)) {
			t.Fatalf("finished session = %+v", got)
		}
		if got.Live(t0.Add(10 * time.Minute)) {
			t.Fatal("finished session still live")
		}

		_, err = db.FindSession(ctx, "missing")
		wantCode(t, err, chairside.ENOTFOUND)
		wantCode(t, db.TouchSession(ctx, "missing", t0), chairside.ENOTFOUND)
		wantCode(t, db.FinishSession(ctx, "missing", chairside.OutcomeCancel, t0), chairside.ENOTFOUND)
		wantCode(t, db.CreateSession(ctx, &chairside.Session{ID: "x", LocationID: "nope"}), chairside.ENOTFOUND)
		wantCode(t, db.CreateSession(ctx, &chairside.Session{LocationID: s.LocationID}), chairside.EINVALID)
	})
}

func TestFinishSessionConcurrent(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		s := newSession(t, db, t0)
		var ok, conflicts atomic.Int32
		var wg sync.WaitGroup
		for range 10 {
			wg.Go(func() {
				err := db.FinishSession(ctx, s.ID, chairside.OutcomeCompleted, t0.Add(time.Minute))
				switch chairside.ErrorCode(err) {
				case "":
					ok.Add(1)
				case chairside.ECONFLICT:
					conflicts.Add(1)
				default:
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if ok.Load() != 1 || conflicts.Load() != 9 {
			t.Fatalf("%d finished, %d conflicts; want 1 and 9", ok.Load(), conflicts.Load())
		}
	})
}

package store_test

import (
	"sync"
	"sync/atomic"
	"testing"

	"github.com/chairside/chairside"
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
				err := db.Batch(ctx, func(st chairside.Store) error {
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

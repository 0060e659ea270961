package main

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside/store/storetest"
)

// TestLeasedLoopRunsOnOneServer: servers sharing a database start the
// purge's loop together, and only the one that takes the lease does the
// work, on SQLite and PostgreSQL. (The lease outlasts the test, so which
// server holds it cannot change under a slow machine.)
func TestLeasedLoopRunsOnOneServer(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		ctx, cancel := context.WithCancel(context.Background())
		log := slog.New(slog.NewTextHandler(io.Discard, nil))
		var ran [3]atomic.Int64
		var wg sync.WaitGroup
		for i := range ran {
			wg.Go(func() {
				leased(ctx, e.DB, "purge", newHolder(), 10*time.Second, time.Now, log, func() { ran[i].Add(1) })
			})
		}
		time.Sleep(300 * time.Millisecond)
		cancel()
		wg.Wait()
		working := 0
		for i := range ran {
			if ran[i].Load() > 0 {
				working++
			}
		}
		if working != 1 {
			t.Fatalf("%d servers did the leased work, want 1 (rounds: %d %d %d)", working, ran[0].Load(), ran[1].Load(), ran[2].Load())
		}
	})
}

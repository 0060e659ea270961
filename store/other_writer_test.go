package store_test

import (
	"context"
	"database/sql"
	"testing"
	"time"

	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// TestWriterWaitsForAnotherWriter: the continuous backup (package backup)
// writes to the SQLite file beside the store's own writer. A unit that
// read, then wrote after the other writer had committed in between,
// failed at once with SQLITE_BUSY, a stale snapshot that no busy_timeout
// waits out, and the patient got a 500. The writer's transactions begin
// immediate, so the other writer waits for the unit instead, and both
// land.
func TestWriterWaitsForAnotherWriter(t *testing.T) {
	e := storetest.SQLite(t)
	ctx := context.Background()
	other, err := sql.Open("sqlite", "file:"+e.DSN+"?_pragma=busy_timeout(5000)")
	must(t, err)
	defer other.Close()
	_, err = other.Exec(`CREATE TABLE backup_side (n INTEGER)`)
	must(t, err)
	done := make(chan error, 1)
	err = e.DB.Batch(ctx, func(w *store.DB) error {
		if _, err := w.OptedOut(ctx, "MG-office", "+14155550134"); err != nil {
			return err
		}
		go func() {
			_, err := other.Exec(`INSERT INTO backup_side (n) VALUES (1)`)
			done <- err
		}()
		time.Sleep(300 * time.Millisecond) // the other writer's moment to commit, were it let
		return w.OptOut(ctx, "MG-office", "+14155550134", "reply", t0)
	})
	if err != nil {
		t.Fatalf("the unit beside another writer: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatalf("the other writer: %v", err)
	}
	if out, err := e.DB.OptedOut(ctx, "MG-office", "+14155550134"); err != nil || !out {
		t.Fatalf("the unit's write: %v %v", out, err)
	}
}

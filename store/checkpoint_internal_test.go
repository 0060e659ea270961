package store

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/chairside/chairside/seal"
)

// TestWriterCheckpointsAtItsOwnLength: the writer's automatic checkpoint is
// set from walAutoCheckpoint (a pragma in the writer's address, which a
// misspelling would drop without a word), and writes stay synchronous.
func TestWriterCheckpointsAtItsOwnLength(t *testing.T) {
	raw, err := seal.Generate()
	if err != nil {
		t.Fatal(err)
	}
	keys, err := seal.FromJSON(raw)
	if err != nil {
		t.Fatal(err)
	}
	db, err := Open(context.Background(), filepath.Join(t.TempDir(), "c.db"), keys)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var pages, sync int
	if err := db.db.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if err := db.db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil {
		t.Fatal(err)
	}
	if pages != walAutoCheckpoint || sync != 2 { // 2 is FULL
		t.Fatalf("writer: wal_autocheckpoint %d, synchronous %d; want %d and 2 (FULL)", pages, sync, walAutoCheckpoint)
	}
}

package store

import (
	"context"
	"database/sql"
	"sync"
)

// RawDB exposes the underlying database to this package's external tests,
// which read tables directly to prove what is (not) stored in clear.
func RawDB(db *DB) *sql.DB { return db.db }

// Rebind exposes placeholder rebinding to the external tests.
func Rebind(db *DB, q string) string { return db.rebind(q) }

// HoldWrites occupies every lane of db's committer until release is
// called, so that the units offered meanwhile queue and are committed as
// one group. Each holding unit is offered once the previous one runs: a
// lane takes everything waiting, and two holders in one group would leave
// a lane free.
func HoldWrites(db *DB) (release func()) {
	c := db.sh.commits
	gate := make(chan struct{})
	var wg sync.WaitGroup
	for range c.n {
		started := make(chan struct{})
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.do(context.Background(), func(context.Context, *txn) error {
				close(started)
				<-gate
				return nil
			})
		}()
		<-started
	}
	return func() { close(gate); wg.Wait() }
}

// PendingWrites answers how many units wait for a lane.
func PendingWrites(db *DB) int {
	c := db.sh.commits
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.pending)
}

// WalAutoCheckpoint is the writer's checkpoint length, for the external tests.
const WalAutoCheckpoint = walAutoCheckpoint

// BackendPID answers the PostgreSQL backend that a Batch view's statements
// run on, for the external tests to end it.
func BackendPID(st *DB) (pid int, err error) {
	err = st.txRow(`SELECT pg_backend_pid()`).Scan(&pid)
	return pid, err
}

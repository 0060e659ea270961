package store

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/chairside/chairside"
)

// withTx runs fn in a transaction, committing if fn succeeds. With SQLite's
// single connection, fn must use tx only: a query on db would wait forever
// for the connection tx holds.
func (db *DB) withTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if db.tx != nil {
		return fn(db.tx) // inside a Batch: part of its transaction
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// Batch runs fn with a view of the store whose statements all run in one
// transaction, committed when fn returns: a step's several writes (status,
// lender call, consent, event) are made durable together.
//
//   - On SQLite the writer is taken once for them instead of once per
//     statement.
//   - On PostgreSQL the step waits for one WAL flush (fsync) at its commit
//     instead of one per statement: with synchronous_commit on (as it must
//     be for lending records), each autocommitted statement waits for its
//     own flush, and under load those flushes queue behind each other.
//
// What each saved, measured, is in docs/performance.md ("Measurements
// behind the code").
//
// If fn returns an error the transaction is rolled back and nothing fn
// wrote is kept: a step's writes happen together or not at all. Errors fn
// meets and handles (not found, a version conflict, an insert that found
// its row taken) are answers, not failed statements, and leave the
// transaction usable. It answers fn's error, else the commit's. (If ctx is
// cancelled before the commit, database/sql rolls the batch back too;
// callers that must not lose a write pass a context without cancellation.)
func (db *DB) Batch(ctx context.Context, fn func(chairside.Store) error) error {
	if db.tx != nil {
		return fn(db)
	}
	var ferr error
	var misses []string
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		v := *db
		v.tx, v.misses = tx, &misses
		ferr = fn(&v)
		return ferr
	})
	for _, q := range misses {
		db.stmt(ctx, db.db, q) // for the next Batch
	}
	if ferr != nil {
		return ferr
	}
	return err
}

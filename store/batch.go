package store

import (
	"context"
	"database/sql"
	"fmt"
)

// rawTx runs fn in a transaction of its own on the writer pool, beside the
// committer: only for migrations, which run before the committer starts
// (Open). Everything else writes through Batch.
func (db *DB) rawTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
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
// transaction: a step's several writes (status, lender call, consent,
// event) are made durable together, or not at all.
//
// fn is one unit of work for the committer (commit.go): it shares its
// transaction, and the commit's one fsync, with the units of other
// requests that were waiting at the same time, each in its own savepoint.
// Batch answers once that commit returned: fn's error, else the verdict of
// a write fn sent with later (sql.go: a stale version, a duplicate, a
// missing row), else the commit's. If it answers an error fn's writes are
// rolled back and the other units' are kept. Errors fn meets from a
// statement sent at once and handles (an insert that found its row taken,
// a row not found) are answers, not failed statements, and leave the
// transaction usable.
//
// Once fn has started it runs to its end whatever becomes of ctx; a caller
// whose ctx ends while its unit still waits withdraws it and answers
// ctx's error. What grouping saved, measured, is in docs/performance.md.
func (db *DB) Batch(ctx context.Context, fn func(tx *DB) error) error {
	if db.tx != nil {
		return fn(db)
	}
	var misses, sessions []string
	defer func() {
		// Committed, rolled back or never run: what a read of these
		// sessions finds from now on is what the database holds
		// (session_cache.go).
		for _, id := range sessions {
			db.sh.sessions.written(id)
		}
	}()
	err := db.sh.commits.do(ctx, func(uctx context.Context, t *txn) error {
		v := *db
		v.tx, v.txCtx, v.misses, v.sessionWrites = t, uctx, &misses, &sessions
		// The verdict of the writes fn sent with later (sql.go) is known
		// once they have been sent: it is fn's answer too.
		return v.resolve(uctx, t.settle(fn(&v)))
	})
	for _, q := range misses {
		db.stmt(ctx, db.db, q) // for the next Batch
	}
	return err
}

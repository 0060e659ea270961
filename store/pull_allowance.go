package store

import (
	"context"
	"fmt"
	"time"
)

// reserveSQL takes one pull from a scope's allowance when it has one left:
// it changes a row only then.
const reserveSQL = `INSERT INTO pull_allowances (scope, pulls, created_at) VALUES (?, 1, ?)
		ON CONFLICT (scope) DO UPDATE SET pulls = pull_allowances.pulls + 1 WHERE pull_allowances.pulls < ?`

// TakePull takes one pull from scope's allowance of limit with a single
// conditional upsert. On PostgreSQL parallel reservations of one scope
// queue on its row and each sees the count the one before it left; SQLite
// has one writer. The upsert goes with later (no round trip of its own on
// PostgreSQL): a spent allowance fails the Batch it is in with refused's
// error, asked for only then, and a Batch that fails for any reason keeps
// no pull. Outside a Batch it answers that error itself.
func (db *DB) TakePull(ctx context.Context, scope string, limit int, refused func() error) error {
	if limit <= 0 {
		return refused()
	}
	return db.later(ctx, reserveSQL, []any{scope, millis(db.now()), limit}, func(n int64, err error) error {
		switch {
		case err != nil:
			return fmt.Errorf("store: reserve pull: %w", err)
		case n == 0:
			return refused()
		}
		return nil
	})
}

// allowanceKeep is how long pull allowances are kept: the longest window
// a cap counts (one UTC day) with a day to spare.
const allowanceKeep = 48 * time.Hour

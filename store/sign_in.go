package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// ReserveSignIn takes one sign-in try for scope (an email and a client
// address, hashed), before its password is checked, in one statement: at
// most max tries are taken in a window, however many arrive at once, and
// the one that takes the last locks the scope until now+window. A try
// taken counts as a failure until ClearSignIn forgets the scope (its
// password was right). It answers false, with the lock's end, when the
// scope is locked; the count starts again once the window or the lock has
// passed.
func (db *DB) ReserveSignIn(ctx context.Context, scope string, max int, window time.Duration, now time.Time) (bool, time.Time, error) {
	start, until := millis(now.Add(-window)), millis(now.Add(window))
	var firstLock sql.NullInt64
	if max <= 1 {
		firstLock = sql.NullInt64{Int64: until, Valid: true}
	}
	// The count the try makes: 1 when the last try is older than the
	// window (a lock that passed included), else one more.
	const next = `CASE WHEN sign_in_throttle.updated_at <= ? THEN 1 ELSE sign_in_throttle.failures + 1 END`
	// A NULL parameter has no type PostgreSQL can infer: the CASTs give it.
	var (
		locked sql.NullInt64
		taken  = true
	)
	// One unit: a refused try reads the lock's end in the same
	// transaction as the statement that found it, never another view.
	err := db.Batch(ctx, func(w *DB) error {
		err := w.writeRow(ctx, `INSERT INTO sign_in_throttle (scope, failures, locked_until, updated_at) VALUES (?, 1, CAST(? AS BIGINT), ?)
			ON CONFLICT (scope) DO UPDATE SET
				failures = `+next+`,
				locked_until = CASE WHEN `+next+` >= ? THEN CAST(? AS BIGINT) ELSE NULL END,
				updated_at = ?
			WHERE sign_in_throttle.locked_until IS NULL OR sign_in_throttle.locked_until <= ?
			RETURNING locked_until`,
			scope, firstLock, millis(now), start, start, max, until, millis(now), millis(now)).Scan(&locked)
		if !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		taken = false // locked: nothing was taken; its end, for Retry-After
		return w.queryRow(ctx, `SELECT locked_until FROM sign_in_throttle WHERE scope = ?`, scope).Scan(&locked)
	})
	switch {
	case err != nil:
		return false, time.Time{}, fmt.Errorf("store: reserve sign-in: %w", err)
	case !taken:
		return false, fromMillis(locked.Int64), nil
	}
	if locked.Valid {
		return true, fromMillis(locked.Int64), nil
	}
	return true, time.Time{}, nil
}

// ClearSignIn forgets scope's tries: its password was right.
func (db *DB) ClearSignIn(ctx context.Context, scope string) error {
	if _, err := db.exec(ctx, `DELETE FROM sign_in_throttle WHERE scope = ?`, scope); err != nil {
		return fmt.Errorf("store: clear sign-in: %w", err)
	}
	return nil
}

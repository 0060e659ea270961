package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// refColumns and refJoin read a LenderApplicationRef of lender
// application pa with its session.
const (
	refColumns = `pa.id, pa.application_id, a.session_id, pa.provider_key, pa.lender_application_id`
	refJoin    = `provider_applications pa JOIN applications a ON a.id = pa.application_id`
)

func scanRef(s scanner, r *chairside.LenderApplicationRef, more ...any) error {
	return s.Scan(append([]any{&r.LenderApplicationID, &r.ApplicationID, &r.SessionID, &r.LenderKey, &r.LenderRef}, more...)...)
}

// FindByLenderRef locates the lender application a lender knows
// by lenderRef, for the lender of the base lender key
// providerKey (the stored key may carry waterfall modifiers such as
// ":role=secondary"); ENOTFOUND when none.
func (db *DB) FindByLenderRef(ctx context.Context, lenderKey, lenderRef string) (*chairside.LenderApplicationRef, error) {
	if lenderRef == "" {
		return nil, notFound("Provider application not found.")
	}
	var r chairside.LenderApplicationRef
	err := scanRef(db.queryRow(ctx, `SELECT `+refColumns+` FROM `+refJoin+`
		WHERE pa.lender_application_id = ? AND (pa.provider_key = ? OR pa.provider_key LIKE ?)
		ORDER BY pa.created_at DESC LIMIT 1`, lenderRef, lenderKey, lenderKey+":%"), &r)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Provider application not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find lender application: %w", err)
	}
	return &r, nil
}

// RecordLenderEvent keeps a lender's webhook event; ECONFLICT when the
// lender sent this event id before. The insert does nothing on a repeat
// (rather than failing), so a transaction around it stays usable on
// PostgreSQL.
func (db *DB) RecordLenderEvent(ctx context.Context, e *chairside.LenderEvent) error {
	e.ReceivedAt = db.stamp(e.ReceivedAt)
	res, err := db.exec(ctx, `INSERT INTO lender_events (provider_key, event_id, event_type, lender_application_id, result, received_at)
		VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (provider_key, event_id) DO NOTHING`,
		e.LenderKey, e.EventID, e.Type, e.LenderRef, e.Result, millis(e.ReceivedAt))
	if err != nil {
		return fmt.Errorf("store: record lender event: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "This event was already received.")
}

// trackPending keeps the pending poll of d's lender application in step
// with d, the decision just written (see flow/store.go).
func (db *DB) trackPending(ctx context.Context, d *chairside.Decision) error {
	check := func(_ int64, err error) error { return wrapErr("pending poll", err) }
	if d.ResponseCode == chairside.ResponsePending {
		at := millis(d.CreatedAt)
		return db.later(ctx, `INSERT INTO pending_polls (provider_application_id, next_poll_at, polls, since) VALUES (?, ?, 0, ?)
			ON CONFLICT (provider_application_id) DO UPDATE SET next_poll_at = excluded.next_poll_at, polls = 0, since = excluded.since`,
			[]any{d.LenderApplicationID, at + chairside.PendingFirstPoll.Milliseconds(), at}, check)
	}
	return db.later(ctx, `DELETE FROM pending_polls WHERE provider_application_id = ?`, []any{d.LenderApplicationID}, check)
}

// ClaimPendingPolls takes due polls one by one, as ClaimOutbox takes
// messages: a conditional update on the time it read, which only one
// server can win.
func (db *DB) ClaimPendingPolls(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*chairside.PendingPoll, error) {
	type due struct {
		poll chairside.PendingPoll
		next int64
	}
	cands, err := queryAll(ctx, db, "claim pending polls", func(s scanner) (d due, err error) {
		return d, scanRef(s, &d.poll.LenderApplicationRef, &d.next)
	}, `SELECT `+refColumns+`, pp.next_poll_at FROM pending_polls pp
		JOIN provider_applications pa ON pa.id = pp.provider_application_id JOIN applications a ON a.id = pa.application_id
		WHERE pp.next_poll_at <= ? ORDER BY pp.next_poll_at LIMIT ?`, millis(now), limit)
	if err != nil {
		return nil, err
	}
	won, err := claimDue(ctx, db, pendingPolls, cands, now.Add(lease), func(d *due) (string, int64, *int, *time.Time) {
		return d.poll.LenderApplicationID, d.next, &d.poll.Polls, &d.poll.Since
	})
	out := make([]*chairside.PendingPoll, len(won))
	for i, d := range won {
		out[i] = &d.poll
	}
	return out, err
}

// ReschedulePendingPoll sets when a poll is next due.
func (db *DB) ReschedulePendingPoll(ctx context.Context, lenderApplicationID string, next time.Time) error {
	return db.reschedule(ctx, pendingPolls, lenderApplicationID, next)
}

// TakeLease takes the lease called name for holder in one statement: it
// inserts it, or moves it to holder when it ran out or holder already
// has it; a lease another server holds is left as it is.
func (db *DB) TakeLease(ctx context.Context, name, holder string, now, until time.Time) (bool, error) {
	res, err := db.exec(ctx, `INSERT INTO leases (name, holder, until_at) VALUES (?, ?, ?)
		ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_at = excluded.until_at
		WHERE leases.until_at <= ? OR leases.holder = excluded.holder`, name, holder, millis(until), millis(now))
	if err != nil {
		return false, fmt.Errorf("store: take lease %s: %w", name, err)
	}
	n, err := rowsAffected(res)
	return n == 1, err
}

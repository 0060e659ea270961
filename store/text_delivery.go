package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// What becomes of a text after it leaves (docs/behaviour.md, "Texts and
// emails"): the provider's id of a sent message, the status reports that
// follow it, and the numbers that asked a sender to stop.

// SetOutboxRef records the provider's id of a text it took (or none, for
// a text refused), its first status, and the sender and number (e164, kept
// as its blind index) it went between, so that a later STOP from the
// number shows on the text's invitation.
func (db *DB) SetOutboxRef(ctx context.Context, id, ref, status string, rank int, at time.Time, sender, e164 string) error {
	if _, err := db.exec(ctx, `UPDATE outbox SET provider_ref = ?, delivery = ?, delivery_rank = ?, delivery_at = ?, text_sender = ?, phone_index = ?
		WHERE id = ? AND delivery_rank < ?`, ref, status, rank, millis(at), sender, db.phoneIndex(e164), id, rank); err != nil {
		return fmt.Errorf("store: outbox ref: %w", err)
	}
	return nil
}

// RecordMessageStatus applies one status report of the provider's message
// ref: each (message, status) once, and the message's delivery moves only
// forward (rank, the status's order). It answers whether the report moved
// the message; a report of a message we do not know moves nothing.
func (db *DB) RecordMessageStatus(ctx context.Context, ref, status string, rank, errorCode int, at time.Time) (bool, error) {
	moved := false
	err := db.Batch(ctx, func(w *DB) error {
		res, err := w.exec(ctx, `INSERT INTO message_statuses (provider_ref, status, error_code, received_at) VALUES (?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, ref, status, errorCode, millis(at))
		if err != nil {
			return err
		}
		if n, err := rowsAffected(res); err != nil || n == 0 {
			return err // a repeat
		}
		res, err = w.exec(ctx, `UPDATE outbox SET delivery = ?, delivery_rank = ?, delivery_error = ?, delivery_at = ?
			WHERE provider_ref = ? AND delivery_rank < ?`, status, rank, errorCode, millis(at), ref, rank)
		if err != nil {
			return err
		}
		n, err := rowsAffected(res)
		moved = n > 0
		return err
	})
	if err != nil {
		return false, fmt.Errorf("store: message status: %w", err)
	}
	return moved, nil
}

// ReleaseHeld queues, due at now, the held messages of the invitation
// that the outbox message id carries (a text that was not delivered, or
// was refused): its email goes instead. It answers how many it released.
func (db *DB) ReleaseHeld(ctx context.Context, id string, now time.Time) (int, error) {
	res, err := db.exec(ctx, `UPDATE outbox SET state = 'queued', next_attempt_at = ?
		WHERE state = 'held' AND invite_id <> '' AND invite_id = (SELECT invite_id FROM outbox WHERE id = ?)`, millis(now), id)
	if err != nil {
		return 0, fmt.Errorf("store: release held: %w", err)
	}
	n, err := rowsAffected(res)
	return int(n), err
}

// ReleaseStaleHeld queues, due at now, the held messages of invitations
// whose text the provider took before `before` and has not reported
// delivered since: no report may ever come, and the patient still needs
// the link. It answers how many it released.
func (db *DB) ReleaseStaleHeld(ctx context.Context, before, now time.Time) (int, error) {
	res, err := db.exec(ctx, `UPDATE outbox SET state = 'queued', next_attempt_at = ?
		WHERE state = 'held' AND invite_id <> '' AND invite_id IN (
			SELECT invite_id FROM outbox WHERE channel = 'sms' AND state = 'sent' AND sent_at < ? AND delivery <> 'delivered')`,
		millis(now), millis(before))
	if err != nil {
		return 0, fmt.Errorf("store: release stale held: %w", err)
	}
	n, err := rowsAffected(res)
	return int(n), err
}

// MessageByRef answers the id of the outbox message the provider calls
// ref; "" when there is none.
func (db *DB) MessageByRef(ctx context.Context, ref string) (string, error) {
	var id string
	err := db.queryRow(ctx, `SELECT id FROM outbox WHERE provider_ref = ?`, ref).Scan(&id)
	if err == sql.ErrNoRows {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("store: message by ref: %w", err)
	}
	return id, nil
}

// phoneIndex is the blind index of a phone number (E.164) for opt-outs:
// the number is never kept in clear.
func (db *DB) phoneIndex(e164 string) string { return db.keys.BlindIndex("phone:" + e164) }

// OptOut records that the number asked sender to stop (source: "reply",
// or the provider's refusal); a second time changes nothing.
func (db *DB) OptOut(ctx context.Context, sender, e164, source string, at time.Time) error {
	if _, err := db.exec(ctx, `INSERT INTO text_opt_outs (sender, phone_index, since, source) VALUES (?, ?, ?, ?)
		ON CONFLICT DO NOTHING`, sender, db.phoneIndex(e164), millis(at), source); err != nil {
		return fmt.Errorf("store: opt out: %w", err)
	}
	return nil
}

// OptIn lifts a number's opt-out of sender (it replied START).
func (db *DB) OptIn(ctx context.Context, sender, e164 string) error {
	if _, err := db.exec(ctx, `DELETE FROM text_opt_outs WHERE sender = ? AND phone_index = ?`, sender, db.phoneIndex(e164)); err != nil {
		return fmt.Errorf("store: opt in: %w", err)
	}
	return nil
}

// OptedOut reports whether the number asked sender to stop.
func (db *DB) OptedOut(ctx context.Context, sender, e164 string) (bool, error) {
	var n int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM text_opt_outs WHERE sender = ? AND phone_index = ?`,
		sender, db.phoneIndex(e164)).Scan(&n); err != nil {
		return false, fmt.Errorf("store: opted out: %w", err)
	}
	return n > 0, nil
}

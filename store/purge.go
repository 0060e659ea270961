package store

import (
	"context"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// lenderEventKeep is how long a webhook event id is remembered.
const lenderEventKeep = 90 * 24 * time.Hour

// signInKeep is how long a scope's sign-in tries are kept after its last:
// far longer than any window or lock they may count in (office.LockFor).
const signInKeep = 24 * time.Hour

// PurgePersonalData blanks the sealed applicants of every application whose
// session ended before finishedBefore, sets their PurgedAt, and answers how
// many it purged. Decisions, consents, events, amounts and the SSN blind
// index stay: lending records outlive the personal data.
//
// A session ended when it finished, or, if it never did (the patient walked
// away), at the latest chairside.SessionMaxAge after it began. Flow tokens
// used or expired before the cutoff lose their sealed patient name too, and
// pull allowances older than any cap's window and sign-in tries a day old
// are deleted.
func (db *DB) PurgePersonalData(ctx context.Context, finishedBefore time.Time) (int, error) {
	cutoff := millis(finishedBefore)
	abandonedCutoff := millis(finishedBefore.Add(-chairside.SessionMaxAge))
	var purged int64
	err := db.Batch(ctx, func(w *DB) error {
		res, err := w.exec(ctx, `UPDATE applications SET primary_sealed = '', joint_sealed = '', purged_at = ?
			WHERE purged_at IS NULL AND session_id IN (
				SELECT id FROM sessions
				WHERE (finished_at IS NOT NULL AND finished_at < ?) OR (finished_at IS NULL AND created_at < ?))`,
			millis(db.now()), cutoff, abandonedCutoff)
		if err != nil {
			return fmt.Errorf("store: purge applications: %w", err)
		}
		if purged, err = rowsAffected(res); err != nil {
			return err
		}
		if _, err := w.exec(ctx, `UPDATE flow_tokens SET name_sealed = ''
			WHERE name_sealed <> '' AND (expires_at < ? OR used_at < ?)`, cutoff, cutoff); err != nil {
			return fmt.Errorf("store: purge flow tokens: %w", err)
		}
		// A message that could not be sent before the cutoff never will
		// be: its link has long expired.
		if _, err := w.exec(ctx, `UPDATE outbox SET body_sealed = '', state = 'failed', last_error = 'expired'
			WHERE body_sealed <> '' AND created_at < ?`, cutoff); err != nil {
			return fmt.Errorf("store: purge outbox: %w", err)
		}
		// Webhook event ids are kept long enough to refuse any redelivery
		// a lender still makes; they hold no personal data.
		if _, err := w.exec(ctx, `DELETE FROM lender_events WHERE received_at < ?`,
			millis(db.now().Add(-lenderEventKeep))); err != nil {
			return fmt.Errorf("store: purge lender events: %w", err)
		}
		// Pull allowances hold an SSN's blind index; once no cap counts
		// them any more they go too.
		if _, err := w.exec(ctx, `DELETE FROM pull_allowances WHERE created_at < ?`,
			millis(db.now().Add(-allowanceKeep))); err != nil {
			return fmt.Errorf("store: purge pull allowances: %w", err)
		}
		// Sign-in tries long past any window or lock count for nothing.
		if _, err := w.exec(ctx, `DELETE FROM sign_in_throttle WHERE updated_at < ?`,
			millis(db.now().Add(-signInKeep))); err != nil {
			return fmt.Errorf("store: purge sign-in tries: %w", err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return int(purged), nil
}

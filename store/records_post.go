package store

import (
	"context"
	"database/sql"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// Posts to the patients' ledgers in the offices' own systems
// (docs/practice-records.md): one per money fact that calls for one, each
// claimed before its call like an outbox message.

// RecordsCandidates answers up to limit money facts without a post yet
// that call for one, oldest first; only facts from after the office
// connected its system. A refund or cancellation waits until the case's
// payment is on the ledger (state posted), so a negative payment never
// goes before the payment it takes back, nor without it when that one
// waits or failed; the cancellation's amount is the payment posted.
func (db *DB) RecordsCandidates(ctx context.Context, limit int) ([]chairside.RecordsCandidate, error) {
	return queryAll(ctx, db, "records candidates", func(s scanner) (c chairside.RecordsCandidate, err error) {
		var on int64
		err = s.Scan(&c.MoneyEntryID, &c.Kind, &c.AmountCents, &on, &c.ApplicationID, &c.LocationID, &c.State, &c.PatientID, &c.LenderKey,
			&c.LenderApplicationID, &c.SelectedPlanCode)
		c.OnAt = fromMillis(on)
		return c, err
	}, `SELECT m.id, m.kind,
			CASE WHEN m.kind = 'voided' THEN COALESCE((SELECT p.amount_cents FROM records_posts p
				WHERE p.application_id = a.id AND p.kind = 'payment' AND p.state = 'posted' ORDER BY p.created_at LIMIT 1), 0)
				ELSE m.amount_cents END,
			m.on_at, a.id, a.location_id, l.state, a.record_patient_id, pa.provider_key, pa.id, pa.selected_plan_code
		FROM money_entries m
		JOIN provider_applications pa ON pa.id = m.lender_application_id
		JOIN applications a ON a.id = pa.application_id
		JOIN locations l ON l.id = a.location_id
		JOIN records_connections rc ON rc.location_id = a.location_id
		WHERE a.record_patient_id <> '' AND m.on_at >= rc.created_at
			AND NOT EXISTS (SELECT 1 FROM records_posts p WHERE p.money_entry_id = m.id)
			AND (m.kind = rc.post_on OR (m.kind IN ('refunded', 'voided')
				AND EXISTS (SELECT 1 FROM records_posts p WHERE p.application_id = a.id AND p.kind = 'payment' AND p.state = 'posted')))
		ORDER BY m.on_at, m.id LIMIT ?`, limit)
}

// AddRecordsPost stores a post, due at once; a second post of the same
// money fact changes nothing.
func (db *DB) AddRecordsPost(ctx context.Context, p *chairside.RecordsPost) error {
	if p.ID == "" {
		p.ID = newID()
	}
	p.CreatedAt = db.stamp(p.CreatedAt)
	p.State = chairside.RecordsDue
	if p.NextAt.IsZero() {
		p.NextAt = p.CreatedAt
	}
	if _, err := db.exec(ctx, `INSERT INTO records_posts (id, money_entry_id, location_id, application_id, kind, patient_id, amount_cents, pay_date,
			reference, note, state, attempts, next_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?)
		ON CONFLICT (money_entry_id) DO NOTHING`,
		p.ID, p.MoneyEntryID, p.LocationID, p.ApplicationID, p.Kind, p.PatientID, p.AmountCents, p.PayDate, p.Reference, p.Note, p.State,
		millis(p.NextAt), millis(p.CreatedAt)); err != nil {
		return fmt.Errorf("store: add records post: %w", err)
	}
	return nil
}

const recordsPostColumns = `id, money_entry_id, location_id, application_id, kind, patient_id, amount_cents, pay_date, reference, note, state,
	attempts, next_at, first_try_on, remote_id, last_error, created_at, posted_at`

func scanRecordsPost(s scanner) (*chairside.RecordsPost, error) {
	var p chairside.RecordsPost
	var next, created, posted int64
	if err := s.Scan(&p.ID, &p.MoneyEntryID, &p.LocationID, &p.ApplicationID, &p.Kind, &p.PatientID, &p.AmountCents, &p.PayDate, &p.Reference,
		&p.Note, &p.State, &p.Attempts, &next, &p.FirstTryOn, &p.RemoteID, &p.LastError, &created, &posted); err != nil {
		return nil, err
	}
	p.NextAt, p.CreatedAt = fromMillis(next), fromMillis(created)
	if posted > 0 {
		p.PostedAt = fromMillis(posted)
	}
	return &p, nil
}

// ClaimRecordsPosts takes up to limit posts that are due (due or waiting
// and due, or posting with an ended lease), one attempt more, until
// now+lease, each with a conditional update so two servers never take
// one; the first claim records today as the post's first day.
func (db *DB) ClaimRecordsPosts(ctx context.Context, now time.Time, today string, lease time.Duration, limit int) ([]*chairside.RecordsPost, error) {
	type due struct {
		id, state string
		next      int64
	}
	cands, err := queryAll(ctx, db, "claim records posts", func(s scanner) (d due, err error) {
		return d, s.Scan(&d.id, &d.state, &d.next)
	}, `SELECT id, state, next_at FROM records_posts WHERE state IN ('due', 'posting', 'waiting') AND next_at <= ?
		ORDER BY next_at LIMIT ?`, millis(now), limit)
	if err != nil {
		return nil, err
	}
	var out []*chairside.RecordsPost
	for _, c := range cands {
		row := db.writeRow(ctx, `UPDATE records_posts SET state = 'posting', attempts = attempts + 1, next_at = ?,
				first_try_on = CASE WHEN first_try_on = '' THEN ? ELSE first_try_on END
			WHERE id = ? AND state = ? AND next_at = ? RETURNING `+recordsPostColumns,
			millis(now.Add(lease)), today, c.id, c.state, c.next)
		p, err := scanRecordsPost(row)
		if err == sql.ErrNoRows {
			continue // another server took it
		} else if err != nil {
			return nil, fmt.Errorf("store: claim records post: %w", err)
		}
		out = append(out, p)
	}
	return out, nil
}

// SettleRecordsPost records what became of a claimed post: posted (with
// the system's id), or back to state (due, waiting, failed) due at next
// with the error in staff's words.
func (db *DB) SettleRecordsPost(ctx context.Context, id, state, remoteID, lastError string, next, now time.Time) error {
	posted := int64(0)
	if state == chairside.RecordsPosted {
		posted = millis(now)
	}
	res, err := db.exec(ctx, `UPDATE records_posts SET state = ?, remote_id = ?, last_error = ?, next_at = ?, posted_at = ?
		WHERE id = ? AND state = 'posting'`, state, remoteID, lastError, millis(next), posted, id)
	if err != nil {
		return fmt.Errorf("store: settle records post: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "This post is not being made.")
}

// RetryRecordsPosts makes the application's failed and waiting posts due
// at once (the office's retry); it answers how many.
func (db *DB) RetryRecordsPosts(ctx context.Context, locationID, applicationID string, now time.Time) (int, error) {
	res, err := db.exec(ctx, `UPDATE records_posts SET state = 'due', next_at = ?
		WHERE location_id = ? AND application_id = ? AND state IN ('failed', 'waiting')`, millis(now), locationID, applicationID)
	if err != nil {
		return 0, fmt.Errorf("store: retry records posts: %w", err)
	}
	n, err := rowsAffected(res)
	return int(n), err
}

// ListRecordsPosts answers the posts of the location's applications
// created in [from, to), by application, oldest first.
func (db *DB) ListRecordsPosts(ctx context.Context, locationID string, from, to time.Time) (map[string][]*chairside.RecordsPost, error) {
	posts, err := queryAll(ctx, db, "list records posts", scanRecordsPost,
		`SELECT `+recordsPostColumns+` FROM records_posts WHERE location_id = ? AND application_id IN (
			SELECT id FROM applications WHERE location_id = ? AND created_at >= ? AND created_at < ?)
		ORDER BY created_at, id`, locationID, locationID, millis(from), millis(to))
	if err != nil {
		return nil, err
	}
	out := map[string][]*chairside.RecordsPost{}
	for _, p := range posts {
		out[p.ApplicationID] = append(out[p.ApplicationID], p)
	}
	return out, nil
}

// ApplicationRecordsPosts answers the posts of one application of the
// location, oldest first.
func (db *DB) ApplicationRecordsPosts(ctx context.Context, locationID, applicationID string) ([]*chairside.RecordsPost, error) {
	return queryAll(ctx, db, "application records posts", scanRecordsPost,
		`SELECT `+recordsPostColumns+` FROM records_posts WHERE location_id = ? AND application_id = ? ORDER BY created_at, id`,
		locationID, applicationID)
}

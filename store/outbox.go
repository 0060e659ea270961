package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// outboxContent is the sealed part of an outbox message.
type outboxContent struct {
	Recipient string `json:"to"`
	Subject   string `json:"subject,omitempty"`
	Body      string `json:"body"`
	FromName  string `json:"from,omitempty"`
}

// outboxAAD binds a message's sealed content to its row.
func outboxAAD(id string) string { return "outbox/" + id }

// EnqueueOutbox queues one message (flow.Store).
func (db *DB) EnqueueOutbox(ctx context.Context, m *chairside.OutboxMessage) error {
	return db.enqueueOutbox(ctx, m)
}

// enqueueOutbox stores m as queued and due at once (or at NextAttemptAt),
// or as held when its State says so, its recipient and content sealed.
func (db *DB) enqueueOutbox(ctx context.Context, m *chairside.OutboxMessage) error {
	if m.ID == "" {
		m.ID = newID()
	}
	m.CreatedAt = db.stamp(m.CreatedAt)
	if m.NextAttemptAt.IsZero() {
		m.NextAttemptAt = m.CreatedAt
	}
	if m.State != chairside.OutboxHeld {
		m.State = chairside.OutboxQueued
	}
	buf, err := json.Marshal(outboxContent{Recipient: m.Recipient, Subject: m.Subject, Body: m.Body, FromName: m.FromName})
	if err != nil {
		return fmt.Errorf("store: enqueue outbox: %w", err)
	}
	sealed, err := db.keys.Seal(buf, outboxAAD(m.ID))
	if err != nil {
		return fmt.Errorf("store: enqueue outbox: %w", err)
	}
	_, err = db.exec(ctx, `INSERT INTO outbox (id, location_id, invite_id, channel, recipient_masked, body_sealed, state,
		attempts, next_attempt_at, last_error, created_at, sent_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, '', ?, NULL)`,
		m.ID, m.LocationID, m.InviteID, m.Channel, m.RecipientMasked, sealed, m.State, millis(m.NextAttemptAt), millis(m.CreatedAt))
	return insertError(err, "enqueue outbox", "This message already exists.", "")
}

const outboxColumns = `id, location_id, invite_id, channel, recipient_masked, body_sealed, state, attempts, next_attempt_at, last_error, created_at, sent_at,
	provider_ref, delivery, delivery_error, delivery_at`

// ClaimOutbox takes due messages one by one with a conditional update, so
// that servers sharing the database never take the same message: the
// update succeeds only for the server that still sees the state and time it
// read.
func (db *DB) ClaimOutbox(ctx context.Context, now time.Time, lease time.Duration, limit int) ([]*chairside.OutboxMessage, error) {
	type due struct {
		id, state string
		next      int64
	}
	cands, err := queryAll(ctx, db, "claim outbox", func(s scanner) (d due, err error) {
		return d, s.Scan(&d.id, &d.state, &d.next)
	}, `SELECT id, state, next_attempt_at FROM outbox WHERE state IN ('queued', 'sending') AND next_attempt_at <= ?
		ORDER BY next_attempt_at LIMIT ?`, millis(now), limit)
	if err != nil {
		return nil, err
	}
	var out []*chairside.OutboxMessage
	for _, c := range cands {
		row := db.writeRow(ctx, `UPDATE outbox SET state = 'sending', attempts = attempts + 1, next_attempt_at = ?
			WHERE id = ? AND state = ? AND next_attempt_at = ? RETURNING `+outboxColumns,
			millis(now.Add(lease)), c.id, c.state, c.next)
		m, err := db.scanOutbox(row, true)
		if err == sql.ErrNoRows {
			continue // another server took it
		} else if err != nil {
			return nil, fmt.Errorf("store: claim outbox: %w", err)
		}
		out = append(out, m)
	}
	return out, nil
}

func (db *DB) scanOutbox(s scanner, open bool) (*chairside.OutboxMessage, error) {
	var m chairside.OutboxMessage
	var sealed string
	var next, created, delivered int64
	var sent sql.NullInt64
	if err := s.Scan(&m.ID, &m.LocationID, &m.InviteID, &m.Channel, &m.RecipientMasked, &sealed, &m.State, &m.Attempts, &next,
		&m.LastError, &created, &sent, &m.ProviderRef, &m.Delivery, &m.DeliveryError, &delivered); err != nil {
		return nil, err
	}
	m.NextAttemptAt, m.CreatedAt, m.SentAt = fromMillis(next), fromMillis(created), fromNullMillis(sent)
	if delivered > 0 {
		m.DeliveryAt = fromMillis(delivered)
	}
	if open && sealed != "" {
		buf, err := db.keys.Open(sealed, outboxAAD(m.ID))
		if err != nil {
			return nil, err
		}
		var c outboxContent
		if err := json.Unmarshal(buf, &c); err != nil {
			return nil, err
		}
		m.Recipient, m.Subject, m.Body, m.FromName = c.Recipient, c.Subject, c.Body, c.FromName
	}
	return &m, nil
}

// MarkOutboxSent records a claimed message as sent and erases its content.
func (db *DB) MarkOutboxSent(ctx context.Context, id string, now time.Time) error {
	res, err := db.exec(ctx, `UPDATE outbox SET state = 'sent', sent_at = ?, body_sealed = '', last_error = '' WHERE id = ? AND state = 'sending'`,
		millis(now), id)
	if err != nil {
		return fmt.Errorf("store: outbox sent: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "This message is not being sent.")
}

// MarkOutboxRetry puts a claimed message back in the queue, due at next.
func (db *DB) MarkOutboxRetry(ctx context.Context, id string, next time.Time, lastError string) error {
	res, err := db.exec(ctx, `UPDATE outbox SET state = 'queued', next_attempt_at = ?, last_error = ? WHERE id = ? AND state = 'sending'`,
		millis(next), lastError, id)
	if err != nil {
		return fmt.Errorf("store: outbox retry: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "This message is not being sent.")
}

// MarkOutboxFailed gives a claimed message up and erases its content.
func (db *DB) MarkOutboxFailed(ctx context.Context, id, lastError string) error {
	res, err := db.exec(ctx, `UPDATE outbox SET state = 'failed', body_sealed = '', last_error = ? WHERE id = ? AND state = 'sending'`,
		lastError, id)
	if err != nil {
		return fmt.Errorf("store: outbox failed: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "This message is not being sent.")
}

// ListOutbox answers the location's messages, newest first, content left
// sealed (not opened).
func (db *DB) ListOutbox(ctx context.Context, locationID string) ([]*chairside.OutboxMessage, error) {
	return queryAll(ctx, db, "list outbox", func(s scanner) (*chairside.OutboxMessage, error) { return db.scanOutbox(s, false) },
		`SELECT `+outboxColumns+` FROM outbox WHERE location_id = ? ORDER BY created_at DESC, id`, locationID)
}

// ListInviteMessages answers the messages of the location's invitations
// made in [from, to), by invitation, oldest first (a link sent again
// comes after the first), content left sealed.
func (db *DB) ListInviteMessages(ctx context.Context, locationID string, from, to time.Time) (map[string][]*chairside.OutboxMessage, error) {
	msgs, err := queryAll(ctx, db, "list invite messages", func(s scanner) (*chairside.OutboxMessage, error) {
		var opted bool
		m, err := db.scanOutbox(alsoScan{s, &opted}, false)
		if m != nil {
			m.NumberOptedOut = opted
		}
		return m, err
	}, `SELECT `+outboxColumns+`, EXISTS (SELECT 1 FROM text_opt_outs o WHERE o.sender = outbox.text_sender AND o.phone_index = outbox.phone_index
			AND outbox.phone_index <> '') FROM outbox WHERE location_id = ? AND invite_id IN (
			SELECT id FROM flow_tokens WHERE location_id = ? AND id <> '' AND created_at >= ? AND created_at < ?)
		ORDER BY created_at, channel DESC, id`, locationID, locationID, millis(from), millis(to))
	if err != nil {
		return nil, err
	}
	out := map[string][]*chairside.OutboxMessage{}
	for _, m := range msgs {
		out[m.InviteID] = append(out[m.InviteID], m)
	}
	return out, nil
}

// alsoScan scans one more column after those its caller names.
type alsoScan struct {
	scanner
	extra any
}

func (a alsoScan) Scan(dest ...any) error { return a.scanner.Scan(append(dest, a.extra)...) }

// OutboxCount is a number of messages of one channel, outbox state and
// delivery.
type OutboxCount struct {
	Channel, State, Delivery string
	N                        int
}

// OutboxStats answers the messages created since, counted by channel,
// state and delivery; and of the messages waiting to go, how many, how
// many after a failed attempt, and when the oldest was made (zero when
// none waits).
func (db *DB) OutboxStats(ctx context.Context, since time.Time) (counts []OutboxCount, waiting, retrying int, oldest time.Time, err error) {
	counts, err = queryAll(ctx, db, "outbox stats", func(s scanner) (c OutboxCount, err error) {
		return c, s.Scan(&c.Channel, &c.State, &c.Delivery, &c.N)
	}, `SELECT channel, state, delivery, COUNT(*) FROM outbox WHERE created_at >= ? GROUP BY channel, state, delivery`, millis(since))
	if err != nil {
		return nil, 0, 0, time.Time{}, err
	}
	var first sql.NullInt64
	if err := db.queryRow(ctx, `SELECT COUNT(*), COALESCE(SUM(CASE WHEN attempts > 0 AND state = 'queued' THEN 1 ELSE 0 END), 0), MIN(created_at)
		FROM outbox WHERE state IN ('queued', 'sending')`).Scan(&waiting, &retrying, &first); err != nil {
		return nil, 0, 0, time.Time{}, fmt.Errorf("store: outbox stats: %w", err)
	}
	if first.Valid {
		oldest = fromMillis(first.Int64)
	}
	return counts, waiting, retrying, oldest, nil
}

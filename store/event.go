package store

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/chairside/chairside"
)

// AppendEvent appends an event to the audit log. An empty e.ID gets a random
// id and a zero CreatedAt gets db.Now. Data is stored as JSON and must carry
// no personal data.
func (db *DB) AppendEvent(ctx context.Context, e *chairside.Event) error {
	if e.ID == "" {
		e.ID = newID()
	}
	e.CreatedAt = db.stamp(e.CreatedAt)
	data, err := json.Marshal(e.Data)
	if err != nil {
		return fmt.Errorf("store: append event %s: data: %w", e.Type, err)
	}
	args := []any{e.ID, e.SessionID, e.ApplicationID, e.LenderKey, e.Type, string(data), millis(e.CreatedAt), db.nextSeq()}
	// ON CONFLICT DO NOTHING: a failed statement would abort a PostgreSQL
	// transaction. Without constraint errors (the table has no foreign
	// keys or checks) only a broken connection, or an id given twice, can
	// fail this insert. It is sent with later (sql.go): an event is the
	// last word of a step and its answer changes nothing the step does, so
	// on PostgreSQL it leaves with the step's other writes. Outside a
	// Batch the insert is a unit of work of its own, grouped with others
	// waiting (commit.go): that replaced a writer of its own for events.
	return db.later(ctx, `INSERT INTO events (id, session_id, application_id, provider_key, type, data, created_at, seq)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, args, func(n int64, err error) error {
		switch {
		case isUniqueViolation(err) || err == nil && n == 0:
			return conflict("This event already exists.")
		case err != nil:
			return fmt.Errorf("store: append event %s: %w", e.Type, err)
		}
		return nil
	})
}

// ListEvents returns a session's events in the order they happened. Data
// comes back as decoded JSON: numbers are float64.
func (db *DB) ListEvents(ctx context.Context, sessionID string) ([]*chairside.Event, error) {
	return queryAll(ctx, db, "list events", scanEvent, `SELECT id, session_id, application_id, provider_key, type, data, created_at
		FROM events WHERE session_id = ? ORDER BY created_at, seq`, sessionID)
}

// scanEvent reads one event row.
func scanEvent(s scanner) (*chairside.Event, error) {
	var e chairside.Event
	var data string
	var created int64
	if err := s.Scan(&e.ID, &e.SessionID, &e.ApplicationID, &e.LenderKey, &e.Type, &data, &created); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(data), &e.Data); err != nil {
		return nil, fmt.Errorf("event %s: %w", e.ID, err)
	}
	e.CreatedAt = fromMillis(created)
	return &e, nil
}

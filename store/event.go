package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

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
	args := []any{e.ID, e.SessionID, e.ApplicationID, e.ProviderKey, e.Type, string(data), millis(e.CreatedAt), db.nextSeq()}
	if db.engine == SQLite && db.tx == nil {
		// SQLite's one writer is the queue; batching shortens it. On
		// PostgreSQL batching only adds a wait: parallel inserts on
		// several connections were faster (docs/performance.md).
		err = db.sh.events.append(ctx, db, args)
	} else {
		// ON CONFLICT DO NOTHING: inside a Batch's PostgreSQL transaction a
		// failed statement would abort the whole transaction, and a step
		// tolerates a failed event (flow logs it and goes on). Without
		// constraint errors (the table has no foreign keys or checks) only
		// a broken connection can fail this insert.
		var res sql.Result
		res, err = db.exec(ctx, `INSERT INTO events (id, session_id, application_id, provider_key, type, data, created_at, seq)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`, args...)
		if err == nil {
			if n, rerr := rowsAffected(res); rerr != nil {
				err = rerr
			} else if n == 0 {
				return conflict("This event already exists.")
			}
		}
	}
	if isUniqueViolation(err) {
		return conflict("This event already exists.")
	} else if err != nil {
		return fmt.Errorf("store: append event %s: %w", e.Type, err)
	}
	return nil
}

// eventWriter group-commits events: every step of every session appends
// one, so under load many wait for the writer at once. The first to arrive
// writes everything waiting in one multi-row INSERT while later ones queue
// for the next; each caller still returns only once its own row is written
// (or with its own error), so the log is exactly as durable as before. Rows
// keep their order through seq, taken when AppendEvent was called.
type eventWriter struct {
	mu      sync.Mutex
	pending []*pendingEvent
	running bool
}

type pendingEvent struct {
	args []any
	done chan error
}

// maxEventBatch bounds one INSERT: 8 parameters a row.
const maxEventBatch = 64

func (w *eventWriter) append(ctx context.Context, db *DB, args []any) error {
	pe := &pendingEvent{args: args, done: make(chan error, 1)}
	w.mu.Lock()
	w.pending = append(w.pending, pe)
	lead := !w.running
	w.running = true
	w.mu.Unlock()
	if lead {
		w.drain(context.WithoutCancel(ctx), db, pe)
	}
	return <-pe.done
}

// drain writes batches until its caller's event is written, then leaves
// the rest (if any) to a goroutine so no request waits for others' events
// longer than one batch.
func (w *eventWriter) drain(ctx context.Context, db *DB, own *pendingEvent) {
	for {
		w.mu.Lock()
		n := min(len(w.pending), maxEventBatch)
		if n == 0 {
			w.running = false
			w.mu.Unlock()
			return
		}
		batch := w.pending[:n:n]
		w.pending = w.pending[n:]
		w.mu.Unlock()
		w.write(ctx, db, batch)
		if own != nil && len(own.done) > 0 {
			go w.drain(ctx, db, nil)
			return
		}
	}
}

func (w *eventWriter) write(ctx context.Context, db *DB, batch []*pendingEvent) {
	const cols = `INSERT INTO events (id, session_id, application_id, provider_key, type, data, created_at, seq) VALUES `
	const row = "(?, ?, ?, ?, ?, ?, ?, ?)"
	if len(batch) > 1 {
		var q strings.Builder
		q.WriteString(cols)
		args := make([]any, 0, 8*len(batch))
		for i, pe := range batch {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString(row)
			args = append(args, pe.args...)
		}
		if _, err := db.exec(ctx, q.String(), args...); err == nil {
			for _, pe := range batch {
				pe.done <- nil
			}
			return
		}
		// One bad row (a duplicate id) fails the batch: write them one by
		// one so each caller gets its own answer.
	}
	for _, pe := range batch {
		_, err := db.exec(ctx, cols+row, pe.args...)
		pe.done <- err
	}
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
	if err := s.Scan(&e.ID, &e.SessionID, &e.ApplicationID, &e.ProviderKey, &e.Type, &data, &created); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(data), &e.Data); err != nil {
		return nil, fmt.Errorf("event %s: %w", e.ID, err)
	}
	e.CreatedAt = fromMillis(created)
	return &e, nil
}

package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

const sessionColumns = `id, location_id, application_id, env, group_id, experience_type, flow_type,
	warn_countdown_millis, timeout_after_millis, dynamic_provider_key, created_at, last_seen_at, finished_at, outcome`

// CreateSession stores a new session. s.ID must be the hash of the browser's
// session id. A zero CreatedAt gets db.Now and a zero LastSeenAt gets
// CreatedAt. A duplicate id answers ECONFLICT, an unknown location ENOTFOUND.
func (db *DB) CreateSession(ctx context.Context, s *chairside.Session) error {
	if s.ID == "" {
		return chairside.Errorf(chairside.EINVALID, "A session needs an id.")
	}
	s.CreatedAt = db.stamp(s.CreatedAt)
	if s.LastSeenAt.IsZero() {
		s.LastSeenAt = s.CreatedAt
	}
	s.LastSeenAt = s.LastSeenAt.Truncate(time.Millisecond)
	return db.laterInsert(ctx, "create session", "This session already exists.", "Location not found.",
		`INSERT INTO sessions (`+sessionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.LocationID, s.ApplicationID, s.Env, s.GroupID, s.ExperienceType, s.FlowType,
		s.WarnCountdownMillis, s.TimeoutAfterMillis, s.DynamicLenderKey,
		millis(s.CreatedAt), millis(s.LastSeenAt), nullMillis(s.FinishedAt), s.Outcome)
}

// FindSession returns the session with id, finished and idle ones included
// (callers check Session.Live), or ENOTFOUND.
func (db *DB) FindSession(ctx context.Context, id string) (*chairside.Session, error) {
	// Outside a Batch, from the cache where there is one (session_cache.go).
	cache := db.sh.sessions
	if db.tx != nil {
		cache = nil
	}
	var ticket uint64
	if cache != nil {
		if s, ok := cache.get(id); ok {
			return s, nil
		}
		ticket = cache.readBegins()
	}
	s, err := scanSession(db.queryRow(ctx, `SELECT `+sessionColumns+` FROM sessions WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Session not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find session: %w", err)
	}
	if cache != nil {
		cache.put(s, ticket)
	}
	return s, nil
}

// sessionWrite runs fn, which writes session id, in a Batch (the caller's,
// or one of its own) that tells the session cache once its commit returned
// (session_cache.go).
func (db *DB) sessionWrite(ctx context.Context, id string, fn func(w *DB) error) error {
	return db.Batch(ctx, func(w *DB) error {
		if w.sh.sessions != nil {
			*w.sessionWrites = append(*w.sessionWrites, id)
		}
		return fn(w)
	})
}

// ListLocationSessions answers the sessions started at the location in
// [from, to), newest first (the office's day list).
func (db *DB) ListLocationSessions(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.Session, error) {
	return queryAll(ctx, db, "list location sessions", scanSession,
		`SELECT `+sessionColumns+` FROM sessions WHERE location_id = ? AND created_at >= ? AND created_at < ?
		ORDER BY created_at DESC, id`, locationID, millis(from), millis(to))
}

func scanSession(r scanner) (*chairside.Session, error) {
	var s chairside.Session
	var created, lastSeen int64
	var finished sql.NullInt64
	err := r.Scan(&s.ID, &s.LocationID, &s.ApplicationID, &s.Env, &s.GroupID, &s.ExperienceType, &s.FlowType,
		&s.WarnCountdownMillis, &s.TimeoutAfterMillis, &s.DynamicLenderKey,
		&created, &lastSeen, &finished, &s.Outcome)
	if err != nil {
		return nil, err
	}
	s.CreatedAt, s.LastSeenAt, s.FinishedAt = fromMillis(created), fromMillis(lastSeen), fromNullMillis(finished)
	return &s, nil
}

// TouchSession moves the session's LastSeenAt to now; never backwards, so a
// slow request finishing late cannot shorten a session. A missing session
// answers ENOTFOUND.
func (db *DB) TouchSession(ctx context.Context, id string, now time.Time) error {
	ms := millis(now)
	return db.sessionWrite(ctx, id, func(w *DB) error {
		return w.later(ctx, `UPDATE sessions SET last_seen_at = CASE WHEN last_seen_at < ? THEN ? ELSE last_seen_at END WHERE id = ?`,
			[]any{ms, ms, id}, func(n int64, err error) error {
				switch {
				case err != nil:
					return fmt.Errorf("store: touch session: %w", err)
				case n == 0:
					return notFound("Session not found.")
				}
				return nil
			})
	})
}

// FinishSession records the outcome of a session once. A second finish
// answers ECONFLICT and keeps the first outcome; a missing session answers
// ENOTFOUND.
func (db *DB) FinishSession(ctx context.Context, id, outcome string, now time.Time) error {
	return db.sessionWrite(ctx, id, func(w *DB) error {
		return w.laterOne(ctx, "finish session", "sessions", id, "Session not found.", "This session has already finished.",
			`UPDATE sessions SET finished_at = ?, outcome = ? WHERE id = ? AND finished_at IS NULL`, millis(now), outcome, id)
	})
}

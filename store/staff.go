package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

const staffColumns = `id, location_id, email, password_hash, disabled_at, created_at`

// CreateStaff stores a new staff member, the email lower-cased. An empty
// ID gets a random id. A duplicate email answers ECONFLICT, an unknown
// location ENOTFOUND.
func (db *DB) CreateStaff(ctx context.Context, s *chairside.Staff) error {
	if s.ID == "" {
		s.ID = newID()
	}
	s.Email = strings.ToLower(strings.TrimSpace(s.Email))
	if s.Email == "" {
		return chairside.Errorf(chairside.EINVALID, "A staff member needs an email.")
	}
	s.CreatedAt = db.stamp(s.CreatedAt)
	_, err := db.exec(ctx, `INSERT INTO staff (`+staffColumns+`) VALUES (?, ?, ?, ?, ?, ?)`,
		s.ID, s.LocationID, s.Email, s.PasswordHash, nullMillis(s.DisabledAt), millis(s.CreatedAt))
	return insertError(err, "create staff", "A staff member with this email already exists.", "Location not found.")
}

// FindStaffByID returns the staff member with id, or ENOTFOUND.
func (db *DB) FindStaffByID(ctx context.Context, id string) (*chairside.Staff, error) {
	return db.findStaff(ctx, `SELECT `+staffColumns+` FROM staff WHERE id = ?`, id)
}

// FindStaffByEmail returns the staff member with email (any case), or
// ENOTFOUND.
func (db *DB) FindStaffByEmail(ctx context.Context, email string) (*chairside.Staff, error) {
	return db.findStaff(ctx, `SELECT `+staffColumns+` FROM staff WHERE email = ?`, strings.ToLower(strings.TrimSpace(email)))
}

func (db *DB) findStaff(ctx context.Context, q, arg string) (*chairside.Staff, error) {
	s, err := scanStaff(db.queryRow(ctx, q, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Staff member not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find staff: %w", err)
	}
	return s, nil
}

func scanStaff(s scanner) (*chairside.Staff, error) {
	var st chairside.Staff
	var disabled sql.NullInt64
	var created int64
	if err := s.Scan(&st.ID, &st.LocationID, &st.Email, &st.PasswordHash, &disabled, &created); err != nil {
		return nil, err
	}
	st.DisabledAt, st.CreatedAt = fromNullMillis(disabled), fromMillis(created)
	return &st, nil
}

// SetStaffPassword replaces the password hash.
func (db *DB) SetStaffPassword(ctx context.Context, id, hash string) error {
	res, err := db.exec(ctx, `UPDATE staff SET password_hash = ? WHERE id = ?`, hash, id)
	if err != nil {
		return fmt.Errorf("store: set staff password: %w", err)
	}
	return changed(res, chairside.ENOTFOUND, "Staff member not found.")
}

// DisableStaff marks the staff member disabled at now (once; a second call
// keeps the first time), revokes their open sessions and spends their
// unused setup links.
func (db *DB) DisableStaff(ctx context.Context, id string, now time.Time) error {
	return db.Batch(ctx, func(t *DB) error {
		res, err := t.exec(ctx, `UPDATE staff SET disabled_at = COALESCE(disabled_at, ?) WHERE id = ?`, millis(now), id)
		if err != nil {
			return fmt.Errorf("store: disable staff: %w", err)
		}
		if err := changed(res, chairside.ENOTFOUND, "Staff member not found."); err != nil {
			return err
		}
		_, err = t.exec(ctx, `UPDATE staff_sessions SET revoked_at = ? WHERE staff_id = ? AND revoked_at IS NULL`, millis(now), id)
		if err != nil {
			return fmt.Errorf("store: disable staff: sessions: %w", err)
		}
		// A setup link sent before must not set a password afterwards.
		_, err = t.exec(ctx, `UPDATE staff_setup_tokens SET used_at = ? WHERE staff_id = ? AND used_at IS NULL`, millis(now), id)
		if err != nil {
			return fmt.Errorf("store: disable staff: setup links: %w", err)
		}
		return nil
	})
}

// CreateStaffSetupToken stores a setup token by its hash.
func (db *DB) CreateStaffSetupToken(ctx context.Context, t *chairside.StaffSetupToken) error {
	t.CreatedAt = db.stamp(t.CreatedAt)
	t.ExpiresAt = t.ExpiresAt.Truncate(time.Millisecond)
	_, err := db.exec(ctx, `INSERT INTO staff_setup_tokens (hash, staff_id, expires_at, used_at, created_at) VALUES (?, ?, ?, ?, ?)`,
		t.Hash, t.StaffID, millis(t.ExpiresAt), nullMillis(t.UsedAt), millis(t.CreatedAt))
	return insertError(err, "create staff setup token", "This setup token already exists.", "Staff member not found.")
}

// FindStaffSetupToken returns the setup token with hash, used and expired
// ones too, or ENOTFOUND.
func (db *DB) FindStaffSetupToken(ctx context.Context, hash string) (*chairside.StaffSetupToken, error) {
	return db.scanSetupToken(db.queryRow(ctx, `SELECT `+setupTokenColumns+` FROM staff_setup_tokens WHERE hash = ?`, hash), "find")
}

// ConsumeStaffSetupToken marks an unused, unexpired token used in one
// statement and returns it; anything else answers ENOTFOUND.
func (db *DB) ConsumeStaffSetupToken(ctx context.Context, hash string, now time.Time) (*chairside.StaffSetupToken, error) {
	return db.scanSetupToken(db.writeRow(ctx, `UPDATE staff_setup_tokens SET used_at = ?
		WHERE hash = ? AND used_at IS NULL AND expires_at > ?
		RETURNING `+setupTokenColumns,
		millis(now), hash, millis(now)), "consume")
}

const setupTokenColumns = `hash, staff_id, expires_at, used_at, created_at`

func (db *DB) scanSetupToken(row scanner, what string) (*chairside.StaffSetupToken, error) {
	var t chairside.StaffSetupToken
	var expires, created int64
	var used sql.NullInt64
	err := row.Scan(&t.Hash, &t.StaffID, &expires, &used, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("This setup link is not valid any more.")
	} else if err != nil {
		return nil, fmt.Errorf("store: %s staff setup token: %w", what, err)
	}
	t.ExpiresAt, t.UsedAt, t.CreatedAt = fromMillis(expires), fromNullMillis(used), fromMillis(created)
	return &t, nil
}

const staffSessionColumns = `id_hash, staff_id, csrf_hash, created_at, last_seen_at, expires_at, revoked_at`

// CreateStaffSession stores a new staff session.
func (db *DB) CreateStaffSession(ctx context.Context, s *chairside.StaffSession) error {
	s.CreatedAt = db.stamp(s.CreatedAt)
	if s.LastSeenAt.IsZero() {
		s.LastSeenAt = s.CreatedAt
	}
	s.LastSeenAt = s.LastSeenAt.Truncate(time.Millisecond)
	s.ExpiresAt = s.ExpiresAt.Truncate(time.Millisecond)
	_, err := db.exec(ctx, `INSERT INTO staff_sessions (`+staffSessionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		s.IDHash, s.StaffID, s.CSRFHash, millis(s.CreatedAt), millis(s.LastSeenAt), millis(s.ExpiresAt), nullMillis(s.RevokedAt))
	return insertError(err, "create staff session", "This staff session already exists.", "Staff member not found.")
}

// FindStaffSession returns the session with idHash, revoked or expired
// ones too (the caller decides), or ENOTFOUND.
func (db *DB) FindStaffSession(ctx context.Context, idHash string) (*chairside.StaffSession, error) {
	var s chairside.StaffSession
	var created, seen, expires int64
	var revoked sql.NullInt64
	err := db.queryRow(ctx, `SELECT `+staffSessionColumns+` FROM staff_sessions WHERE id_hash = ?`, idHash).
		Scan(&s.IDHash, &s.StaffID, &s.CSRFHash, &created, &seen, &expires, &revoked)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Staff session not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find staff session: %w", err)
	}
	s.CreatedAt, s.LastSeenAt, s.ExpiresAt, s.RevokedAt = fromMillis(created), fromMillis(seen), fromMillis(expires), fromNullMillis(revoked)
	return &s, nil
}

// TouchStaffSession moves the session's last-seen time forward to now.
func (db *DB) TouchStaffSession(ctx context.Context, idHash string, now time.Time) error {
	if _, err := db.exec(ctx, `UPDATE staff_sessions SET last_seen_at = ? WHERE id_hash = ? AND last_seen_at < ?`, millis(now), idHash, millis(now)); err != nil {
		return fmt.Errorf("store: touch staff session: %w", err)
	}
	return nil
}

// SetStaffSessionCSRF replaces the session's CSRF token hash.
func (db *DB) SetStaffSessionCSRF(ctx context.Context, idHash, csrfHash string) error {
	res, err := db.exec(ctx, `UPDATE staff_sessions SET csrf_hash = ? WHERE id_hash = ?`, csrfHash, idHash)
	if err != nil {
		return fmt.Errorf("store: set staff session csrf: %w", err)
	}
	return changed(res, chairside.ENOTFOUND, "Staff session not found.")
}

// RevokeStaffSession ends the session at now (once).
func (db *DB) RevokeStaffSession(ctx context.Context, idHash string, now time.Time) error {
	if _, err := db.exec(ctx, `UPDATE staff_sessions SET revoked_at = ? WHERE id_hash = ? AND revoked_at IS NULL`, millis(now), idHash); err != nil {
		return fmt.Errorf("store: revoke staff session: %w", err)
	}
	return nil
}

// AppendOfficeAudit adds a row to the office audit log. The log has no
// update or delete.
func (db *DB) AppendOfficeAudit(ctx context.Context, e *chairside.OfficeAuditEntry) error {
	if e.ID == "" {
		e.ID = newID()
	}
	e.At = db.stamp(e.At)
	_, err := db.exec(ctx, `INSERT INTO office_audit (id, location_id, staff_id, action, ip, details, at) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		e.ID, e.LocationID, e.StaffID, e.Action, e.IP, e.Details, millis(e.At))
	return insertError(err, "append office audit", "This audit row already exists.", "")
}

// ListOfficeAudit returns an office's audit rows, oldest first.
func (db *DB) ListOfficeAudit(ctx context.Context, locationID string) ([]*chairside.OfficeAuditEntry, error) {
	return queryAll(ctx, db, "list office audit", func(s scanner) (*chairside.OfficeAuditEntry, error) {
		var e chairside.OfficeAuditEntry
		var at int64
		if err := s.Scan(&e.ID, &e.LocationID, &e.StaffID, &e.Action, &e.IP, &e.Details, &at); err != nil {
			return nil, err
		}
		e.At = fromMillis(at)
		return &e, nil
	}, `SELECT id, location_id, staff_id, action, ip, details, at FROM office_audit WHERE location_id = ? ORDER BY at, id`, locationID)
}

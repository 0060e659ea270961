package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

const staffColumns = `id, location_id, email, password_hash, role, totp_secret, totp_confirmed_at, disabled_at, created_at`

// staffSelect reads staffColumns and the member's count of passkeys.
const staffSelect = `SELECT ` + staffColumns + `, (SELECT COUNT(*) FROM staff_passkeys p WHERE p.staff_id = staff.id) FROM staff`

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
	if !slices.Contains(chairside.StaffRoles, s.Role) {
		return chairside.Errorf(chairside.EINVALID, "A staff member's role is one of %s.", strings.Join(chairside.StaffRoles, ", "))
	}
	s.CreatedAt = db.stamp(s.CreatedAt)
	secret, err := db.sealTOTP(s.ID, s.TOTPSecret)
	if err != nil {
		return err
	}
	_, err = db.exec(ctx, `INSERT INTO staff (`+staffColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.ID, s.LocationID, s.Email, s.PasswordHash, s.Role, secret, nullMillis(s.TOTPConfirmedAt), nullMillis(s.DisabledAt), millis(s.CreatedAt))
	return insertError(err, "create staff", "A staff member with this email already exists.", "Location not found.")
}

// ListStaff returns the staff members of a location, disabled ones too,
// by email.
func (db *DB) ListStaff(ctx context.Context, locationID string) ([]*chairside.Staff, error) {
	return queryAll(ctx, db, "list staff", db.scanStaff, staffSelect+` WHERE location_id = ? ORDER BY email`, locationID)
}

// FindStaffByID returns the staff member with id, or ENOTFOUND.
func (db *DB) FindStaffByID(ctx context.Context, id string) (*chairside.Staff, error) {
	return db.findStaff(ctx, staffSelect+` WHERE id = ?`, id)
}

// FindStaffByEmail returns the staff member with email (any case), or
// ENOTFOUND.
func (db *DB) FindStaffByEmail(ctx context.Context, email string) (*chairside.Staff, error) {
	return db.findStaff(ctx, staffSelect+` WHERE email = ?`, strings.ToLower(strings.TrimSpace(email)))
}

func (db *DB) findStaff(ctx context.Context, q, arg string) (*chairside.Staff, error) {
	s, err := db.scanStaff(db.queryRow(ctx, q, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Staff member not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find staff: %w", err)
	}
	return s, nil
}

func (db *DB) scanStaff(s scanner) (*chairside.Staff, error) {
	var st chairside.Staff
	var confirmed, disabled sql.NullInt64
	var created int64
	var secret string
	if err := s.Scan(&st.ID, &st.LocationID, &st.Email, &st.PasswordHash, &st.Role, &secret, &confirmed, &disabled, &created, &st.Passkeys); err != nil {
		return nil, err
	}
	if secret != "" {
		plain, err := db.keys.Open(secret, totpAAD(st.ID))
		if err != nil {
			return nil, fmt.Errorf("store: staff %s: second factor key: %w", st.ID, err)
		}
		st.TOTPSecret = string(plain)
	}
	st.TOTPConfirmedAt, st.DisabledAt, st.CreatedAt = fromNullMillis(confirmed), fromNullMillis(disabled), fromMillis(created)
	return &st, nil
}

// totpAAD binds a sealed authenticator key to its staff member.
func totpAAD(staffID string) string { return "staff-totp:" + staffID }

// sealTOTP seals an authenticator key; none stays "".
func (db *DB) sealTOTP(staffID, secret string) (string, error) {
	if secret == "" {
		return "", nil
	}
	sealed, err := db.keys.Seal([]byte(secret), totpAAD(staffID))
	if err != nil {
		return "", fmt.Errorf("store: seal second factor key: %w", err)
	}
	return sealed, nil
}

// SetStaffTOTP keeps a new authenticator key for a member who has no
// confirmed one, replacing a key that was never confirmed; a member with
// a confirmed key answers ECONFLICT.
func (db *DB) SetStaffTOTP(ctx context.Context, id, secret string) error {
	sealed, err := db.sealTOTP(id, secret)
	if err != nil {
		return err
	}
	res, err := db.exec(ctx, `UPDATE staff SET totp_secret = ?, totp_last_step = 0 WHERE id = ? AND totp_confirmed_at IS NULL`, sealed, id)
	if err != nil {
		return fmt.Errorf("store: set staff totp: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "The second factor is already set up.")
}

// ConfirmStaffTOTP marks the member's key confirmed at now by a code of
// step, and replaces their recovery codes with codeHashes, in one
// transaction. A key already confirmed, or none, answers ECONFLICT.
func (db *DB) ConfirmStaffTOTP(ctx context.Context, id string, step int64, codeHashes []string, now time.Time) error {
	return db.Batch(ctx, func(t *DB) error {
		res, err := t.exec(ctx, `UPDATE staff SET totp_confirmed_at = ?, totp_last_step = ?
			WHERE id = ? AND totp_confirmed_at IS NULL AND totp_secret <> ''`, millis(now), step, id)
		if err != nil {
			return fmt.Errorf("store: confirm staff totp: %w", err)
		}
		if err := changed(res, chairside.ECONFLICT, "The second factor is already set up."); err != nil {
			return err
		}
		return t.ReplaceRecoveryCodes(ctx, id, codeHashes)
	})
}

// ReplaceRecoveryCodes makes codeHashes the member's recovery codes, the
// ones before forgotten.
func (db *DB) ReplaceRecoveryCodes(ctx context.Context, id string, codeHashes []string) error {
	return db.Batch(ctx, func(t *DB) error {
		if _, err := t.exec(ctx, `DELETE FROM staff_recovery_codes WHERE staff_id = ?`, id); err != nil {
			return fmt.Errorf("store: replace recovery codes: %w", err)
		}
		for _, h := range codeHashes {
			if _, err := t.exec(ctx, `INSERT INTO staff_recovery_codes (staff_id, hash) VALUES (?, ?)`, id, h); err != nil {
				return fmt.Errorf("store: replace recovery codes: %w", err)
			}
		}
		return nil
	})
}

// UseTOTPStep takes the 30-second step a code was good for, once: false
// when a code of that step or a later one was taken before, so a code
// seen over a shoulder or replayed does nothing.
func (db *DB) UseTOTPStep(ctx context.Context, id string, step int64) (bool, error) {
	res, err := db.exec(ctx, `UPDATE staff SET totp_last_step = ? WHERE id = ? AND totp_last_step < ?`, step, id, step)
	if err != nil {
		return false, fmt.Errorf("store: use totp step: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "") == nil, nil
}

// UseRecoveryCode spends one of the member's recovery codes by its hash:
// false when it is not theirs or was spent.
func (db *DB) UseRecoveryCode(ctx context.Context, id, hash string, now time.Time) (bool, error) {
	res, err := db.exec(ctx, `UPDATE staff_recovery_codes SET used_at = ? WHERE staff_id = ? AND hash = ? AND used_at IS NULL`, millis(now), id, hash)
	if err != nil {
		return false, fmt.Errorf("store: use recovery code: %w", err)
	}
	return changed(res, chairside.ECONFLICT, "") == nil, nil
}

// RecoveryCodesLeft counts the member's unspent recovery codes.
func (db *DB) RecoveryCodesLeft(ctx context.Context, id string) (int, error) {
	var n int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM staff_recovery_codes WHERE staff_id = ? AND used_at IS NULL`, id).Scan(&n); err != nil {
		return 0, fmt.Errorf("store: count recovery codes: %w", err)
	}
	return n, nil
}

// ResetStaffSecondFactor forgets the member's authenticator key, passkeys
// and recovery codes and ends their sessions: their next sign-in sets up a
// second factor again (an owner who lost theirs).
func (db *DB) ResetStaffSecondFactor(ctx context.Context, id string, now time.Time) error {
	return db.Batch(ctx, func(t *DB) error {
		res, err := t.exec(ctx, `UPDATE staff SET totp_secret = '', totp_confirmed_at = NULL, totp_last_step = 0 WHERE id = ?`, id)
		if err != nil {
			return fmt.Errorf("store: reset second factor: %w", err)
		}
		if err := changed(res, chairside.ENOTFOUND, "Staff member not found."); err != nil {
			return err
		}
		for _, table := range []string{"staff_recovery_codes", "staff_passkeys"} {
			if _, err := t.exec(ctx, `DELETE FROM `+table+` WHERE staff_id = ?`, id); err != nil {
				return fmt.Errorf("store: reset second factor: %s: %w", table, err)
			}
		}
		return t.revokeStaffSessions(ctx, id, now)
	})
}

// revokeStaffSessions ends every open session of the member at now.
func (db *DB) revokeStaffSessions(ctx context.Context, id string, now time.Time) error {
	_, err := db.exec(ctx, `UPDATE staff_sessions SET revoked_at = ? WHERE staff_id = ? AND revoked_at IS NULL`, millis(now), id)
	if err != nil {
		return fmt.Errorf("store: revoke staff sessions: %w", err)
	}
	return nil
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
		if err := t.revokeStaffSessions(ctx, id, now); err != nil {
			return err
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

const staffSessionColumns = `id_hash, staff_id, csrf_hash, created_at, last_seen_at, expires_at, revoked_at, second_factor_at, location_id`

// CreateStaffSession stores a new staff session.
func (db *DB) CreateStaffSession(ctx context.Context, s *chairside.StaffSession) error {
	s.CreatedAt = db.stamp(s.CreatedAt)
	if s.LastSeenAt.IsZero() {
		s.LastSeenAt = s.CreatedAt
	}
	s.LastSeenAt = s.LastSeenAt.Truncate(time.Millisecond)
	s.ExpiresAt = s.ExpiresAt.Truncate(time.Millisecond)
	_, err := db.exec(ctx, `INSERT INTO staff_sessions (`+staffSessionColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		s.IDHash, s.StaffID, s.CSRFHash, millis(s.CreatedAt), millis(s.LastSeenAt), millis(s.ExpiresAt), nullMillis(s.RevokedAt),
		nullMillis(s.SecondFactorAt), s.LocationID)
	return insertError(err, "create staff session", "This staff session already exists.", "Staff member not found.")
}

// FindStaffSession returns the session with idHash, revoked or expired
// ones too (the caller decides), or ENOTFOUND.
func (db *DB) FindStaffSession(ctx context.Context, idHash string) (*chairside.StaffSession, error) {
	var s chairside.StaffSession
	var created, seen, expires int64
	var revoked, passed sql.NullInt64
	err := db.queryRow(ctx, `SELECT `+staffSessionColumns+` FROM staff_sessions WHERE id_hash = ?`, idHash).
		Scan(&s.IDHash, &s.StaffID, &s.CSRFHash, &created, &seen, &expires, &revoked, &passed, &s.LocationID)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Staff session not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find staff session: %w", err)
	}
	s.CreatedAt, s.LastSeenAt, s.ExpiresAt, s.RevokedAt = fromMillis(created), fromMillis(seen), fromMillis(expires), fromNullMillis(revoked)
	s.SecondFactorAt = fromNullMillis(passed)
	return &s, nil
}

// PassStaffSessionSecondFactor marks the session's second factor passed
// at now (once).
func (db *DB) PassStaffSessionSecondFactor(ctx context.Context, idHash string, now time.Time) error {
	res, err := db.exec(ctx, `UPDATE staff_sessions SET second_factor_at = COALESCE(second_factor_at, ?) WHERE id_hash = ?`, millis(now), idHash)
	if err != nil {
		return fmt.Errorf("store: pass staff session second factor: %w", err)
	}
	return changed(res, chairside.ENOTFOUND, "Staff session not found.")
}

// SetStaffSessionLocation makes the session work in another office.
func (db *DB) SetStaffSessionLocation(ctx context.Context, idHash, locationID string) error {
	res, err := db.exec(ctx, `UPDATE staff_sessions SET location_id = ? WHERE id_hash = ?`, locationID, idHash)
	if err != nil {
		return fmt.Errorf("store: set staff session office: %w", err)
	}
	return changed(res, chairside.ENOTFOUND, "Staff session not found.")
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
	return db.ListOfficeAuditBetween(ctx, locationID, time.UnixMilli(0), time.UnixMilli(math.MaxInt64))
}

// ListOfficeAuditBetween returns an office's audit rows of [from, to),
// oldest first, each with the email of its staff member when known.
func (db *DB) ListOfficeAuditBetween(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.OfficeAuditEntry, error) {
	return queryAll(ctx, db, "list office audit", func(s scanner) (*chairside.OfficeAuditEntry, error) {
		var e chairside.OfficeAuditEntry
		var at int64
		var email sql.NullString
		if err := s.Scan(&e.ID, &e.LocationID, &e.StaffID, &e.Action, &e.IP, &e.Details, &at, &email); err != nil {
			return nil, err
		}
		e.At, e.StaffEmail = fromMillis(at), email.String
		return &e, nil
	}, `SELECT a.id, a.location_id, a.staff_id, a.action, a.ip, a.details, a.at, s.email
		FROM office_audit a LEFT JOIN staff s ON s.id = a.staff_id
		WHERE a.location_id = ? AND a.at >= ? AND a.at < ? ORDER BY a.at, a.id`, locationID, millis(from), millis(to))
}

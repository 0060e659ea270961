package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// AddStaffPasskey keeps a new passkey of a staff member; a credential id
// kept before answers ECONFLICT.
func (db *DB) AddStaffPasskey(ctx context.Context, p *chairside.StaffPasskey) error {
	p.CreatedAt = db.stamp(p.CreatedAt)
	_, err := db.exec(ctx, `INSERT INTO staff_passkeys (id, staff_id, credential, created_at, last_used_at) VALUES (?, ?, ?, ?, ?)`,
		p.ID, p.StaffID, string(p.Credential), millis(p.CreatedAt), nullMillis(p.LastUsedAt))
	return insertError(err, "add staff passkey", "This passkey is already kept.", "Staff member not found.")
}

// ListStaffPasskeys returns a staff member's passkeys, oldest first.
func (db *DB) ListStaffPasskeys(ctx context.Context, staffID string) ([]*chairside.StaffPasskey, error) {
	return queryAll(ctx, db, "list staff passkeys", func(s scanner) (*chairside.StaffPasskey, error) {
		var p chairside.StaffPasskey
		var cred string
		var created int64
		var used sql.NullInt64
		if err := s.Scan(&p.ID, &p.StaffID, &cred, &created, &used); err != nil {
			return nil, err
		}
		p.Credential, p.CreatedAt, p.LastUsedAt = []byte(cred), fromMillis(created), fromNullMillis(used)
		return &p, nil
	}, `SELECT id, staff_id, credential, created_at, last_used_at FROM staff_passkeys WHERE staff_id = ? ORDER BY created_at, id`, staffID)
}

// UsedStaffPasskey keeps a passkey's record as it is after a use (its
// signature counter) and when it was used.
func (db *DB) UsedStaffPasskey(ctx context.Context, id string, credential []byte, now time.Time) error {
	res, err := db.exec(ctx, `UPDATE staff_passkeys SET credential = ?, last_used_at = ? WHERE id = ?`, string(credential), millis(now), id)
	if err != nil {
		return fmt.Errorf("store: used staff passkey: %w", err)
	}
	return changed(res, chairside.ENOTFOUND, "Passkey not found.")
}

// CreatePasskeyCeremony keeps a ceremony begun, and forgets those that
// ended unanswered by now.
func (db *DB) CreatePasskeyCeremony(ctx context.Context, c *chairside.PasskeyCeremony, now time.Time) error {
	return db.Batch(ctx, func(t *DB) error {
		if _, err := t.exec(ctx, `DELETE FROM passkey_ceremonies WHERE expires_at < ?`, millis(now)); err != nil {
			return fmt.Errorf("store: passkey ceremonies: %w", err)
		}
		_, err := t.exec(ctx, `INSERT INTO passkey_ceremonies (id_hash, kind, staff_id, session_hash, data, expires_at) VALUES (?, ?, ?, ?, ?, ?)`,
			c.IDHash, c.Kind, c.StaffID, c.SessionHash, string(c.Data), millis(c.ExpiresAt))
		return insertError(err, "create passkey ceremony", "This ceremony already exists.", "")
	})
}

// TakePasskeyCeremony removes and returns the ceremony with idHash when it
// has not ended at now; anything else answers ENOTFOUND. Two answers to
// one challenge: the second finds nothing.
func (db *DB) TakePasskeyCeremony(ctx context.Context, idHash string, now time.Time) (*chairside.PasskeyCeremony, error) {
	var c chairside.PasskeyCeremony
	var data string
	var expires int64
	err := db.writeRow(ctx, `DELETE FROM passkey_ceremonies WHERE id_hash = ? AND expires_at > ?
		RETURNING id_hash, kind, staff_id, session_hash, data, expires_at`, idHash, millis(now)).
		Scan(&c.IDHash, &c.Kind, &c.StaffID, &c.SessionHash, &data, &expires)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("This passkey request has ended. Try again.")
	} else if err != nil {
		return nil, fmt.Errorf("store: take passkey ceremony: %w", err)
	}
	c.Data, c.ExpiresAt = []byte(data), fromMillis(expires)
	return &c, nil
}

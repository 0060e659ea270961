package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// tokenName is the sealed part of a flow token: the patient's name and
// where the office sent the link, when the office gave them.
type tokenName struct {
	FirstName   string `json:"firstName,omitempty"`
	LastName    string `json:"lastName,omitempty"`
	MobilePhone string `json:"mobilePhone,omitempty"`
	Email       string `json:"email,omitempty"`
	Language    string `json:"language,omitempty"`
	TextConsent bool   `json:"textConsent,omitempty"`
	Link        string `json:"link,omitempty"`
	// Record: the invitation was made from the office's own records.
	Record *chairside.RecordPrefill `json:"record,omitempty"`
}

// tokenAAD binds a token's sealed name to its row.
func tokenAAD(hash string) string { return "flow_tokens/" + hash + "/name" }

const flowTokenColumns = `hash, id, staff_id, location_id, purchase_amount_cents, insurance_benefits_cents, name_sealed,
	experience_type, expires_at, used_at, canceled_at, created_at`

// CreateFlowToken stores a flow token by its hash, sealing the optional
// patient name and contact. A zero CreatedAt gets db.Now. A duplicate hash
// answers ECONFLICT, an unknown location ENOTFOUND.
func (db *DB) CreateFlowToken(ctx context.Context, t *chairside.FlowToken) error {
	if t.Hash == "" {
		return chairside.Errorf(chairside.EINVALID, "A flow token needs a hash.")
	}
	t.CreatedAt = db.stamp(t.CreatedAt)
	t.ExpiresAt = t.ExpiresAt.Truncate(time.Millisecond)
	var sealed string
	name := tokenName{FirstName: t.FirstName, LastName: t.LastName, MobilePhone: t.MobilePhone, Email: t.Email,
		Language: t.Language, TextConsent: t.TextConsent, Link: t.Link, Record: t.Record}
	if name != (tokenName{}) {
		buf, err := json.Marshal(name)
		if err != nil {
			return fmt.Errorf("store: create flow token: %w", err)
		}
		if sealed, err = db.keys.Seal(buf, tokenAAD(t.Hash)); err != nil {
			return fmt.Errorf("store: create flow token: %w", err)
		}
	}
	_, err := db.exec(ctx, `INSERT INTO flow_tokens (`+flowTokenColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.Hash, t.ID, t.StaffID, t.LocationID, t.PurchaseAmountCents, t.InsuranceBenefitsCents, sealed, t.ExperienceType,
		millis(t.ExpiresAt), nullMillis(t.UsedAt), nullMillis(t.CanceledAt), millis(t.CreatedAt))
	return insertError(err, "create flow token", "This flow token already exists.", "Location not found.")
}

// ConsumeFlowToken marks the token with hash used at now and returns it, in
// one statement, so two patients scanning the same code cannot both start.
// A missing, used, canceled or expired token answers ENOTFOUND.
func (db *DB) ConsumeFlowToken(ctx context.Context, hash string, now time.Time) (*chairside.FlowToken, error) {
	// UPDATE … RETURNING works in PostgreSQL and in SQLite since 3.35. A
	// canceled token has used_at set too.
	row := db.writeRow(ctx, `UPDATE flow_tokens SET used_at = ?
		WHERE hash = ? AND used_at IS NULL AND expires_at > ?
		RETURNING `+flowTokenColumns,
		millis(now), hash, millis(now))
	t, err := db.scanFlowToken(row)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("This link is not valid any more.")
	} else if err != nil {
		return nil, fmt.Errorf("store: consume flow token: %w", err)
	}
	return t, nil
}

// scanFlowToken reads a row of flowTokenColumns and opens its sealed part
// (blank after the purge).
func (db *DB) scanFlowToken(s scanner) (*chairside.FlowToken, error) {
	var t chairside.FlowToken
	var sealed string
	var expires, created int64
	var used, canceled sql.NullInt64
	if err := s.Scan(&t.Hash, &t.ID, &t.StaffID, &t.LocationID, &t.PurchaseAmountCents, &t.InsuranceBenefitsCents, &sealed,
		&t.ExperienceType, &expires, &used, &canceled, &created); err != nil {
		return nil, err
	}
	t.ExpiresAt, t.UsedAt, t.CanceledAt, t.CreatedAt = fromMillis(expires), fromNullMillis(used), fromNullMillis(canceled), fromMillis(created)
	if sealed != "" {
		buf, err := db.keys.Open(sealed, tokenAAD(t.Hash))
		if err != nil {
			return nil, err
		}
		var name tokenName
		if err := json.Unmarshal(buf, &name); err != nil {
			return nil, fmt.Errorf("name: %w", err)
		}
		t.FirstName, t.LastName, t.MobilePhone, t.Email = name.FirstName, name.LastName, name.MobilePhone, name.Email
		t.Language, t.TextConsent, t.Link, t.Record = name.Language, name.TextConsent, name.Link, name.Record
	}
	return &t, nil
}

// CreateInvite stores an office invitation and its outbox messages in one
// transaction: the link is sent only if the invitation exists, and an
// invitation is never kept without the messages the office asked for.
func (db *DB) CreateInvite(ctx context.Context, t *chairside.FlowToken, msgs []*chairside.OutboxMessage) error {
	if t.ID == "" {
		t.ID = newID()
	}
	return db.Batch(ctx, func(v *DB) error {
		if err := v.CreateFlowToken(ctx, t); err != nil {
			return err
		}
		for _, m := range msgs {
			if err := v.enqueueOutbox(ctx, m); err != nil {
				return err
			}
		}
		return nil
	})
}

// CancelInvite spends an unused invitation of the location, as a use
// would, so its link then answers like any used link.
func (db *DB) CancelInvite(ctx context.Context, locationID, id string, now time.Time) error {
	res, err := db.exec(ctx, `UPDATE flow_tokens SET used_at = ?, canceled_at = ?
		WHERE id = ? AND location_id = ? AND used_at IS NULL AND expires_at > ?`,
		millis(now), millis(now), id, locationID, millis(now))
	if err != nil {
		return fmt.Errorf("store: cancel invite: %w", err)
	}
	n, err := rowsAffected(res)
	if err != nil || n > 0 {
		return err
	}
	var count int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM flow_tokens WHERE id = ? AND location_id = ?`, id, locationID).Scan(&count); err != nil {
		return fmt.Errorf("store: cancel invite: %w", err)
	}
	if count == 0 {
		return notFound("There is no such invitation at your office.")
	}
	return conflict("This invitation was already used, canceled or has expired.")
}

// ListInvites answers the location's invitations of [from, to) that no
// patient opened: never used, or canceled.
func (db *DB) ListInvites(ctx context.Context, locationID string, from, to time.Time) ([]*chairside.FlowToken, error) {
	return queryAll(ctx, db, "list invites", db.scanFlowToken,
		`SELECT `+flowTokenColumns+` FROM flow_tokens
		WHERE location_id = ? AND id <> '' AND created_at >= ? AND created_at < ? AND (used_at IS NULL OR canceled_at IS NOT NULL)
		ORDER BY created_at DESC, id`, locationID, millis(from), millis(to))
}

// FindInvite answers the location's invitation id, whatever became of it;
// another location's or an unknown id answers ENOTFOUND.
func (db *DB) FindInvite(ctx context.Context, locationID, id string) (*chairside.FlowToken, error) {
	t, err := db.scanFlowToken(db.queryRow(ctx, `SELECT `+flowTokenColumns+` FROM flow_tokens WHERE id = ? AND location_id = ?`, id, locationID))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("There is no such invitation at your office.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find invite: %w", err)
	}
	return t, nil
}

// ResendInvite queues more messages of the location's invitation id, in
// one transaction with the checks that no patient has opened it, it has
// not expired or been canceled, and it was sent fewer than maxSends times
// on the first message's channel (ECONFLICT otherwise).
func (db *DB) ResendInvite(ctx context.Context, locationID, id string, now time.Time, maxSends int, msgs []*chairside.OutboxMessage) error {
	if len(msgs) == 0 {
		return nil
	}
	return db.Batch(ctx, func(v *DB) error {
		var open, sends int
		if err := v.queryRow(ctx, `SELECT COUNT(*) FROM flow_tokens WHERE id = ? AND location_id = ? AND used_at IS NULL AND expires_at > ?`,
			id, locationID, millis(now)).Scan(&open); err != nil {
			return fmt.Errorf("store: resend invite: %w", err)
		}
		if open == 0 {
			return conflict("This invitation was already used, canceled or has expired.")
		}
		if err := v.queryRow(ctx, `SELECT COUNT(*) FROM outbox WHERE invite_id = ? AND channel = ?`, id, msgs[0].Channel).Scan(&sends); err != nil {
			return fmt.Errorf("store: resend invite: %w", err)
		}
		if sends >= maxSends {
			return conflict("This invitation's link has been sent as often as it can be: hand over the QR code, or make a new invitation.")
		}
		for _, m := range msgs {
			if err := v.enqueueOutbox(ctx, m); err != nil {
				return err
			}
		}
		return nil
	})
}

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

// tokenName is the sealed part of a flow token: the patient's name, when
// the office gave one.
type tokenName struct {
	FirstName string `json:"firstName,omitempty"`
	LastName  string `json:"lastName,omitempty"`
}

// tokenAAD binds a token's sealed name to its row.
func tokenAAD(hash string) string { return "flow_tokens/" + hash + "/name" }

// CreateFlowToken stores a flow token by its hash, sealing the optional
// patient name. A zero CreatedAt gets db.Now. A duplicate hash answers
// ECONFLICT, an unknown location ENOTFOUND.
func (db *DB) CreateFlowToken(ctx context.Context, t *chairside.FlowToken) error {
	if t.Hash == "" {
		return chairside.Errorf(chairside.EINVALID, "A flow token needs a hash.")
	}
	t.CreatedAt = db.stamp(t.CreatedAt)
	t.ExpiresAt = t.ExpiresAt.Truncate(time.Millisecond)
	var sealed string
	if t.FirstName != "" || t.LastName != "" {
		buf, err := json.Marshal(tokenName{FirstName: t.FirstName, LastName: t.LastName})
		if err != nil {
			return fmt.Errorf("store: create flow token: %w", err)
		}
		if sealed, err = db.keys.Seal(buf, tokenAAD(t.Hash)); err != nil {
			return fmt.Errorf("store: create flow token: %w", err)
		}
	}
	_, err := db.exec(ctx, `INSERT INTO flow_tokens (hash, location_id, purchase_amount_cents, insurance_benefits_cents, name_sealed, experience_type, expires_at, used_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		t.Hash, t.LocationID, t.PurchaseAmountCents, t.InsuranceBenefitsCents, sealed, t.ExperienceType,
		millis(t.ExpiresAt), nullMillis(t.UsedAt), millis(t.CreatedAt))
	return insertError(err, "create flow token", "This flow token already exists.", "Location not found.")
}

// ConsumeFlowToken marks the token with hash used at now and returns it, in
// one statement, so two patients scanning the same code cannot both start.
// A missing, used or expired token answers ENOTFOUND.
func (db *DB) ConsumeFlowToken(ctx context.Context, hash string, now time.Time) (*chairside.FlowToken, error) {
	// UPDATE … RETURNING works in PostgreSQL and in SQLite since 3.35.
	row := db.writeRow(ctx, `UPDATE flow_tokens SET used_at = ?
		WHERE hash = ? AND used_at IS NULL AND expires_at > ?
		RETURNING hash, location_id, purchase_amount_cents, insurance_benefits_cents, name_sealed, experience_type, expires_at, used_at, created_at`,
		millis(now), hash, millis(now))
	var t chairside.FlowToken
	var sealed string
	var expires, created int64
	var used sql.NullInt64
	err := row.Scan(&t.Hash, &t.LocationID, &t.PurchaseAmountCents, &t.InsuranceBenefitsCents, &sealed, &t.ExperienceType, &expires, &used, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("This link is not valid any more.")
	} else if err != nil {
		return nil, fmt.Errorf("store: consume flow token: %w", err)
	}
	t.ExpiresAt, t.UsedAt, t.CreatedAt = fromMillis(expires), fromNullMillis(used), fromMillis(created)
	if sealed != "" {
		buf, err := db.keys.Open(sealed, tokenAAD(t.Hash))
		if err != nil {
			return nil, fmt.Errorf("store: consume flow token: %w", err)
		}
		var name tokenName
		if err := json.Unmarshal(buf, &name); err != nil {
			return nil, fmt.Errorf("store: consume flow token: name: %w", err)
		}
		t.FirstName, t.LastName = name.FirstName, name.LastName
	}
	return &t, nil
}

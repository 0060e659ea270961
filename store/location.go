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

const locationColumns = `id, entity_key, name, state, group_id, brand_name, brand_logo, waterfall, created_at`

// CreateLocation stores a new location. An empty l.ID gets a random id and a
// zero CreatedAt gets db.Now. A duplicate id or entity key answers ECONFLICT.
func (db *DB) CreateLocation(ctx context.Context, l *chairside.Location) error {
	if l.ID == "" {
		l.ID = newID()
	}
	l.CreatedAt = db.stamp(l.CreatedAt)
	waterfall, err := json.Marshal(l.Waterfall)
	if err != nil {
		return fmt.Errorf("store: create location: %w", err)
	}
	_, err = db.exec(ctx, `INSERT INTO locations (`+locationColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.EntityKey, l.Name, l.State, l.GroupID, l.BrandName, l.BrandLogo, string(waterfall), millis(l.CreatedAt))
	if isUniqueViolation(err) {
		return conflict("A location with this id or entity key already exists.")
	} else if err != nil {
		return fmt.Errorf("store: create location: %w", err)
	}
	return nil
}

// FindLocationByID returns the location with id, or ENOTFOUND.
func (db *DB) FindLocationByID(ctx context.Context, id string) (*chairside.Location, error) {
	return db.findLocation(ctx, "id", id)
}

// FindLocationByEntityKey returns the location with a 16-digit entity key,
// or ENOTFOUND.
func (db *DB) FindLocationByEntityKey(ctx context.Context, entityKey string) (*chairside.Location, error) {
	return db.findLocation(ctx, "entity_key", entityKey)
}

// findLocation looks a location up by column, a constant of this file.
func (db *DB) findLocation(ctx context.Context, column, value string) (*chairside.Location, error) {
	l, err := scanLocation(db.queryRow(ctx, `SELECT `+locationColumns+` FROM locations WHERE `+column+` = ?`, value))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("Location not found.")
	} else if err != nil {
		return nil, fmt.Errorf("store: find location: %w", err)
	}
	return l, nil
}

// ListLocations returns every location, oldest first.
func (db *DB) ListLocations(ctx context.Context) ([]*chairside.Location, error) {
	rows, err := db.query(ctx, `SELECT `+locationColumns+` FROM locations ORDER BY created_at, id`)
	if err != nil {
		return nil, fmt.Errorf("store: list locations: %w", err)
	}
	defer rows.Close()
	var out []*chairside.Location
	for rows.Next() {
		l, err := scanLocation(rows)
		if err != nil {
			return nil, fmt.Errorf("store: list locations: %w", err)
		}
		out = append(out, l)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list locations: %w", err)
	}
	return out, nil
}

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

func scanLocation(s scanner) (*chairside.Location, error) {
	var l chairside.Location
	var waterfall string
	var created int64
	if err := s.Scan(&l.ID, &l.EntityKey, &l.Name, &l.State, &l.GroupID, &l.BrandName, &l.BrandLogo, &waterfall, &created); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(waterfall), &l.Waterfall); err != nil {
		return nil, fmt.Errorf("location %s: waterfall: %w", l.ID, err)
	}
	l.CreatedAt = fromMillis(created)
	return &l, nil
}

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
	switch {
	case isUniqueViolation(err):
		return conflict("This flow token already exists.")
	case isForeignKeyViolation(err):
		return notFound("Location not found.")
	case err != nil:
		return fmt.Errorf("store: create flow token: %w", err)
	}
	return nil
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

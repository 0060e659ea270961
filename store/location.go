package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/chairside/chairside"
)

const locationColumns = `id, entity_key, name, state, group_id, brand_name, brand_logo, language, purchaser_enabled, waterfall, created_at, text_sender`

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
	_, err = db.exec(ctx, `INSERT INTO locations (`+locationColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		l.ID, l.EntityKey, l.Name, l.State, l.GroupID, l.BrandName, l.BrandLogo, l.Language, boolInt(l.PurchaserEnabled), string(waterfall), millis(l.CreatedAt),
		l.TextSender)
	return insertError(err, "create location", "A location with this id or entity key already exists.", "")
}

// UpsertLocation creates l or updates the location with its entity key,
// keeping that one's id and creation time (docs/offices.md). The look-up and
// the write share one transaction (or the caller's Batch).
func (db *DB) UpsertLocation(ctx context.Context, l *chairside.Location) error {
	return db.Batch(ctx, func(s *DB) error { return s.upsertLocation(ctx, l) })
}

func (db *DB) upsertLocation(ctx context.Context, l *chairside.Location) error {
	old, err := db.FindLocationByEntityKey(ctx, l.EntityKey)
	switch chairside.ErrorCode(err) {
	case chairside.ENOTFOUND:
		return db.CreateLocation(ctx, l)
	case "":
	default:
		return err
	}
	waterfall, err := json.Marshal(l.Waterfall)
	if err != nil {
		return fmt.Errorf("store: update location: %w", err)
	}
	_, err = db.exec(ctx, `UPDATE locations SET name = ?, state = ?, group_id = ?, brand_name = ?, brand_logo = ?, language = ?, purchaser_enabled = ?, waterfall = ?,
		text_sender = ? WHERE id = ?`, l.Name, l.State, l.GroupID, l.BrandName, l.BrandLogo, l.Language, boolInt(l.PurchaserEnabled), string(waterfall),
		l.TextSender, old.ID)
	if err != nil {
		return fmt.Errorf("store: update location: %w", err)
	}
	l.ID, l.CreatedAt = old.ID, old.CreatedAt
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
	return queryAll(ctx, db, "list locations", scanLocation, `SELECT `+locationColumns+` FROM locations ORDER BY created_at, id`)
}

// ListGroupLocations returns the locations of a group by name; a location
// with no group ("") is in none.
func (db *DB) ListGroupLocations(ctx context.Context, groupID string) ([]*chairside.Location, error) {
	if groupID == "" {
		return nil, nil
	}
	return queryAll(ctx, db, "list group locations", scanLocation, `SELECT `+locationColumns+` FROM locations WHERE group_id = ? ORDER BY name, id`, groupID)
}

// scanLocation reads one row of locationColumns.
func scanLocation(s scanner) (*chairside.Location, error) {
	var l chairside.Location
	var waterfall string
	var purchaser, created int64
	if err := s.Scan(&l.ID, &l.EntityKey, &l.Name, &l.State, &l.GroupID, &l.BrandName, &l.BrandLogo, &l.Language, &purchaser, &waterfall, &created, &l.TextSender); err != nil {
		return nil, err
	}
	l.PurchaserEnabled = purchaser != 0
	if err := json.Unmarshal([]byte(waterfall), &l.Waterfall); err != nil {
		return nil, fmt.Errorf("location %s: waterfall: %w", l.ID, err)
	}
	l.CreatedAt = fromMillis(created)
	return &l, nil
}

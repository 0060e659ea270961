package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/chairside/chairside"
)

// An office's connection to its practice-management system
// (docs/practice-records.md): the customer key sealed under the row's own
// binding, the rest in the clear.

func recordsKeyAAD(locationID string) string { return "records_connections/" + locationID + "/key" }

// SaveRecordsConnection creates or replaces the office's connection.
func (db *DB) SaveRecordsConnection(ctx context.Context, c *chairside.RecordsConnection) error {
	sealed, err := db.keys.Seal([]byte(c.CustomerKey), recordsKeyAAD(c.LocationID))
	if err != nil {
		return fmt.Errorf("store: save records connection: %w", err)
	}
	c.CreatedAt = db.stamp(c.CreatedAt)
	_, err = db.exec(ctx, `INSERT INTO records_connections (location_id, system, base_url, key_sealed, post_on, state, detail, checked_at, created_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (location_id) DO UPDATE SET system = excluded.system, base_url = excluded.base_url, key_sealed = excluded.key_sealed,
			post_on = excluded.post_on, state = excluded.state, detail = excluded.detail, checked_at = excluded.checked_at`,
		c.LocationID, c.System, c.BaseURL, sealed, c.PostOn, c.State, c.Detail, millis(c.CheckedAt), millis(c.CreatedAt))
	if err != nil {
		return fmt.Errorf("store: save records connection: %w", err)
	}
	return nil
}

// RecordsConnection answers the office's connection, its key opened;
// ENOTFOUND when it has none.
func (db *DB) RecordsConnection(ctx context.Context, locationID string) (*chairside.RecordsConnection, error) {
	var c chairside.RecordsConnection
	var sealed string
	var checked, created int64
	err := db.queryRow(ctx, `SELECT location_id, system, base_url, key_sealed, post_on, state, detail, checked_at, created_at
		FROM records_connections WHERE location_id = ?`, locationID).
		Scan(&c.LocationID, &c.System, &c.BaseURL, &sealed, &c.PostOn, &c.State, &c.Detail, &checked, &created)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, notFound("This office has not connected its practice records.")
	} else if err != nil {
		return nil, fmt.Errorf("store: records connection: %w", err)
	}
	key, err := db.keys.Open(sealed, recordsKeyAAD(locationID))
	if err != nil {
		return nil, fmt.Errorf("store: records connection: %w", err)
	}
	c.CustomerKey, c.CheckedAt, c.CreatedAt = string(key), fromMillis(checked), fromMillis(created)
	return &c, nil
}

// SetRecordsState records how the office's system last answered.
func (db *DB) SetRecordsState(ctx context.Context, locationID, state, detail string, at time.Time) error {
	if _, err := db.exec(ctx, `UPDATE records_connections SET state = ?, detail = ?, checked_at = ? WHERE location_id = ?`,
		state, detail, millis(at), locationID); err != nil {
		return fmt.Errorf("store: records state: %w", err)
	}
	return nil
}

// DeleteRecordsConnection forgets the office's connection and its key.
func (db *DB) DeleteRecordsConnection(ctx context.Context, locationID string) error {
	if _, err := db.exec(ctx, `DELETE FROM records_connections WHERE location_id = ?`, locationID); err != nil {
		return fmt.Errorf("store: delete records connection: %w", err)
	}
	return nil
}

package store

import (
	"context"
	"errors"
	"fmt"

	"github.com/chairside/chairside/seal"
)

// sealedColumn is one column holding values sealed with the data keys:
// its table, the column that finds its row, and the additional data each
// value is bound to (derived from that row's key, as the code that writes
// it does). Every column written with db.keys.Seal is listed here, so a
// key rotation reaches all of them (TestSealedColumnsListed).
type sealedColumn struct {
	table, key, column string
	aad                func(key string) string
}

var sealedColumns = []sealedColumn{
	{"applications", "id", "primary_sealed", func(id string) string { return applicantAAD(id, "primary") }},
	{"applications", "id", "joint_sealed", func(id string) string { return applicantAAD(id, "joint") }},
	{"consents", "id", "signature_png", signatureAAD},
	{"flow_tokens", "hash", "name_sealed", tokenAAD},
	{"outbox", "id", "body_sealed", outboxAAD},
	{"records_connections", "location_id", "key_sealed", recordsKeyAAD},
	{"staff", "id", "totp_secret", totpAAD},
}

// SealedCounts answers how many values each key id seals, over every
// sealed column: what a rotation has left to do, and whether an old key
// may be retired.
func (db *DB) SealedCounts(ctx context.Context) (map[string]int, error) {
	out := map[string]int{}
	for _, c := range sealedColumns {
		for _, id := range db.keys.KeyIDs() {
			var n int
			q := fmt.Sprintf(`SELECT COUNT(*) FROM %s WHERE %s LIKE ?`, c.table, c.column)
			if err := db.queryRow(ctx, q, seal.Prefix(id)+"%").Scan(&n); err != nil {
				return nil, fmt.Errorf("store: sealed counts %s.%s: %w", c.table, c.column, err)
			}
			out[id] += n
		}
	}
	return out, nil
}

// ErrCannotReseal is a sealed value the keyring cannot open: sealed with
// a key it lacks, or damaged. The rotation stops there rather than skip a
// value it would then leave behind.
var ErrCannotReseal = errors.New("store: a sealed value does not open with these keys")

// Reseal seals again with the current key up to limit values sealed with
// an older one, and answers how many it changed; 0 when none is left.
// Each value is replaced only if it is still the one read, so a patient's
// write in between wins and is left for the next round (already on the
// current key). Rounds may stop at any point — a crash, a restart — and
// the next round goes on from what is left: nothing records progress but
// the values themselves.
func (db *DB) Reseal(ctx context.Context, limit int) (int, error) {
	current := seal.Prefix(db.keys.CurrentID())
	changed := 0
	for _, c := range sealedColumns {
		if changed >= limit {
			break
		}
		type row struct{ key, value string }
		q := fmt.Sprintf(`SELECT %s, %s FROM %s WHERE %s <> '' AND %s NOT LIKE ? LIMIT %d`,
			c.key, c.column, c.table, c.column, c.column, limit-changed)
		rows, err := queryAll(ctx, db, "reseal "+c.table, func(s scanner) (r row, err error) {
			return r, s.Scan(&r.key, &r.value)
		}, q, current+"%")
		if err != nil {
			return changed, err
		}
		for _, r := range rows {
			n, err := db.resealOne(ctx, c, r.key, r.value)
			if err != nil {
				return changed, err
			}
			changed += n
		}
	}
	return changed, nil
}

// resealOne replaces one value with the same plaintext sealed with the
// current key, if the value is still old.
func (db *DB) resealOne(ctx context.Context, c sealedColumn, key, old string) (int, error) {
	plain, err := db.keys.Open(old, c.aad(key))
	if err != nil {
		return 0, fmt.Errorf("%w: %s.%s of %s", ErrCannotReseal, c.table, c.column, key)
	}
	fresh, err := db.keys.Seal(plain, c.aad(key))
	if err != nil {
		return 0, err
	}
	var n int64
	err = db.Batch(ctx, func(w *DB) error {
		res, err := w.exec(ctx, fmt.Sprintf(`UPDATE %s SET %s = ? WHERE %s = ? AND %s = ?`, c.table, c.column, c.key, c.column),
			fresh, key, old)
		if err != nil {
			return fmt.Errorf("store: reseal %s.%s: %w", c.table, c.column, err)
		}
		n, err = rowsAffected(res)
		return err
	})
	return int(n), err
}

// OpenAllSealed opens every sealed value of every column with the
// keyring, a page at a time, and answers how many it opened: after a
// rotation, proof that the keys in hand read everything; before a
// restore is trusted, that the keys kept apart fit the data.
func (db *DB) OpenAllSealed(ctx context.Context) (int, error) {
	opened := 0
	for _, c := range sealedColumns {
		after := ""
		for {
			type row struct{ key, value string }
			q := fmt.Sprintf(`SELECT %s, %s FROM %s WHERE %s <> '' AND %s > ? ORDER BY %s LIMIT 500`,
				c.key, c.column, c.table, c.column, c.key, c.key)
			rows, err := queryAll(ctx, db, "open sealed "+c.table, func(s scanner) (r row, err error) {
				return r, s.Scan(&r.key, &r.value)
			}, q, after)
			if err != nil {
				return opened, err
			}
			for _, r := range rows {
				if _, err := db.keys.Open(r.value, c.aad(r.key)); err != nil {
					return opened, fmt.Errorf("%w: %s.%s of %s", ErrCannotReseal, c.table, c.column, r.key)
				}
				opened++
				after = r.key
			}
			if len(rows) < 500 {
				break
			}
		}
	}
	return opened, nil
}

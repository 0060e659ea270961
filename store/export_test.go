package store

import "database/sql"

// RawDB exposes the underlying database to this package's external tests,
// which read tables directly to prove what is (not) stored in clear.
func RawDB(db *DB) *sql.DB { return db.db }

// Rebind exposes placeholder rebinding to the external tests.
func Rebind(db *DB, q string) string { return db.rebind(q) }

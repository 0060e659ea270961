package store

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"strings"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// SchemaID names the schema the migrations of this binary build: a hash of
// their names and contents. Tests key a migrated template database by it
// (store/storetest), so a changed migration never clones a stale schema.
func SchemaID() string {
	names, _ := fs.Glob(migrationFS, "migrations/*.sql")
	h := sha256.New()
	for _, name := range names {
		buf, _ := fs.ReadFile(migrationFS, name)
		fmt.Fprintf(h, "%s\n%d\n", name, len(buf))
		h.Write(buf)
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// migrate applies every embedded migration not applied yet, in name order,
// each in its own transaction together with its schema_migrations row, so a
// migration is applied completely and once, or not at all.
func (db *DB) migrate(ctx context.Context) error {
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	// fs.Glob answers sorted names: 0001_…, 0002_…
	for _, name := range names {
		if err := db.migrateFile(ctx, name); err != nil {
			return err
		}
	}
	return nil
}

func (db *DB) migrateFile(ctx context.Context, name string) error {
	return db.rawTx(ctx, func(tx *sql.Tx) error {
		if db.engine == Postgres {
			// Servers starting together against one database take turns;
			// the lock is released at commit. The number is arbitrary but
			// fixed.
			if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(7201923)`); err != nil {
				return fmt.Errorf("store: migration lock: %w", err)
			}
		}
		if _, err := tx.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at BIGINT NOT NULL)`); err != nil {
			return fmt.Errorf("store: schema_migrations: %w", err)
		}
		var n int
		if err := tx.QueryRowContext(ctx, db.rebind(`SELECT COUNT(*) FROM schema_migrations WHERE name = ?`), name).Scan(&n); err != nil {
			return fmt.Errorf("store: schema_migrations: %w", err)
		}
		if n > 0 {
			return nil
		}
		buf, err := fs.ReadFile(migrationFS, name)
		if err != nil {
			return fmt.Errorf("store: migration %s: %w", name, err)
		}
		for i, stmt := range splitStatements(string(buf)) {
			if _, err := tx.ExecContext(ctx, stmt); err != nil {
				return fmt.Errorf("store: migration %s statement %d: %w", name, i+1, err)
			}
		}
		if _, err := tx.ExecContext(ctx, db.rebind(`INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)`), name, millis(db.Now())); err != nil {
			return fmt.Errorf("store: migration %s: %w", name, err)
		}
		return nil
	})
}

// splitStatements splits a migration file into statements at semicolons
// ending a line, dropping "--" comment lines. Migrations are ours, so they
// keep to that shape: one statement per ";\n", no semicolons in literals.
func splitStatements(src string) []string {
	var out []string
	var cur strings.Builder
	for line := range strings.Lines(src) {
		trimmed := strings.TrimSpace(line)
		if strings.HasPrefix(trimmed, "--") {
			continue
		}
		cur.WriteString(line)
		if strings.HasSuffix(trimmed, ";") {
			if s := strings.TrimSpace(cur.String()); s != ";" {
				out = append(out, s)
			}
			cur.Reset()
		}
	}
	if s := strings.TrimSpace(cur.String()); s != "" {
		out = append(out, s)
	}
	return out
}

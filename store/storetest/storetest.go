// Package storetest opens real, empty stores for tests: SQLite in a
// temporary directory and PostgreSQL in a fresh database, so one test runs
// unchanged against both engines.
//
//	func TestSomething(t *testing.T) {
//		storetest.Each(t, func(t *testing.T, db *store.DB) {
//			// db is empty and belongs to this (sub)test alone.
//		})
//	}
//
// PostgreSQL is reached at CHAIRSIDE_TEST_POSTGRES (default
// postgres://postgres@127.0.0.1:5432/test?sslmode=disable); every store gets
// its own database chairside_test_<random>, dropped when the test ends. If
// the server cannot be reached the PostgreSQL half of a test is skipped with
// a message, unless CHAIRSIDE_REQUIRE_POSTGRES=1 (CI sets it), which makes it
// fail instead.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // the "pgx" driver, for the admin connection

	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
)

// DefaultPostgres is the server used when CHAIRSIDE_TEST_POSTGRES is unset.
const DefaultPostgres = "postgres://postgres@127.0.0.1:5432/test?sslmode=disable"

// Engine is one opened test store.
type Engine struct {
	// Name is store.SQLite or store.Postgres.
	Name string
	// DSN is what the store was opened with: the SQLite file path, or the
	// PostgreSQL URL of the test's own database. Open a second store on it
	// to play a second server.
	DSN string
	// Keys is the keyring the store seals with.
	Keys *seal.Keyring
	// DB is the open store, closed when the test ends.
	DB *store.DB
}

// Keys returns a fresh random keyring for one test.
func Keys(t testing.TB) *seal.Keyring {
	t.Helper()
	data, err := seal.Generate()
	if err != nil {
		t.Fatal(err)
	}
	k, err := seal.FromJSON(data)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// Each runs fn as two subtests, "sqlite" and "postgres", each with its own
// empty store.
func Each(t *testing.T, fn func(t *testing.T, db *store.DB)) {
	t.Helper()
	EachEngine(t, func(t *testing.T, e Engine) { fn(t, e.DB) })
}

// EachEngine is Each for tests that need more than the store: its DSN (to
// read the SQLite file, or open a second server) or its keyring.
func EachEngine(t *testing.T, fn func(t *testing.T, e Engine)) {
	t.Helper()
	t.Run(store.SQLite, func(t *testing.T) { fn(t, SQLite(t)) })
	t.Run(store.Postgres, func(t *testing.T) { fn(t, Postgres(t)) })
}

// Open returns an empty store on every engine available: SQLite always,
// PostgreSQL when reachable (or a test failure if CHAIRSIDE_REQUIRE_POSTGRES=1).
// Unlike Each it never skips the calling test.
func Open(t testing.TB) []Engine {
	t.Helper()
	engines := []Engine{SQLite(t)}
	if _, err := admin(); err != nil {
		if os.Getenv("CHAIRSIDE_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("storetest: PostgreSQL required but unreachable at %s: %v", redacted(), err)
		}
		t.Logf("storetest: PostgreSQL unreachable at %s, SQLite only: %v", redacted(), err)
		return engines
	}
	return append(engines, Postgres(t))
}

// SQLite opens an empty SQLite store in t.TempDir with a fresh keyring.
func SQLite(t testing.TB) Engine {
	t.Helper()
	keys := Keys(t)
	path := filepath.Join(t.TempDir(), "chairside.db")
	db, err := store.Open(context.Background(), path, keys)
	if err != nil {
		t.Fatalf("storetest: open sqlite: %v", err)
	}
	t.Cleanup(func() { db.Close() })
	return Engine{Name: store.SQLite, DSN: path, Keys: keys, DB: db}
}

// Postgres opens an empty PostgreSQL store in a database of its own with a
// fresh keyring, and drops the database when the test ends. It skips the
// test when the server is unreachable, or fails it if
// CHAIRSIDE_REQUIRE_POSTGRES=1.
func Postgres(t testing.TB) Engine {
	t.Helper()
	adm, err := admin()
	if err != nil {
		if os.Getenv("CHAIRSIDE_REQUIRE_POSTGRES") == "1" {
			t.Fatalf("storetest: PostgreSQL required but unreachable at %s: %v", redacted(), err)
		}
		t.Skipf("storetest: PostgreSQL unreachable at %s, skipping (set CHAIRSIDE_TEST_POSTGRES, or CHAIRSIDE_REQUIRE_POSTGRES=1 to fail): %v", redacted(), err)
	}
	var b [8]byte
	rand.Read(b[:])
	name := "chairside_test_" + hex.EncodeToString(b[:])
	ctx := context.Background()
	// The name is ours (hex), so building the statement is safe.
	if _, err := adm.ExecContext(ctx, `CREATE DATABASE `+name); err != nil {
		t.Fatalf("storetest: create database: %v", err)
	}
	t.Cleanup(func() {
		// FORCE ends connections a test left open (PostgreSQL 13+).
		if _, err := adm.ExecContext(context.Background(), `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
			t.Errorf("storetest: drop database %s: %v", name, err)
		}
	})
	u, _ := url.Parse(serverURL()) // parsed once already by admin
	u.Path = "/" + name
	dsn := u.String()
	keys := Keys(t)
	db, err := store.Open(ctx, dsn, keys)
	if err != nil {
		t.Fatalf("storetest: open postgres: %v", err)
	}
	// Registered after the drop, so it runs before it.
	t.Cleanup(func() { db.Close() })
	return Engine{Name: store.Postgres, DSN: dsn, Keys: keys, DB: db}
}

// serverURL is the PostgreSQL server tests use.
func serverURL() string {
	if v := os.Getenv("CHAIRSIDE_TEST_POSTGRES"); v != "" {
		return v
	}
	return DefaultPostgres
}

// redacted is serverURL without a password, for messages.
func redacted() string {
	u, err := url.Parse(serverURL())
	if err != nil {
		return "(unparsable CHAIRSIDE_TEST_POSTGRES)"
	}
	return u.Redacted()
}

var (
	adminOnce sync.Once
	adminDB   *sql.DB
	adminErr  error
)

// admin returns the connection used to create and drop test databases,
// checking once per test binary that the server answers.
func admin() (*sql.DB, error) {
	adminOnce.Do(func() {
		if _, err := url.Parse(serverURL()); err != nil {
			adminErr = err
			return
		}
		db, err := sql.Open("pgx", serverURL())
		if err != nil {
			adminErr = err
			return
		}
		db.SetMaxOpenConns(2)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		defer cancel()
		if err := db.PingContext(ctx); err != nil {
			db.Close()
			adminErr = err
			return
		}
		adminDB = db
	})
	return adminDB, adminErr
}

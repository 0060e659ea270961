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
// its own database chairside_test_<random>, dropped when the test ends. It
// is cloned from a template migrated once (chairside_tmpl_<schema id>,
// store.SchemaID), which the first test binary to need it builds while the
// others wait: a clone takes a few milliseconds where migrating took most
// of a PostgreSQL test's time. If
// the server cannot be reached the PostgreSQL half of a test is skipped with
// a message, unless CHAIRSIDE_REQUIRE_POSTGRES=1 (CI sets it), which makes it
// fail instead.
package storetest

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
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
	ctx := context.Background()
	name, err := takeDatabase(ctx, adm)
	if err != nil {
		t.Fatalf("storetest: database: %v", err)
	}
	t.Cleanup(func() {
		if err := giveBack(context.Background(), adm, name); err != nil {
			t.Errorf("storetest: database %s: %v", name, err)
		}
	})
	dsn := databaseURL(name)
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

// databaseURL is the test server's URL for database name.
func databaseURL(name string) string {
	u, _ := url.Parse(serverURL()) // parsed once already by admin
	u.Path = "/" + name
	return u.String()
}

// The databases of this test binary no test is using, each emptied and
// ready for the next. Creating a PostgreSQL database costs a few hundred
// milliseconds of file syncing, even from a template; emptying one of its
// twenty tables' few rows costs a few. A database a test left in a state
// that cannot be emptied (a table missing) is dropped instead.
var (
	poolMu sync.Mutex
	pool   []string
)

// takeDatabase answers an empty migrated database for one test: a free one
// of this binary's, or a new clone of the template. Its name carries this
// process's id, so a later run can drop what a finished one left
// (sweepDatabases).
func takeDatabase(ctx context.Context, adm *sql.DB) (string, error) {
	tmpl, err := template(ctx, adm)
	if err != nil {
		return "", fmt.Errorf("template: %w", err)
	}
	poolMu.Lock()
	if n := len(pool); n > 0 {
		name := pool[n-1]
		pool = pool[:n-1]
		poolMu.Unlock()
		return name, nil
	}
	poolMu.Unlock()
	var b [6]byte
	rand.Read(b[:])
	name := fmt.Sprintf("chairside_test_%d_%s", os.Getpid(), hex.EncodeToString(b[:]))
	return name, clone(ctx, adm, tmpl, name)
}

// giveBack empties a test's database, children before the tables they
// reference, in one transaction, and keeps it for the next test; if it
// cannot, it drops it.
func giveBack(ctx context.Context, adm *sql.DB, name string) error {
	db, err := sql.Open("pgx", databaseURL(name))
	if err == nil {
		err = empty(ctx, db)
		db.Close()
	}
	if err == nil {
		poolMu.Lock()
		pool = append(pool, name)
		poolMu.Unlock()
		return nil
	}
	// FORCE ends connections a test left open (PostgreSQL 13+). The name is
	// ours (hex), so building the statement is safe.
	if _, err := adm.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`); err != nil {
		return fmt.Errorf("drop: %w", err)
	}
	return nil
}

// empty deletes every row of every table but schema_migrations, in an
// order the foreign keys allow (deleteOrder).
func empty(ctx context.Context, db *sql.DB) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	for _, table := range deleteOrder {
		if _, err := tx.ExecContext(ctx, `DELETE FROM `+table); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// deleteOrder is the template's tables, each after every table that
// references it; read when the template is first needed.
var deleteOrder []string

// readDeleteOrder reads the tables and their foreign keys from db.
func readDeleteOrder(ctx context.Context, db *sql.DB) ([]string, error) {
	tables, err := strings1(ctx, db, `SELECT tablename FROM pg_tables WHERE schemaname = 'public' AND tablename <> 'schema_migrations' ORDER BY tablename`)
	if err != nil {
		return nil, err
	}
	refs, err := strings1(ctx, db, `SELECT conrelid::regclass::text || ' ' || confrelid::regclass::text FROM pg_constraint WHERE contype = 'f'`)
	if err != nil {
		return nil, err
	}
	// referencedBy[parent] counts the tables not yet deleted that point at it.
	referencedBy := map[string]int{}
	children := map[string][]string{}
	for _, r := range refs {
		child, parent, _ := strings.Cut(r, " ")
		if child != parent {
			referencedBy[parent]++
			children[child] = append(children[child], parent)
		}
	}
	var order []string
	done := map[string]bool{}
	for len(order) < len(tables) {
		progress := false
		for _, t := range tables {
			if done[t] || referencedBy[t] > 0 {
				continue
			}
			done[t], progress = true, true
			order = append(order, t)
			for _, parent := range children[t] {
				referencedBy[parent]--
			}
		}
		if !progress {
			return nil, fmt.Errorf("foreign keys form a cycle among %v", tables)
		}
	}
	return order, nil
}

// strings1 answers the one text column of a query's rows.
func strings1(ctx context.Context, db *sql.DB, query string) ([]string, error) {
	rows, err := db.QueryContext(ctx, query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, rows.Err()
}

var (
	templateOnce sync.Once
	templateName string
	templateErr  error
)

// templateLock is the advisory lock under which one test binary builds the
// template while the others of the same run wait for it. Arbitrary, fixed.
const templateLock = 7201924

// template answers the name of the migrated template database of this
// binary's schema, building it once if no test binary has yet.
func template(ctx context.Context, adm *sql.DB) (string, error) {
	templateOnce.Do(func() {
		templateName = "chairside_tmpl_" + store.SchemaID()
		if templateErr = buildTemplate(ctx, adm, templateName); templateErr != nil {
			return
		}
		db, err := sql.Open("pgx", databaseURL(templateName))
		if err != nil {
			templateErr = err
			return
		}
		deleteOrder, templateErr = readDeleteOrder(ctx, db)
		db.Close()
	})
	return templateName, templateErr
}

// buildTemplate migrates an empty database under a temporary name and
// renames it, so a template of that name is always complete. Templates of
// other schemas (an older checkout's) are dropped on the way.
func buildTemplate(ctx context.Context, adm *sql.DB, name string) error {
	conn, err := adm.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `SELECT pg_advisory_lock($1)`, templateLock); err != nil {
		return err
	}
	defer conn.ExecContext(context.Background(), `SELECT pg_advisory_unlock($1)`, templateLock)
	sweepDatabases(ctx, conn)
	var names []string
	rows, err := conn.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'chairside\_tmpl\_%'`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			rows.Close()
			return err
		}
		names = append(names, n)
	}
	rows.Close()
	for _, n := range names {
		if n == name {
			return nil
		}
		// Names we made (hex), so building the statement is safe.
		conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+n+` WITH (FORCE)`)
	}
	building := name + "_new"
	if _, err := conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+building+` WITH (FORCE)`); err != nil {
		return err
	}
	if _, err := conn.ExecContext(ctx, `CREATE DATABASE `+building); err != nil {
		return err
	}
	keys, err := seal.Generate()
	if err != nil {
		return err
	}
	ring, err := seal.FromJSON(keys)
	if err != nil {
		return err
	}
	db, err := store.Open(ctx, databaseURL(building), ring)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	db.Close()
	// A connection the pool had not closed yet would stop the rename.
	if _, err := conn.ExecContext(ctx, `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()`, building); err != nil {
		return err
	}
	_, err = conn.ExecContext(ctx, `ALTER DATABASE `+building+` RENAME TO `+name)
	return err
}

// clone creates database name as a copy of tmpl. PostgreSQL refuses a copy
// while another session is connected to the template (55006); none stays
// connected, but the build's last connections may still be closing, so the
// refusal is retried briefly.
func clone(ctx context.Context, adm *sql.DB, tmpl, name string) error {
	var err error
	for range 50 {
		// Names we made (hex), so building the statement is safe.
		if _, err = adm.ExecContext(ctx, `CREATE DATABASE `+name+` TEMPLATE `+tmpl); err == nil || !strings.Contains(err.Error(), "55006") {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// sweepDatabases drops the test databases of test binaries that have
// exited (their process id, in the name, is no longer running here): a
// binary keeps its emptied databases until it ends, and cannot drop them
// then. Best effort: a database it cannot drop stays for the next sweep.
func sweepDatabases(ctx context.Context, conn *sql.Conn) {
	rows, err := conn.QueryContext(ctx, `SELECT datname FROM pg_database WHERE datname LIKE 'chairside\_test\_%'`)
	if err != nil {
		return
	}
	var gone []string
	for rows.Next() {
		var name string
		if rows.Scan(&name) != nil {
			continue
		}
		pid, _, ok := strings.Cut(strings.TrimPrefix(name, "chairside_test_"), "_")
		if _, err := strconv.Atoi(pid); !ok || err != nil {
			continue // not a name of this scheme
		}
		if _, err := os.Stat("/proc/" + pid); err != nil {
			gone = append(gone, name)
		}
	}
	rows.Close()
	for _, name := range gone {
		// Names we made (digits and hex), so building the statement is safe.
		conn.ExecContext(ctx, `DROP DATABASE IF EXISTS `+name+` WITH (FORCE)`)
	}
}

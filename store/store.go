// Package store keeps Chairside's records over database/sql, for SQLite
// (modernc.org/sqlite, the embedded default) and PostgreSQL (pgx's
// database/sql driver, for many servers sharing one database).
//
// Both engines share one implementation, one set of embedded migrations and
// one test suite: the SQL is written to be portable (TEXT ids made in Go,
// BIGINT unix-millisecond timestamps, BIGINT cents, INTEGER 0/1 booleans,
// JSON as TEXT) and uses "?" placeholders, rebound to "$n" for PostgreSQL.
//
// Personal data is sealed with a *seal.Keyring before it is written:
// applicants are stored as AES-256-GCM ciphertext bound to their row, and
// the SSN is only ever looked up through its HMAC blind index.
package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	_ "modernc.org/sqlite"             // registers the "sqlite" driver

	"github.com/chairside/chairside/seal"
)

// Engines the store runs on.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// DB is everything Chairside keeps, on SQLite or PostgreSQL. Its users
// each declare the few methods they call (flow.Store, office.Store …), and
// cmd/chairside hands them this one value. It is safe for concurrent use.
//
// Find methods answer an *Error with ENOTFOUND when nothing matches.
// Update methods on versioned records answer ECONFLICT when the record
// changed since it was read, which is how "exactly one of 50 parallel
// accepts succeeds" is kept without locks in server memory. Personal data
// (applicants, the patient's name on a flow token, signature images) is
// sealed here before it is written: callers hand it plaintext and never
// see ciphertext. Each group of methods is in a file named after its
// entity (session.go, decision.go …).
type DB struct {
	// db is the pool every write goes through: for PostgreSQL the only
	// pool; for SQLite a single connection, the one writer SQLite allows.
	db *sql.DB
	// rdb serves reads that are not part of a transaction: for SQLite a
	// pool of read-only connections, which WAL lets run beside the writer
	// (so a read never waits behind a write); for PostgreSQL the same pool
	// as db.
	rdb *sql.DB
	// ckpt is SQLite's checkpointer connection (checkpointLoop); nil for
	// PostgreSQL. stopCkpt ends the loop, ckptDone says it ended.
	ckpt     *sql.DB
	stopCkpt chan struct{}
	ckptDone chan struct{}
	engine   string
	keys     *seal.Keyring

	// Now is the clock used for timestamps the caller leaves zero (CreatedAt)
	// and for UpdatedAt. Tests replace it; it defaults to time.Now.
	Now func() time.Time

	// tx, when set, is the transaction of a Batch: every statement of
	// this view of the store runs in it, with txCtx, the unit's context.
	tx    *txn
	txCtx context.Context
	// misses collects the statements a Batch ran unprepared.
	misses *[]string
	// sessionWrites collects the sessions a Batch wrote, which it tells the
	// session cache about once its commit returned (session_cache.go).
	sessionWrites *[]string
	// sh is what all views of one store share.
	sh *shared
}

// shared is the state of a DB that its Batch views share with it.
type shared struct {
	// stmts caches prepared statements by pool and SQL (SQLite only: pgx
	// caches its own per connection). Parsing SQL was the largest single
	// cost of a SQLite call.
	stmts sync.Map // stmtKey → *sql.Stmt
	// rebound caches rebind's answers (PostgreSQL only).
	rebound sync.Map // string → string

	stopOnce sync.Once // closes stopCkpt

	seqMu   sync.Mutex
	lastSeq int64

	// commits runs every write (commit.go).
	commits *committer
	// sessions keeps the sessions read, on SQLite (session_cache.go); nil
	// on PostgreSQL.
	sessions *sessionCache

	// reads and txStatements count the statements sent: reads outside any
	// transaction, and statements inside a unit's transaction (Statements).
	reads, txStatements atomic.Int64
}

// Open connects to dsn and migrates the schema. A dsn starting with
// postgres:// or postgresql:// is a PostgreSQL URL; anything else is the
// path of a SQLite file, created with its directory if needed. keys seals
// personal data and must be the same keyring on every server sharing a
// database.
func Open(ctx context.Context, dsn string, keys *seal.Keyring) (*DB, error) {
	if keys == nil {
		return nil, errors.New("store: open: no keyring")
	}
	if dsn == "" {
		return nil, errors.New("store: open: empty dsn")
	}
	db := &DB{keys: keys, Now: time.Now, sh: &shared{}}
	var err error
	if strings.HasPrefix(dsn, "postgres://") || strings.HasPrefix(dsn, "postgresql://") {
		db.engine = Postgres
		db.db, err = openPostgres(dsn)
	} else {
		db.engine = SQLite
		db.db, err = openSQLiteWriter(dsn)
	}
	if err != nil {
		return nil, err
	}
	if err := db.db.PingContext(ctx); err != nil {
		db.db.Close()
		return nil, fmt.Errorf("store: open %s: %w", db.engine, err)
	}
	if err := db.migrate(ctx); err != nil {
		db.db.Close()
		return nil, err
	}
	db.rdb = db.db
	db.sh.commits = newCommitter(db.db, writeLanes[db.engine], db.engine == Postgres)
	if db.engine == SQLite {
		db.sh.sessions = newSessionCache()
		if err := db.openSQLiteHelpers(ctx, dsn); err != nil {
			db.sh.commits.close()
			db.db.Close()
			return nil, err
		}
	}
	return db, nil
}

// writeLanes is how many groups of writes commit side by side (commit.go).
// SQLite has one writer. PostgreSQL already shares one WAL flush among the
// commits waiting for it, so it gets as many lanes as its pool has
// connections: below saturation every write commits at once, as on its own
// connection, and groups form only when every lane is busy
// (docs/performance.md, "Measurements behind the code").
var writeLanes = map[string]int{SQLite: 1, Postgres: 16}

// openPostgres opens the one pool of a PostgreSQL store: enough connections
// for the parallel requests of one server, while many servers share the
// database's max_connections (100 by default). A larger pool was no faster
// on two cores (docs/performance.md, "Measurements behind the code").
func openPostgres(dsn string) (*sql.DB, error) {
	pool, err := sql.Open("pgx", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open postgres: %w", err)
	}
	pool.SetMaxOpenConns(16)
	pool.SetMaxIdleConns(16)
	pool.SetConnMaxIdleTime(5 * time.Minute)
	return pool, nil
}

// openSQLiteWriter creates the SQLite file if needed, private to its owner,
// and opens its single writer connection.
func openSQLiteWriter(dsn string) (*sql.DB, error) {
	if dir := filepath.Dir(dsn); dir != "." {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("store: open sqlite: %w", err)
		}
	}
	// SQLite creates its file 0644 less the umask and gives -wal and -shm
	// the database file's mode: a new file is created here, readable by its
	// owner only.
	if f, err := os.OpenFile(dsn, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
		f.Close()
	} else if !errors.Is(err, fs.ErrExist) {
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	// WAL lets readers work while a write is in progress, busy_timeout
	// waits for a lock instead of failing, and foreign keys are off in
	// SQLite unless asked for. synchronous FULL syncs the WAL on every
	// commit: a decision, consent or signature that was answered to the
	// patient survives a power loss, not only a crash of ours.
	// journal_size_limit keeps the WAL file from staying large once reset;
	// wal_autocheckpoint sets when the writer checkpoints itself (see
	// checkpointLoop). _txlock=immediate takes the write lock when a
	// transaction begins: the continuous backup (package backup) writes to
	// the file too, and a transaction that read first and then wrote after
	// the backup's write failed at once with SQLITE_BUSY, which no
	// busy_timeout waits out; begun immediate, it waits its turn
	// (TestWriterWaitsForAnotherWriter). temp_store MEMORY keeps the
	// sub-journal in memory: every unit of a group runs in a savepoint
	// (commit.go), and SQLite copies each page a savepoint changes there
	// first, which past 64 KiB a group went to a file, one write a page
	// (docs/performance.md, "The sub-journal"). It holds only what a
	// rollback to a savepoint needs; a commit never reads it.
	u := "file:" + dsn + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)" +
		"&_pragma=journal_size_limit(67108864)&_pragma=wal_autocheckpoint(" + strconv.Itoa(walAutoCheckpoint) + ")&_pragma=temp_store(MEMORY)&_txlock=immediate"
	// SQLite has one writer at a time. One connection makes every write
	// wait its turn in Go instead of failing with SQLITE_BUSY, and keeps a
	// transaction's read-then-write free of lock upgrades. It is plenty for
	// one server; many servers use PostgreSQL.
	w, err := openSQLitePool(u, 1)
	if err != nil {
		return nil, fmt.Errorf("store: open sqlite: %w", err)
	}
	return w, nil
}

// openSQLiteHelpers opens, after the writer has made the file a WAL
// database, SQLite's read-only pool and the checkpointer's connection, and
// starts checkpointLoop.
func (db *DB) openSQLiteHelpers(ctx context.Context, dsn string) error {
	// query_only makes a stray write on a reader fail loudly instead of
	// racing the writer for the lock.
	var err error
	db.rdb, err = openSQLitePool("file:"+dsn+"?_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=query_only(1)", sqliteReaders)
	if err != nil {
		return fmt.Errorf("store: open sqlite readers: %w", err)
	}
	if err := db.rdb.PingContext(ctx); err != nil {
		db.rdb.Close()
		return fmt.Errorf("store: open sqlite readers: %w", err)
	}
	// The checkpointer's own connection: not query_only (a checkpoint
	// writes the database file), and not the writer's.
	if db.ckpt, err = openSQLitePool("file:"+dsn+"?_pragma=busy_timeout(5000)", 1); err != nil {
		db.rdb.Close()
		return fmt.Errorf("store: open sqlite checkpointer: %w", err)
	}
	db.stopCkpt = make(chan struct{})
	db.ckptDone = make(chan struct{})
	go db.checkpointLoop()
	return nil
}

// openSQLitePool opens a pool of n SQLite connections that are kept open
// for the life of the store.
func openSQLitePool(uri string, n int) (*sql.DB, error) {
	pool, err := sql.Open("sqlite", uri)
	if err != nil {
		return nil, err
	}
	pool.SetMaxOpenConns(n)
	pool.SetMaxIdleConns(n)
	pool.SetConnMaxIdleTime(0)
	pool.SetConnMaxLifetime(0)
	return pool, nil
}

// checkpointEvery is how often checkpointLoop copies SQLite's WAL into the
// database file, and walAutoCheckpoint the WAL's length in pages past which
// the writer checkpoints itself. A checkpoint copies each page changed
// since the last one once, however often it changed, so the pages every
// step touches (tables' last pages, indexes' upper levels) cost a copy per
// checkpoint: at SQLite's default length the writer checkpointed itself,
// inside a commit, several times a second under load. Fewer checkpoints
// copy those pages less often (docs/performance.md, "Checkpoints").
const (
	checkpointEvery   = time.Second
	walAutoCheckpoint = 10000
)

// checkpointLoop checkpoints SQLite's WAL every checkpointEvery, off the
// request path, until Close.
//
// The writer keeps SQLite's automatic checkpoint: the commit that finds the
// WAL over walAutoCheckpoint pages copies the pages not yet in the database
// file and syncs it, inside that request while every other write waits.
// This loop does most of that copy and sync beforehand, beside the writer (a PASSIVE
// checkpoint takes no lock the writer or readers wait for), so the
// writer's own checkpoint finds little left to do. The writer's checkpoint
// must stay: only a checkpoint that reaches the end of the WAL lets the
// next commit start the WAL over, and under a steady stream of commits a
// checkpoint beside the writer never reaches it (docs/performance.md,
// "Measurements behind the code").
func (db *DB) checkpointLoop() {
	defer close(db.ckptDone)
	t := time.NewTicker(checkpointEvery)
	defer t.Stop()
	for {
		select {
		case <-db.stopCkpt:
			return
		case <-t.C:
		}
		// An error (the file busy beyond busy_timeout, say) only delays
		// the copy to the next tick; the WAL keeps every commit meanwhile.
		_, _ = db.ckpt.Exec(`PRAGMA wal_checkpoint(PASSIVE)`)
	}
}

// sqliteReaders is the size of SQLite's read-only pool. Reads are short;
// a few connections keep both cores busy without many idle file handles.
const sqliteReaders = 4

// Engine returns SQLite or Postgres.
func (db *DB) Engine() string { return db.engine }

// Ping checks the database is reachable.
func (db *DB) Ping(ctx context.Context) error {
	if err := db.db.PingContext(ctx); err != nil {
		return fmt.Errorf("store: ping: %w", err)
	}
	return nil
}

// Ready reports whether the database answers and every migration this
// binary carries is applied: what /readyz asks before a load balancer
// sends a server patients.
func (db *DB) Ready(ctx context.Context) error {
	if err := db.Ping(ctx); err != nil {
		return err
	}
	names, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return fmt.Errorf("store: migrations: %w", err)
	}
	var applied int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM schema_migrations`).Scan(&applied); err != nil {
		return fmt.Errorf("store: schema_migrations: %w", err)
	}
	if applied < len(names) {
		return fmt.Errorf("store: %d of %d migrations applied", applied, len(names))
	}
	return nil
}

// Close closes the database.
func (db *DB) Close() error {
	// Every write already queued is committed before the pools close.
	db.sh.commits.close()
	db.sh.stmts.Range(func(k, v any) bool {
		v.(*sql.Stmt).Close()
		db.sh.stmts.Delete(k)
		return true
	})
	var errs []error
	if db.stopCkpt != nil {
		db.sh.stopOnce.Do(func() { close(db.stopCkpt) })
		<-db.ckptDone
		errs = append(errs, db.ckpt.Close())
	}
	if db.rdb != nil && db.rdb != db.db {
		errs = append(errs, db.rdb.Close())
	}
	// The writer closes last: closing SQLite's last connection checkpoints
	// what is left in the WAL.
	return errors.Join(append(errs, db.db.Close())...)
}

// Package store implements chairside.Store over database/sql, for SQLite
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
	"crypto/rand"
	"database/sql"
	"embed"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
	"modernc.org/sqlite"               // registers the "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/seal"
)

// Engines the store runs on.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// Ensure DB implements the domain's Store.
var _ chairside.Store = (*DB)(nil)

// DB is a chairside.Store on SQLite or PostgreSQL. It is safe for concurrent
// use.
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
	// this view of the store runs in it.
	tx *sql.Tx
	// misses collects the statements a Batch ran unprepared.
	misses *[]string
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

	events eventWriter
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
		if db.db, err = sql.Open("pgx", dsn); err != nil {
			return nil, fmt.Errorf("store: open postgres: %w", err)
		}
		// Enough connections for parallel requests of one server; many
		// servers share the database's max_connections (100 by default).
		// (32 was measured at 32 concurrent sessions: no faster on two
		// cores, where more backends only compete for the CPU.)
		db.db.SetMaxOpenConns(16)
		db.db.SetMaxIdleConns(16)
		db.db.SetConnMaxIdleTime(5 * time.Minute)
	} else {
		db.engine = SQLite
		if dir := filepath.Dir(dsn); dir != "." {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return nil, fmt.Errorf("store: open sqlite: %w", err)
			}
		}
		// SQLite creates its file 0644 less the umask and gives -wal and
		// -shm the database file's mode: a new file is created here,
		// readable by its owner only.
		if f, err := os.OpenFile(dsn, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600); err == nil {
			f.Close()
		} else if !errors.Is(err, fs.ErrExist) {
			return nil, fmt.Errorf("store: open sqlite: %w", err)
		}
		// WAL lets readers work while a write is in progress, busy_timeout
		// waits for a lock instead of failing, and foreign keys are off in
		// SQLite unless asked for. synchronous FULL syncs the WAL on every
		// commit: a decision, consent or signature that was answered to
		// the patient survives a power loss, not only a crash of ours.
		// journal_size_limit keeps the WAL file from staying large once
		// reset (see checkpointLoop).
		u := "file:" + dsn + "?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(FULL)" +
			"&_pragma=journal_size_limit(67108864)"
		if db.db, err = sql.Open("sqlite", u); err != nil {
			return nil, fmt.Errorf("store: open sqlite: %w", err)
		}
		// SQLite has one writer at a time. One connection makes every write
		// wait its turn in Go instead of failing with SQLITE_BUSY, and keeps
		// a transaction's read-then-write free of lock upgrades. It is
		// plenty for one server; many servers use PostgreSQL.
		db.db.SetMaxOpenConns(1)
		db.db.SetMaxIdleConns(1)
		db.db.SetConnMaxIdleTime(0)
		db.db.SetConnMaxLifetime(0)
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
	if db.engine == SQLite {
		// Readers open after the writer has made the file a WAL database.
		// query_only makes a stray write on a reader fail loudly instead of
		// racing the writer for the lock.
		u := "file:" + dsn + "?_pragma=busy_timeout(5000)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)&_pragma=query_only(1)"
		if db.rdb, err = sql.Open("sqlite", u); err != nil {
			db.db.Close()
			return nil, fmt.Errorf("store: open sqlite readers: %w", err)
		}
		db.rdb.SetMaxOpenConns(sqliteReaders)
		db.rdb.SetMaxIdleConns(sqliteReaders)
		db.rdb.SetConnMaxIdleTime(0)
		db.rdb.SetConnMaxLifetime(0)
		if err := db.rdb.PingContext(ctx); err != nil {
			db.rdb.Close()
			db.db.Close()
			return nil, fmt.Errorf("store: open sqlite readers: %w", err)
		}
		// The checkpointer's own connection: not query_only (a checkpoint
		// writes the database file), and not the writer's.
		if db.ckpt, err = sql.Open("sqlite", "file:"+dsn+"?_pragma=busy_timeout(5000)"); err != nil {
			db.rdb.Close()
			db.db.Close()
			return nil, fmt.Errorf("store: open sqlite checkpointer: %w", err)
		}
		db.ckpt.SetMaxOpenConns(1)
		db.ckpt.SetMaxIdleConns(1)
		db.ckpt.SetConnMaxIdleTime(0)
		db.ckpt.SetConnMaxLifetime(0)
		db.stopCkpt = make(chan struct{})
		db.ckptDone = make(chan struct{})
		go db.checkpointLoop()
	}
	return db, nil
}

// checkpointEvery is how often checkpointLoop copies SQLite's WAL into the
// database file.
const checkpointEvery = 200 * time.Millisecond

// checkpointLoop checkpoints SQLite's WAL every checkpointEvery, off the
// request path, until Close.
//
// The writer keeps SQLite's automatic checkpoint: the commit that finds the
// WAL over 1000 pages copies the pages not yet in the database file and
// syncs it, inside that request while every other write waits. This loop
// does most of that copy and sync beforehand, beside the writer (a PASSIVE
// checkpoint takes no lock the writer or readers wait for), so the
// writer's own checkpoint finds little left to do. The writer's checkpoint
// must stay: only a checkpoint that reaches the end of the WAL lets the
// next commit start the WAL over, and under a steady stream of commits a
// checkpoint beside the writer never reaches it — measured: with the
// automatic checkpoint off, the WAL grew to 780 MB in a 24 s load run and
// the commit that finally reset it stalled for 400 ms.
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

// Close closes the database.
func (db *DB) Close() error {
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
	return db.withTx(ctx, func(tx *sql.Tx) error {
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

// rebind turns the "?" placeholders of portable SQL into PostgreSQL's "$1",
// "$2" … It skips quoted literals, though our SQL keeps "?" out of them.
func (db *DB) rebind(query string) string {
	if db.engine != Postgres {
		return query
	}
	if q, ok := db.sh.rebound.Load(query); ok {
		return q.(string)
	}
	q := rebindDollar(query)
	db.sh.rebound.Store(query, q)
	return q
}

func rebindDollar(query string) string {
	var b strings.Builder
	b.Grow(len(query) + 8)
	n := 0
	inQuote := false
	for i := 0; i < len(query); i++ {
		c := query[i]
		switch {
		case c == '\'':
			inQuote = !inQuote
			b.WriteByte(c)
		case c == '?' && !inQuote:
			n++
			b.WriteByte('$')
			b.WriteString(strconv.Itoa(n))
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// exec, query and queryRow run portable SQL on the database: exec and
// writeRow (a write answering a row, UPDATE … RETURNING) on the writer,
// query and queryRow (reads) on the readers. With SQLite each statement is
// prepared once per connection and reused.
func (db *DB) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if db.tx != nil {
		if st := db.txStmt(q); st != nil {
			return db.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
		}
		return db.tx.ExecContext(ctx, db.rebind(q), args...)
	}
	if st := db.stmt(ctx, db.db, q); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return db.db.ExecContext(ctx, db.rebind(q), args...)
}

func (db *DB) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if db.tx != nil {
		if st := db.txStmt(q); st != nil {
			return db.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
		}
		return db.tx.QueryContext(ctx, db.rebind(q), args...)
	}
	if st := db.stmt(ctx, db.rdb, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return db.rdb.QueryContext(ctx, db.rebind(q), args...)
}

func (db *DB) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if db.tx != nil {
		return db.writeRow(ctx, q, args...)
	}
	if st := db.stmt(ctx, db.rdb, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return db.rdb.QueryRowContext(ctx, db.rebind(q), args...)
}

func (db *DB) writeRow(ctx context.Context, q string, args ...any) *sql.Row {
	if db.tx != nil {
		if st := db.txStmt(q); st != nil {
			return db.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
		}
		return db.tx.QueryRowContext(ctx, db.rebind(q), args...)
	}
	if st := db.stmt(ctx, db.db, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return db.db.QueryRowContext(ctx, db.rebind(q), args...)
}

// txStmt returns q's cached statement on the writer for a Batch's
// transaction, or nil (PostgreSQL, or not prepared yet). It never prepares:
// preparing on the writer pool would wait forever for the one connection
// the transaction holds. A miss is noted, and Batch prepares it once the
// transaction is over.
func (db *DB) txStmt(q string) *sql.Stmt {
	if db.engine != SQLite {
		return nil
	}
	if st, ok := db.sh.stmts.Load(stmtKey{db.db, q}); ok {
		return st.(*sql.Stmt)
	}
	if db.misses != nil {
		*db.misses = append(*db.misses, q)
	}
	return nil
}

type stmtKey struct {
	pool *sql.DB
	sql  string
}

// stmt returns the cached prepared statement of q on pool, preparing it on
// first use; nil for PostgreSQL (pgx caches statements itself) or if
// preparing fails (the caller then runs q directly and reports its error).
func (db *DB) stmt(ctx context.Context, pool *sql.DB, q string) *sql.Stmt {
	if db.engine != SQLite {
		return nil
	}
	k := stmtKey{pool, q}
	if st, ok := db.sh.stmts.Load(k); ok {
		return st.(*sql.Stmt)
	}
	st, err := pool.PrepareContext(ctx, q)
	if err != nil {
		return nil
	}
	if old, loaded := db.sh.stmts.LoadOrStore(k, st); loaded {
		st.Close()
		return old.(*sql.Stmt)
	}
	return st
}

// withTx runs fn in a transaction, committing if fn succeeds. With SQLite's
// single connection, fn must use tx only: a query on db would wait forever
// for the connection tx holds.
func (db *DB) withTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	if db.tx != nil {
		return fn(db.tx) // inside a Batch: part of its transaction
	}
	tx, err := db.db.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("store: begin: %w", err)
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// Batch runs fn with a view of the store whose statements all run in one
// transaction, committed when fn returns: a step's several writes (state,
// consent, event, idempotency answer) are made durable together.
//
//   - On SQLite the writer is taken once for them instead of once per
//     statement, which under load was the longest wait of a SQLite call.
//   - On PostgreSQL the step waits for one WAL flush (fsync) at its commit
//     instead of one per statement. With synchronous_commit on (as it must
//     be for lending records), each autocommitted statement waits for its
//     own flush, and under load those flushes queue behind each other: at
//     ~280 calls/s the busy backends were mostly in WALWrite/WALSync waits.
//     Per-step transactions cut the flushes of a patient's journey from
//     14.5 to 8.1 (pg_stat_wal.wal_sync over the benchmark).
//
// If fn returns an error the transaction is rolled back and nothing fn
// wrote is kept: a step's writes happen together or not at all. Errors fn
// meets and handles (not found, a version conflict, an insert that found
// its row taken) are answers, not failed statements, and leave the
// transaction usable. It answers fn's error, else the commit's. (If ctx is
// cancelled before the commit, database/sql rolls the batch back too;
// callers that must not lose a write pass a context without cancellation.)
func (db *DB) Batch(ctx context.Context, fn func(chairside.Store) error) error {
	if db.tx != nil {
		return fn(db)
	}
	var ferr error
	var misses []string
	err := db.withTx(ctx, func(tx *sql.Tx) error {
		v := *db
		v.tx, v.misses = tx, &misses
		ferr = fn(&v)
		return ferr
	})
	for _, q := range misses {
		db.stmt(ctx, db.db, q) // for the next Batch
	}
	if ferr != nil {
		return ferr
	}
	return err
}

// now returns db.Now truncated to the millisecond the database keeps, so a
// record read back equals the one written.
func (db *DB) now() time.Time {
	return db.Now().Truncate(time.Millisecond)
}

// stamp returns t truncated to milliseconds, or db.now() for a zero t.
func (db *DB) stamp(t time.Time) time.Time {
	if t.IsZero() {
		return db.now()
	}
	return t.Truncate(time.Millisecond)
}

// nextSeq returns a number larger than any this process returned before and
// close to the wall clock in nanoseconds, so rows made in the same
// millisecond keep their order (within a server exactly, across servers
// roughly) without a database round trip.
func (db *DB) nextSeq() int64 {
	db.sh.seqMu.Lock()
	defer db.sh.seqMu.Unlock()
	s := time.Now().UnixNano()
	if s <= db.sh.lastSeq {
		s = db.sh.lastSeq + 1
	}
	db.sh.lastSeq = s
	return s
}

// newID returns a random 128-bit id in hex.
func newID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("store: crypto/rand failed: " + err.Error()) // never happens on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// millis converts a time to the unix milliseconds the schema stores.
func millis(t time.Time) int64 { return t.UnixMilli() }

// fromMillis converts stored unix milliseconds back to a UTC time.
func fromMillis(ms int64) time.Time { return time.UnixMilli(ms).UTC() }

// nullMillis converts an optional time for a nullable BIGINT column.
func nullMillis(t *time.Time) sql.NullInt64 {
	if t == nil {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: millis(*t), Valid: true}
}

// fromNullMillis converts a nullable BIGINT column back to an optional time.
func fromNullMillis(n sql.NullInt64) *time.Time {
	if !n.Valid {
		return nil
	}
	t := fromMillis(n.Int64)
	return &t
}

// boolInt stores a bool in a portable INTEGER column.
func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// notFound returns the domain's ENOTFOUND error.
func notFound(format string, args ...any) error {
	return chairside.Errorf(chairside.ENOTFOUND, format, args...)
}

// conflict returns the domain's ECONFLICT error.
func conflict(format string, args ...any) error {
	return chairside.Errorf(chairside.ECONFLICT, format, args...)
}

// isUniqueViolation reports whether err is a duplicate primary or unique key.
func isUniqueViolation(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23505"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_UNIQUE || se.Code() == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// isForeignKeyViolation reports whether err is a reference to a missing row.
func isForeignKeyViolation(err error) bool {
	var pe *pgconn.PgError
	if errors.As(err, &pe) {
		return pe.Code == "23503"
	}
	var se *sqlite.Error
	if errors.As(err, &se) {
		return se.Code() == sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY
	}
	return false
}

// rowsAffected returns the count of rows an UPDATE or DELETE touched.
func rowsAffected(res sql.Result) (int64, error) {
	n, err := res.RowsAffected()
	if err != nil {
		return 0, fmt.Errorf("store: rows affected: %w", err)
	}
	return n, nil
}

// exists reports whether a row with id exists in table. table is always a
// constant of this package, never input.
func (db *DB) exists(ctx context.Context, table, column, id string) (bool, error) {
	var n int
	if err := db.queryRow(ctx, `SELECT COUNT(*) FROM `+table+` WHERE `+column+` = ?`, id).Scan(&n); err != nil {
		return false, fmt.Errorf("store: check %s: %w", table, err)
	}
	return n > 0, nil
}

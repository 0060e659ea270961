package store

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"

	"github.com/chairside/chairside"
)

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

// exec, query and queryRow run portable SQL on the database. Writes (exec,
// and writeRow: a write answering a row, UPDATE … RETURNING) are units of
// work for the committer (commit.go), or part of the Batch this view runs
// in; reads (query, queryRow) go to the readers. With SQLite each statement
// is prepared once per connection and reused.
//
// Inside a Batch every statement runs with the unit's context (txCtx), not
// the one it was handed: a caller's cancellation must not interrupt the
// transaction its unit shares with others.
func (db *DB) exec(ctx context.Context, q string, args ...any) (sql.Result, error) {
	if db.tx == nil {
		var res sql.Result
		err := db.Batch(ctx, func(w *DB) (err error) {
			res, err = w.exec(ctx, q, args...)
			return err
		})
		return res, err
	}
	db.sh.txStatements.Add(1)
	return db.tx.exec(db.txCtx, db.txStmt(q), db.rebind(q), args)
}

// later sends a write of a Batch whose answer decides only whether the
// Batch holds: check turns the write's outcome (the rows it changed, or
// its error) into the Batch's error, nil when it holds. The Batch ends
// with the first such error, whatever fn answers, and keeps nothing; the
// call itself answers nil. On PostgreSQL that lets the write wait and
// leave with the next statement or the end of the Batch, one round trip
// for all of them (txn.go); on SQLite it runs at once and its verdict
// waits the same, so a Batch answers the same on both engines. A write
// whose failure its caller acts on (an insert that found its row taken,
// to be read instead) goes through exec. Outside a Batch the write is a
// unit of its own and the call answers its verdict.
func (db *DB) later(ctx context.Context, q string, args []any, check func(n int64, err error) error) error {
	if db.tx == nil {
		return db.Batch(ctx, func(w *DB) error { return w.later(ctx, q, args, check) })
	}
	db.sh.txStatements.Add(1)
	db.tx.later(db.txCtx, db.txStmt(q), db.rebind(q), args, check)
	return nil
}

// laterInsert sends an INSERT with later; its failure is insertError's.
func (db *DB) laterInsert(ctx context.Context, what, duplicate, missing, q string, args ...any) error {
	return db.later(ctx, q, args, func(_ int64, err error) error { return insertError(err, what, duplicate, missing) })
}

// laterOne sends with later a conditional UPDATE of the row with id in
// table, which must change it: when it changes nothing the Batch answers
// ENOTFOUND saying missing or ECONFLICT saying stale, as oneChanged.
func (db *DB) laterOne(ctx context.Context, what, table, id, missing, stale, q string, args ...any) error {
	return db.later(ctx, q, args, func(n int64, err error) error {
		switch {
		case err != nil:
			return fmt.Errorf("store: %s: %w", what, err)
		case n == 0:
			return &unchanged{table: table, id: id, missing: missing, stale: stale}
		}
		return nil
	})
}

// wrapErr names what failed in a store error; nil stays nil.
func wrapErr(what string, err error) error {
	if err != nil {
		return fmt.Errorf("store: %s: %w", what, err)
	}
	return nil
}

// unchanged is the verdict of laterOne's UPDATE that changed no row.
// Whether the row is missing or only not in the state the update asked
// for takes a read, made in the same transaction once the write's answer
// is known (resolve).
type unchanged struct{ table, id, missing, stale string }

func (u *unchanged) Error() string { return u.stale }

// resolve turns an unchanged verdict into the domain's answer (oneChanged),
// and answers any other err as it is.
func (db *DB) resolve(ctx context.Context, err error) error {
	var u *unchanged
	if !errors.As(err, &u) {
		return err
	}
	ok, rerr := db.exists(ctx, u.table, "id", u.id)
	switch {
	case rerr != nil:
		return rerr
	case !ok:
		return &chairside.Error{Code: chairside.ENOTFOUND, Message: u.missing}
	}
	return &chairside.Error{Code: chairside.ECONFLICT, Message: u.stale}
}

func (db *DB) query(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	if db.tx != nil {
		db.sh.txStatements.Add(1)
		ctx = db.txCtx
		if db.tx.tx != nil {
			db.tx.trips.Add(1)
			if st := db.txStmt(q); st != nil {
				return db.tx.tx.StmtContext(ctx, st).QueryContext(ctx, args...)
			}
			return db.tx.tx.QueryContext(ctx, q, args...)
		}
		conn, err := db.tx.reader()
		if err != nil {
			return nil, err
		}
		return conn.QueryContext(ctx, db.rebind(q), args...)
	}
	db.sh.reads.Add(1)
	if st := db.stmt(ctx, db.rdb, q); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return db.rdb.QueryContext(ctx, db.rebind(q), args...)
}

func (db *DB) queryRow(ctx context.Context, q string, args ...any) *sql.Row {
	if db.tx != nil {
		return db.txRow(q, args...)
	}
	db.sh.reads.Add(1)
	if st := db.stmt(ctx, db.rdb, q); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return db.rdb.QueryRowContext(ctx, db.rebind(q), args...)
}

// writeRow runs a write that answers one row. Outside a Batch the
// statement runs, as its own unit of work, when the row is scanned.
func (db *DB) writeRow(ctx context.Context, q string, args ...any) scanner {
	if db.tx != nil {
		return db.txRow(q, args...)
	}
	return writtenRow{db: db, ctx: ctx, q: q, args: args}
}

// txRow runs q in this view's transaction.
func (db *DB) txRow(q string, args ...any) *sql.Row {
	db.sh.txStatements.Add(1)
	ctx := db.txCtx
	if db.tx.tx != nil {
		db.tx.trips.Add(1)
		if st := db.txStmt(q); st != nil {
			return db.tx.tx.StmtContext(ctx, st).QueryRowContext(ctx, args...)
		}
		return db.tx.tx.QueryRowContext(ctx, q, args...)
	}
	// A failure of what was queued before it ends the unit (txn.endUnit);
	// the row is read in the same transaction either way.
	conn, _ := db.tx.reader()
	return conn.QueryRowContext(ctx, db.rebind(q), args...)
}

// writtenRow is writeRow's answer outside a Batch: Scan runs the statement
// as a unit of work and scans its row before the unit ends.
type writtenRow struct {
	db   *DB
	ctx  context.Context
	q    string
	args []any
}

func (r writtenRow) Scan(dest ...any) error {
	return r.db.Batch(r.ctx, func(w *DB) error { return w.txRow(r.q, r.args...).Scan(dest...) })
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
	if err == nil {
		return false // before the targets below, which escape to the heap
	}
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
	if err == nil {
		return false
	}
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

// scanner is a *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// queryAll runs a read and decodes each row with scan, in order; no rows
// is an empty answer, not an error. what names the read in errors. The
// rows are closed before it returns, so the caller may query again at
// once (inside a Batch on SQLite, the transaction has one connection).
func queryAll[T any](ctx context.Context, db *DB, what string, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := db.query(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, fmt.Errorf("store: %s: %w", what, err)
		}
		out = append(out, v)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: %s: %w", what, err)
	}
	return out, nil
}

// insertError turns the error of an INSERT into the domain's answers: a
// duplicate key is ECONFLICT saying duplicate, a reference to a missing
// row ENOTFOUND saying missing (for tables that refer to another), and
// any other failure an error naming what was inserted.
func insertError(err error, what, duplicate, missing string) error {
	switch {
	case err == nil:
		return nil
	case isUniqueViolation(err):
		return &chairside.Error{Code: chairside.ECONFLICT, Message: duplicate}
	case missing != "" && isForeignKeyViolation(err):
		return &chairside.Error{Code: chairside.ENOTFOUND, Message: missing}
	}
	return fmt.Errorf("store: %s: %w", what, err)
}

// changed checks that an UPDATE changed a row; when it changed none it
// answers an *chairside.Error of code saying message.
func changed(res sql.Result, code, message string) error {
	n, err := rowsAffected(res)
	if err != nil {
		return err
	}
	if n == 0 {
		return &chairside.Error{Code: code, Message: message}
	}
	return nil
}

// oneChanged checks that a conditional UPDATE of the row with id in table
// changed it. When it changed nothing, the row is either missing
// (ENOTFOUND saying missing) or there but not in the state the update
// asked for (ECONFLICT saying stale). table is a constant of this package.
func (db *DB) oneChanged(ctx context.Context, res sql.Result, table, id, missing, stale string) error {
	n, err := rowsAffected(res)
	if err != nil || n > 0 {
		return err
	}
	ok, err := db.exists(ctx, table, "id", id)
	switch {
	case err != nil:
		return err
	case !ok:
		return &chairside.Error{Code: chairside.ENOTFOUND, Message: missing}
	}
	return &chairside.Error{Code: chairside.ECONFLICT, Message: stale}
}

package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
)

// A txn is a group's transaction (commit.go) as its units of work use it.
//
// On SQLite it is a *sql.Tx on the one writer connection: every statement
// is a call into the library, in this process, and runs at once.
//
// On PostgreSQL every statement sent on its own is a round trip, and the
// database's own processes, on the same cores as the server, spend CPU on
// each (docs/performance.md, "Round trips on PostgreSQL"). So the group
// holds its connection itself and pipelines statements with pgx's
// batches: the group's BEGIN, the savepoints, and the writes a unit sends
// with later (whose answer decides only whether the unit holds) wait in a
// queue, and go out together with the next statement whose answer the
// unit needs at once, or when the unit ends. A unit that sends only such
// writes costs one round trip, and its group's COMMIT one more.
type txn struct {
	tx *sql.Tx // SQLite

	conn  *sql.Conn // PostgreSQL: the group's connection, held until end
	queue []queued  // PostgreSQL: statements not sent yet, in order
	// saved: the running unit's savepoint has been sent (so a failure
	// must roll back to it).
	saved bool
	// failed is the first failure of the running unit's later writes,
	// seen when their answers came back: the unit ends with it. broken
	// is a failure of the group's own statements, or of the connection:
	// nothing more is sent, and every unit still to end fails with it.
	failed, broken error
	// aborted is the first error of a statement the running unit sent:
	// PostgreSQL then refuses the rest of the transaction, so the unit
	// cannot hold whatever it answers.
	aborted error

	trips *atomic.Int64 // the committer's count of round trips
}

// A queued statement. unit marks a statement of the running unit (not
// the group's own BEGIN, savepoints and releases): if the unit fails
// before its queue was sent, those are dropped and never reach the
// database. check turns the statement's answer (the rows it changed, or
// its error) into the unit's; nil for the group's own statements, whose
// failure breaks the whole group.
type queued struct {
	sql   string
	args  []any
	unit  bool
	check func(n int64, err error) error
}

// commitSQL is the group's COMMIT, whose answer flush reads: PostgreSQL
// answers a COMMIT of a transaction that had failed with a rollback.
const commitSQL = `COMMIT`

// exec runs a statement now and answers its result; st is its prepared
// statement on SQLite, if it has one. On PostgreSQL the statements queued
// before it go in the same round trip; if one of them failed with an
// error, PostgreSQL skipped this one, and exec answers why.
func (t *txn) exec(ctx context.Context, st *sql.Stmt, q string, args []any) (sql.Result, error) {
	if t.tx != nil {
		t.trips.Add(1)
		if st != nil {
			return t.tx.StmtContext(ctx, st).ExecContext(ctx, args...)
		}
		return t.tx.ExecContext(ctx, q, args...)
	}
	var res rowsChanged
	var serr error
	ran := false
	t.queue = append(t.queue, queued{sql: q, args: args, unit: true, check: func(n int64, err error) error {
		res, serr, ran = rowsChanged(n), err, true
		return nil // exec's own answer is its caller's to judge
	}})
	switch err := t.flush(); {
	case err != nil:
		return nil, err
	case !ran:
		// A statement before it failed, and PostgreSQL skipped the rest.
		return nil, fmt.Errorf("store: not run after a failed statement: %w", t.aborted)
	case serr != nil:
		return nil, serr
	}
	return res, nil
}

// later sends a write whose answer decides only whether the running unit
// holds (DB.later): queued on PostgreSQL; on SQLite run at once, its
// verdict kept for the unit's end like PostgreSQL's, so that a Batch
// answers the same on both.
func (t *txn) later(ctx context.Context, st *sql.Stmt, q string, args []any, check func(n int64, err error) error) {
	if t.tx == nil {
		t.queue = append(t.queue, queued{sql: q, args: args, unit: true, check: check})
		return
	}
	res, err := t.exec(ctx, st, q, args)
	var n int64
	if err == nil {
		n, err = rowsAffected(res)
	}
	if verdict := check(n, err); verdict != nil && t.failed == nil {
		t.failed = verdict
	}
}

// reader answers what a read inside the unit runs on (PostgreSQL), once
// everything queued has been sent: a read must see the unit's own writes.
// A group that broke is answered too; a caller that cannot answer an
// error (a row to scan) reads anyway, and the unit ends with the failure
// (endUnit).
func (t *txn) reader() (*sql.Conn, error) {
	if err := t.flush(); err != nil {
		return t.conn, err
	}
	t.trips.Add(1)
	return t.conn, nil
}

// control runs one of the group's own statements: at once on SQLite,
// queued on PostgreSQL.
func (t *txn) control(q string) error {
	if t.tx != nil {
		t.trips.Add(1)
		_, err := t.tx.ExecContext(context.Background(), q)
		return err
	}
	t.queue = append(t.queue, queued{sql: q})
	return nil
}

// flush sends everything queued in one round trip (PostgreSQL). A unit's
// statement that fails, or whose check says it did not hold, becomes the
// unit's failure (failed); a failure of the group's own statements is
// answered, and breaks the group.
func (t *txn) flush() error {
	if t.broken != nil {
		return t.broken
	}
	if len(t.queue) == 0 {
		return nil
	}
	items := t.queue
	t.queue = nil
	for _, it := range items {
		if it.unit && !t.saved {
			// Something of the unit reaches the database: so does the
			// savepoint queued before it.
			t.saved = true
		}
	}
	t.trips.Add(1)
	var groupErr error
	err := t.conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn()
		b := &pgx.Batch{}
		for _, it := range items {
			b.Queue(it.sql, it.args...)
		}
		br := pc.SendBatch(context.Background(), b)
		defer br.Close()
		for _, it := range items {
			tag, err := br.Exec()
			if it.check == nil {
				if err == nil && it.sql == commitSQL && tag.String() != commitSQL {
					err = fmt.Errorf("the transaction had failed and was rolled back (%s)", tag)
				}
				if err != nil {
					groupErr = fmt.Errorf("%w: %s: %v", errGroupBroken, it.sql, err)
					return nil
				}
				continue
			}
			if verdict := it.check(tag.RowsAffected(), err); verdict != nil && t.failed == nil {
				t.failed = verdict
			}
			if err != nil {
				// PostgreSQL skips the rest of the pipeline after an
				// error: the unit's transaction has failed, nothing
				// after it ran, and the unit cannot hold even if its
				// caller took the error as an answer.
				if t.aborted == nil {
					t.aborted = err
				}
				return nil
			}
		}
		return nil
	})
	if err != nil {
		groupErr = fmt.Errorf("%w: %v", errGroupBroken, err)
	}
	t.broken = groupErr
	return groupErr
}

// beginUnit starts a unit: in a group of several, inside a savepoint.
func (t *txn) beginUnit(saved bool) error {
	t.failed, t.aborted, t.saved = nil, nil, false
	if !saved {
		t.saved = true // no savepoint: nothing to track
		return nil
	}
	if err := t.control(`SAVEPOINT unit`); err != nil {
		return fmt.Errorf("%w: savepoint: %v", errGroupBroken, err)
	}
	if t.tx != nil {
		t.saved = true
	}
	return nil
}

// endUnit sends what the unit queued and answers how it ended: err (its
// work's own answer) if it failed, else the failure of a write it sent
// with later, else nil.
func (t *txn) endUnit(err error) error {
	var p *panicked
	if errors.As(err, &p) {
		return err // raised again in its caller (commit.go, reraise)
	}
	if t.tx == nil {
		if err == nil {
			t.flush()
		}
		if t.broken != nil {
			return t.broken
		}
	}
	if err == nil && t.aborted != nil {
		err = fmt.Errorf("store: unit of work: %w", t.aborted)
	}
	if t.failed != nil {
		// The write that failed first is what went wrong; what the unit
		// did after it ran in a transaction already failing.
		return t.failed
	}
	return err
}

// settle ends the running unit's work (err is its answer): what it
// queued is sent, and its verdict answered (endUnit). The verdict is handed
// over with the answer, so the unit's end answers what its caller made of
// it.
func (t *txn) settle(err error) error {
	err = t.endUnit(err)
	t.failed, t.aborted = nil, nil
	return err
}

// undoUnit undoes a failed unit inside its savepoint (a group of several).
func (t *txn) undoUnit() error {
	if t.tx != nil {
		if err := t.control(`ROLLBACK TO SAVEPOINT unit`); err != nil {
			return err
		}
		return t.control(`RELEASE SAVEPOINT unit`)
	}
	if t.broken != nil {
		return t.broken
	}
	t.dropUnit()
	if !t.saved {
		// Nothing of the unit was sent: its savepoint, queued last, is
		// dropped with it, and there is nothing to roll back.
		if n := len(t.queue); n > 0 && t.queue[n-1].sql == `SAVEPOINT unit` {
			t.queue = t.queue[:n-1]
		}
		return nil
	}
	// A transaction a failed statement left aborted prepares nothing: both
	// go in PostgreSQL's simple protocol, in one round trip.
	return t.simple(`ROLLBACK TO SAVEPOINT unit; RELEASE SAVEPOINT unit`)
}

// simple sends q, one or several statements, in PostgreSQL's simple
// protocol; a failure breaks the group.
func (t *txn) simple(q string) error {
	t.trips.Add(1)
	err := t.conn.Raw(func(dc any) error {
		_, err := dc.(*stdlib.Conn).Conn().PgConn().Exec(context.Background(), q).ReadAll()
		return err
	})
	if err != nil {
		t.broken = fmt.Errorf("%w: %v", errGroupBroken, err)
	}
	return t.broken
}

// keepUnit releases the savepoint of a unit that held (on PostgreSQL,
// sent with the next statement).
func (t *txn) keepUnit() error {
	if err := t.control(`RELEASE SAVEPOINT unit`); err != nil {
		return fmt.Errorf("store: unit of work: %w", err)
	}
	return nil
}

// dropUnit takes the running unit's statements out of the queue: what a
// failed unit had not sent yet never runs.
func (t *txn) dropUnit() {
	kept := t.queue[:0]
	for _, it := range t.queue {
		if !it.unit {
			kept = append(kept, it)
		}
	}
	t.queue = kept
}

// commit commits the group.
func (t *txn) commit() error {
	if t.tx != nil {
		t.trips.Add(1)
		return t.tx.Commit()
	}
	if err := t.control(commitSQL); err != nil {
		return err
	}
	return t.flush()
}

// rollback undoes the whole group. On PostgreSQL it drops what was never
// sent; end, which always follows, rolls back what the database holds
// (nothing, when the BEGIN never left).
func (t *txn) rollback() {
	if t.tx != nil {
		t.trips.Add(1)
		t.tx.Rollback()
		return
	}
	t.queue = nil
}

// end gives the group's connection back (PostgreSQL). A connection still
// inside a transaction (a failure between BEGIN and COMMIT) is rolled
// back first; one that cannot be is closed, never reused.
func (t *txn) end() {
	if t.conn == nil {
		return
	}
	t.conn.Raw(func(dc any) error {
		pc := dc.(*stdlib.Conn).Conn().PgConn()
		if pc.TxStatus() == 'I' {
			return nil
		}
		t.trips.Add(1)
		if err := pc.Exec(context.Background(), `ROLLBACK`).Close(); err != nil {
			return driver.ErrBadConn
		}
		if pc.TxStatus() != 'I' {
			return driver.ErrBadConn
		}
		return nil
	})
	t.conn.Close()
}

// rowsChanged is a sql.Result of a statement sent in a pipeline.
type rowsChanged int64

func (n rowsChanged) LastInsertId() (int64, error) {
	return 0, errors.New("store: no insert ids on PostgreSQL")
}
func (n rowsChanged) RowsAffected() (int64, error) { return int64(n), nil }

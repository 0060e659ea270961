package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Group commit (docs/performance.md, "Group commit").
//
// Every write of the store is a unit of work: a Batch, or one statement
// outside any Batch. Units are not committed one by one: they queue for a
// committer, whose lanes each take everything waiting, run it in one
// transaction and commit once. Callers answer only after the commit that
// holds their unit returned, so a unit whose caller was answered is as
// durable as before (synchronous FULL on SQLite, synchronous_commit on
// PostgreSQL); what changes is that one fsync now covers many callers.
//
// There is no timer. A lane that is woken first lets every goroutine that is
// already runnable go ahead of it (runtime.Gosched): requests on their way
// to a write of their own queue it, and the lane takes them together. On an
// idle server nothing else is runnable, so the one unit waiting is
// committed at once and answers as fast as before; while a lane is busy
// committing, the units that arrive queue and make up its next group. The
// busier the server, the larger the groups.
//
// Inside a group, each unit runs inside its own savepoint: a unit that fails
// is rolled back to it, answers its own error, and the others are
// committed. A unit runs with its caller's context values but never its
// cancellation: a request that gives up while its unit runs must not
// interrupt the transaction it shares (SQLite rolls a whole transaction back
// when a statement in it is interrupted). A caller that gives up while its
// unit still waits withdraws it.

// maxGroup bounds one group, so that the first unit in it does not wait
// behind an unbounded number of others.
const maxGroup = 64

// A committer runs units of work on its pool in groups, one group per lane
// at a time.
type committer struct {
	pool *sql.DB
	n    int // lanes
	// pipelined: PostgreSQL, whose groups pipeline their statements
	// (txn.go).
	pipelined bool

	mu      sync.Mutex
	pending []*unit
	closed  bool
	wake    chan struct{}
	lanes   sync.WaitGroup

	// Counters for the benchmark and the tests: groups committed and the
	// units they held (GroupStats), and the round trips the groups made
	// (RoundTrips).
	groups, units, trips atomic.Int64
}

// A unit is one caller's work: fn runs in the group's transaction.
type unit struct {
	ctx   context.Context
	fn    func(ctx context.Context, t *txn) error
	state atomic.Int32
	done  chan error
}

// A unit's state: waiting in the queue, taken by a lane, or withdrawn by a
// caller who stopped waiting before a lane took it.
const (
	unitQueued int32 = iota
	unitStarted
	unitWithdrawn
)

// errClosed answers a unit offered to a closed store.
var errClosed = errors.New("store: closed")

// newCommitter starts n lanes on pool: one for SQLite, whose single writer
// connection is the only one that may write; several for PostgreSQL, where
// writes on different connections proceed side by side and the database
// itself shares one WAL flush among the commits waiting for it.
func newCommitter(pool *sql.DB, lanes int, pipelined bool) *committer {
	c := &committer{pool: pool, n: lanes, pipelined: pipelined, wake: make(chan struct{}, 1)}
	c.lanes.Add(lanes)
	for range lanes {
		go c.lane()
	}
	return c
}

// do runs fn as one unit of work and answers once the commit holding it
// returned: fn's error, else the commit's.
func (c *committer) do(ctx context.Context, fn func(ctx context.Context, t *txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	u := &unit{ctx: context.WithoutCancel(ctx), fn: fn, done: make(chan error, 1)}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return errClosed
	}
	c.pending = append(c.pending, u)
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default: // a lane is already woken, and takes everything waiting
	}
	select {
	case err := <-u.done:
		return reraise(err)
	case <-ctx.Done():
		if u.state.CompareAndSwap(unitQueued, unitWithdrawn) {
			return ctx.Err()
		}
		return reraise(<-u.done) // already running: it ends, then we answer
	}
}

// lane commits groups until the committer is closed and its queue empty.
func (c *committer) lane() {
	defer c.lanes.Done()
	for {
		group, open := c.take()
		if len(group) > 0 {
			c.commit(group)
			continue
		}
		if !open {
			// Wake the other lanes, which may be waiting, so they see the end too.
			select {
			case c.wake <- struct{}{}:
			default:
			}
			return
		}
		<-c.wake
		// Requests already runnable go first, as far as their own writes:
		// woken by the first of them, a lane would otherwise run next and
		// commit that one unit alone while the rest wait behind its sync
		// (with one core, always). On an idle server nothing else is
		// runnable and this returns at once: it is not a wait.
		runtime.Gosched()
	}
}

// take answers up to maxGroup waiting units, started, and whether the
// committer is still open.
func (c *committer) take() ([]*unit, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	var group []*unit
	n := 0
	for n < len(c.pending) && len(group) < maxGroup {
		u := c.pending[n]
		n++
		if u.state.CompareAndSwap(unitQueued, unitStarted) {
			group = append(group, u)
		}
	}
	c.pending = c.pending[n:]
	if len(c.pending) == 0 {
		c.pending = nil // let the backing array go
	}
	return group, !c.closed
}

// commit runs group in one transaction and answers every unit in it.
func (c *committer) commit(group []*unit) {
	c.groups.Add(1)
	c.units.Add(int64(len(group)))
	t, err := c.begin()
	if err != nil {
		answerAll(group, fmt.Errorf("store: begin: %w", err))
		return
	}
	defer t.end()
	ended := false
	defer func() {
		if !ended {
			// A unit ended this goroutine (runtime.Goexit: a test's
			// t.FailNow inside a Batch). Nothing of the group is
			// committed; every unit not yet answered is, and a new lane
			// takes this one's place.
			t.rollback()
			answerAll(group, errLaneEnded)
			c.lanes.Add(1)
			go c.lane()
		}
	}()
	c.runGroup(t, group)
	ended = true
}

// begin starts a group's transaction, which belongs to no request: no
// caller's cancellation ends it. On PostgreSQL its BEGIN is queued, to
// leave with the first unit's statements (txn.go).
func (c *committer) begin() (*txn, error) {
	ctx := context.Background()
	if !c.pipelined {
		c.trips.Add(1)
		tx, err := c.pool.BeginTx(ctx, nil)
		return &txn{tx: tx, trips: &c.trips}, err
	}
	conn, err := c.pool.Conn(ctx)
	if err != nil {
		return nil, err
	}
	t := &txn{conn: conn, trips: &c.trips}
	return t, t.control(`BEGIN`)
}

// errLaneEnded answers the units of a group whose lane a unit ended.
var errLaneEnded = errors.New("store: a unit of work ended its lane")

// runGroup runs the units of group in t, then commits.
func (c *committer) runGroup(t *txn, group []*unit) {
	if len(group) == 1 {
		// Alone, a unit needs no savepoint: its failure rolls back the
		// transaction, which holds nothing else.
		u := group[0]
		if err := runUnit(u, t, false); err != nil {
			t.rollback()
			answer(u, err)
			return
		}
		answer(u, commitErr(t.commit()))
		return
	}
	kept := group[:0:0]
	for i, u := range group {
		if err := runSaved(u, t); err != nil {
			answer(u, err)
			if errors.Is(err, errGroupBroken) {
				// The transaction could not be rolled back to the unit's
				// savepoint: nothing in it can be trusted, so every unit
				// of the group fails, and none is committed.
				t.rollback()
				answerAll(append(kept, group[i+1:]...), err)
				return
			}
			continue
		}
		kept = append(kept, u)
	}
	if len(kept) == 0 {
		t.rollback()
		return
	}
	answerAll(kept, commitErr(t.commit()))
}

// errGroupBroken says a failed unit could not be undone on its own.
var errGroupBroken = errors.New("store: a unit of the group could not be rolled back alone")

// runSaved runs u inside a savepoint of t: on error, t is rolled back to
// the savepoint, so the group's other units keep their writes. A unit that
// ended well but cannot release its savepoint (on PostgreSQL, a statement
// failed inside it and the unit went on) is undone the same way.
func runSaved(u *unit, t *txn) error {
	err := runUnit(u, t, true)
	if errors.Is(err, errGroupBroken) {
		return err
	}
	if err == nil {
		if err = t.keepUnit(); err == nil {
			return nil
		}
	}
	if rerr := t.undoUnit(); rerr != nil {
		return fmt.Errorf("%w: %v (after %v)", errGroupBroken, rerr, err)
	}
	return err
}

// runUnit runs u in t (inside a savepoint when saved) and answers how it
// ended, its writes sent (txn.endUnit).
func runUnit(u *unit, t *txn, saved bool) error {
	if err := t.beginUnit(saved); err != nil {
		return err
	}
	return t.endUnit(run(u, t))
}

// run calls u's work; a panic in it becomes an error that its caller
// raises again (reraise), in the caller's own goroutine, instead of ending
// the lane and with it the server.
func run(u *unit, t *txn) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = &panicked{value: p}
		}
	}()
	return u.fn(u.ctx, t)
}

// panicked carries a unit's panic to its caller.
type panicked struct{ value any }

func (p *panicked) Error() string { return fmt.Sprintf("store: unit of work panicked: %v", p.value) }

// reraise panics again with a unit's panic, and answers any other error.
func reraise(err error) error {
	var p *panicked
	if errors.As(err, &p) {
		panic(p.value)
	}
	return err
}

func commitErr(err error) error {
	if err != nil {
		return fmt.Errorf("store: commit: %w", err)
	}
	return nil
}

// answer gives u its answer; a unit already answered keeps its first.
func answer(u *unit, err error) {
	select {
	case u.done <- err:
	default:
	}
}

// answerAll answers every unit of units with err (nil for a commit that held).
func answerAll(units []*unit, err error) {
	for _, u := range units {
		answer(u, err)
	}
}

// close lets the lanes finish every unit already queued, refuses new ones,
// and waits for the lanes to end.
func (c *committer) close() {
	c.mu.Lock()
	c.closed = true
	c.mu.Unlock()
	select {
	case c.wake <- struct{}{}:
	default:
	}
	c.lanes.Wait()
}

// GroupStats answers how many groups the store has committed (or tried
// to) and how many units of work they held: units/groups is the average
// group, which the benchmark prints.
func (db *DB) GroupStats() (groups, units int64) {
	return db.sh.commits.groups.Load(), db.sh.commits.units.Load()
}

// Statements answers how many statements the store has sent: reads outside
// any transaction (on SQLite, the read-only pool), and statements inside
// units of work. A group's BEGIN, COMMIT and savepoints are not counted:
// GroupStats gives the commits. The benchmark prints both a call, the
// measure of work that does not move with the machine's speed.
func (db *DB) Statements() (reads, inTransactions int64) {
	return db.sh.reads.Load(), db.sh.txStatements.Load()
}

// RoundTrips answers how many times the store has waited for the
// database: on PostgreSQL a round trip over the network (each read, each
// pipeline a group sends, its COMMIT; txn.go), on SQLite each statement,
// BEGIN, COMMIT and savepoint, every one a call into the library. The
// statements pgx prepares the first time a connection sees them are not
// counted: once the pool is warm there are none.
func (db *DB) RoundTrips() int64 {
	return db.sh.reads.Load() + db.sh.commits.trips.Load()
}

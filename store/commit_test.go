package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
)

// The tests of group commit (store/commit.go): a failed unit of work leaves
// the others of its group committed, and a unit whose caller was answered
// is in the database after the process is killed.

// childEnv names the store a child process of TestGroupCommitSurvivesKill
// writes to; TestMain runs the child instead of the tests when it is set.
const childEnv = "CHAIRSIDE_STORE_DURABILITY_CHILD"

func TestMain(m *testing.M) {
	if dsn := os.Getenv(childEnv); dsn != "" {
		os.Exit(durabilityChild(dsn))
	}
	os.Exit(m.Run())
}

// TestGroupCommitFailureStaysAlone holds every lane of the committer while
// seven units queue, so that they are committed as one group: a unit that
// fails, one that panics and (on PostgreSQL) one that went on after a
// failed statement are undone alone, and the four others are committed.
func TestGroupCommitFailureStaysAlone(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		db := e.DB
		event := func(id string) *chairside.Event {
			return &chairside.Event{ID: id, SessionID: "group", Type: "test.unit", CreatedAt: t0}
		}
		groups0, units0 := db.GroupStats()
		release := store.HoldWrites(db)
		lanes, _ := db.GroupStats()
		lanes -= groups0

		answers := make(map[string]error)
		var mu sync.Mutex
		var wg sync.WaitGroup
		offer := func(name string, fn func(st *store.DB) error) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				var err error
				func() {
					defer func() {
						if p := recover(); p != nil {
							err = fmt.Errorf("panic: %v", p)
						}
					}()
					err = db.Batch(ctx, fn)
				}()
				mu.Lock()
				answers[name] = err
				mu.Unlock()
			}()
		}
		for i := range 4 {
			name := fmt.Sprintf("good-%d", i)
			offer(name, func(st *store.DB) error { return st.AppendEvent(ctx, event(name)) })
		}
		offer("fails", func(st *store.DB) error {
			must(t, st.AppendEvent(ctx, event("fails")))
			return errors.New("the patient went back")
		})
		offer("panics", func(st *store.DB) error {
			must(t, st.AppendEvent(ctx, event("panics")))
			panic("a bug in a step")
		})
		offer("swallows", func(st *store.DB) error {
			must(t, st.AppendEvent(ctx, event("swallows")))
			// A lender application of an application that does not exist:
			// the foreign key refuses it, and this unit goes on regardless.
			wantCode(t, st.CreateLenderApplication(ctx, &chairside.LenderApplication{ApplicationID: "missing", LenderKey: "synchrony_standard",
				Status: chairside.StatusStarted}), chairside.ENOTFOUND)
			return nil
		})
		waitFor(t, "seven units queued", func() bool { return store.PendingWrites(db) == 7 })
		release()
		wg.Wait()

		groups, units := db.GroupStats()
		if groups-groups0 != lanes+1 || units-units0 != lanes+7 {
			t.Fatalf("groups: %d groups of %d units after the %d holders, want one group of 7", groups-groups0-lanes, units-units0-lanes, lanes)
		}
		for i := range 4 {
			must(t, answers[fmt.Sprintf("good-%d", i)])
		}
		if err := answers["fails"]; err == nil || !strings.Contains(err.Error(), "went back") {
			t.Errorf("the failing unit answered %v", err)
		}
		if err := answers["panics"]; err == nil || !strings.Contains(err.Error(), "a bug in a step") {
			t.Errorf("the panicking unit answered %v, want its panic raised again in its caller", err)
		}
		// SQLite undoes a failed statement alone and keeps the unit going;
		// PostgreSQL aborts the transaction, so the unit is undone whole.
		wantSwallowed := e.Name == store.SQLite
		if err := answers["swallows"]; (err == nil) != wantSwallowed {
			t.Errorf("the unit after a failed statement answered %v on %s", err, e.Name)
		}
		events, err := db.ListEvents(ctx, "group")
		must(t, err)
		got := map[string]bool{}
		for _, ev := range events {
			got[ev.ID] = true
		}
		want := map[string]bool{"good-0": true, "good-1": true, "good-2": true, "good-3": true}
		if wantSwallowed {
			want["swallows"] = true
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Fatalf("committed %v, want %v", got, want)
		}
	})
}

// TestGroupCommitGathersReadyWriters: on one core, sixteen writers ready at
// the same moment are committed together rather than one by one. The lane
// that the first of them wakes lets the others reach their writes before it
// takes the queue (lane in store/commit.go); without that it would run at
// once and commit each unit alone.
func TestGroupCommitGathersReadyWriters(t *testing.T) {
	db := storetest.SQLite(t).DB
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	const writers = 16
	groups0, units0 := db.GroupStats()
	ready := make(chan struct{})
	errs := make(chan error, writers)
	for i := range writers {
		go func() {
			<-ready
			errs <- db.AppendEvent(ctx, &chairside.Event{ID: fmt.Sprintf("ready-%d", i), SessionID: "ready", Type: "test.unit", CreatedAt: t0})
		}()
	}
	close(ready)
	for range writers {
		must(t, <-errs)
	}
	groups, units := db.GroupStats()
	if units-units0 != writers || groups-groups0 > 2 {
		t.Fatalf("%d units in %d commits, want all %d in one or two", units-units0, groups-groups0, writers)
	}
	events, err := db.ListEvents(ctx, "ready")
	must(t, err)
	if len(events) != writers {
		t.Fatalf("%d events written, want %d", len(events), writers)
	}
}

// TestGroupCommitWithdrawAndLaneEnd: a caller that gives up while its unit
// still waits withdraws it (nothing of it is written), and a unit that ends
// its lane's goroutine (runtime.Goexit, as t.FailNow does) fails alone while
// a new lane goes on committing.
func TestGroupCommitWithdrawAndLaneEnd(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		event := func(id string) *chairside.Event {
			return &chairside.Event{ID: id, SessionID: "withdraw", Type: "test.unit", CreatedAt: t0}
		}
		release := store.HoldWrites(db)
		gaveUp, cancel := context.WithCancel(ctx)
		answered := make(chan error, 1)
		go func() {
			answered <- db.Batch(gaveUp, func(st *store.DB) error { return st.AppendEvent(ctx, event("withdrawn")) })
		}()
		waitFor(t, "the unit queued", func() bool { return store.PendingWrites(db) == 1 })
		cancel()
		if err := <-answered; !errors.Is(err, context.Canceled) {
			t.Fatalf("the withdrawn unit answered %v", err)
		}
		release()

		ended := make(chan error, 1)
		go func() {
			ended <- db.Batch(ctx, func(st *store.DB) error {
				must(t, st.AppendEvent(ctx, event("ended")))
				runtime.Goexit()
				return nil
			})
		}()
		if err := <-ended; err == nil {
			t.Fatal("a unit that ended its lane answered nil")
		}
		must(t, db.AppendEvent(ctx, event("after"))) // a lane still commits
		events, err := db.ListEvents(ctx, "withdraw")
		must(t, err)
		if len(events) != 1 || events[0].ID != "after" {
			t.Fatalf("committed %v, want only the write made after", events)
		}
	})
}

// TestGroupCommitSurvivesKill runs a child process that writes from 32
// goroutines at once, each printing the id of a unit once Batch answered
// it, and kills it (SIGKILL) while it writes. Every id it printed must be
// in the database afterwards, and the child's writes must have been
// grouped (more units than commits), or the test proves nothing.
func TestGroupCommitSurvivesKill(t *testing.T) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		dsn := e.DSN
		if e.Name == store.SQLite {
			dsn = filepath.Join(t.TempDir(), "killed.db") // a file only the child has open
		}
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), childEnv+"="+dsn)
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		must(t, err)
		must(t, cmd.Start())
		answered, grouped := readUntilKilled(t, cmd, out, 400)
		if !grouped {
			t.Fatal("the child committed every unit alone: nothing was grouped")
		}

		db, err := store.Open(ctx, dsn, storetest.Keys(t))
		must(t, err)
		defer db.Close()
		events, err := db.ListEvents(ctx, "durability")
		must(t, err)
		kept := map[string]bool{}
		for _, ev := range events {
			kept[ev.ID] = true
		}
		var lost []string
		for _, id := range answered {
			if !kept[id] {
				lost = append(lost, id)
			}
		}
		if len(lost) > 0 {
			t.Fatalf("%d of %d answered units lost after kill -9: %v", len(lost), len(answered), lost[:min(len(lost), 5)])
		}
		t.Logf("%s: %d answered units, all kept (%d rows in all)", e.Name, len(answered), len(events))
	})
}

// readUntilKilled reads the child's lines, kills it with SIGKILL once n
// units were answered, and reads on to the end of what it printed. It
// answers the ids of every answered unit, and whether the child reported a
// group of more than one unit.
func readUntilKilled(t *testing.T, cmd *exec.Cmd, out interface{ Read([]byte) (int, error) }, n int) ([]string, bool) {
	t.Helper()
	var answered []string
	grouped := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		switch {
		case len(f) == 2 && f[0] == "answered":
			answered = append(answered, f[1])
			if len(answered) == n {
				must(t, cmd.Process.Kill()) // SIGKILL: no deferred function, no Close
			}
		case len(f) == 3 && f[0] == "grouped":
			grouped = grouped || f[1] != f[2] // units != groups
		}
	}
	err := cmd.Wait()
	if len(answered) < n {
		t.Fatalf("the child answered %d units, then ended: %v", len(answered), err)
	}
	return answered, grouped
}

// durabilityChild writes events until it is killed, printing each one's id
// once its Batch answered, and now and then the committer's counts.
func durabilityChild(dsn string) int {
	data, err := seal.Generate()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	keys, err := seal.FromJSON(data)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	db, err := store.Open(context.Background(), dsn, keys)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	var mu sync.Mutex // one line per write to stdout
	say := func(format string, a ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(os.Stdout, format, a...)
	}
	deadline := time.Now().Add(time.Minute) // the parent kills it long before
	var wg sync.WaitGroup
	for w := range 32 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; time.Now().Before(deadline); i++ {
				id := fmt.Sprintf("w%d-%d", w, i)
				// Two writes in one unit: both are kept, or neither.
				err := db.Batch(context.Background(), func(st *store.DB) error {
					if err := st.AppendEvent(context.Background(), &chairside.Event{ID: id, SessionID: "durability", Type: "test.unit"}); err != nil {
						return err
					}
					return st.AppendEvent(context.Background(), &chairside.Event{ID: id + "-b", SessionID: "durability-b", Type: "test.unit"})
				})
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					continue
				}
				say("answered %s\n", id)
				if i%20 == 0 {
					g, u := db.GroupStats()
					say("grouped %d %d\n", u, g)
				}
			}
		}()
	}
	wg.Wait()
	return 0
}

// waitFor polls cond every millisecond for up to ten seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("waited 10s for %s", what)
		}
	}
}

// TestStatementsAreCounted: the counters the benchmark reads statements a
// call from count each statement once, where it was sent: a read outside
// a transaction as a read, every statement of a unit of work (its reads
// too) inside one.
func TestStatementsAreCounted(t *testing.T) {
	storetest.Each(t, func(t *testing.T, db *store.DB) {
		ctx := context.Background()
		reads0, tx0 := db.Statements()
		if _, err := db.FindApplication(ctx, "no-such-application"); chairside.ErrorCode(err) != chairside.ENOTFOUND {
			t.Fatalf("find: %v", err)
		}
		if reads, tx := db.Statements(); reads != reads0+1 || tx != tx0 {
			t.Fatalf("one read: reads %d → %d, in units %d → %d", reads0, reads, tx0, tx)
		}
		err := db.Batch(ctx, func(s *store.DB) error {
			if _, err := s.FindApplication(ctx, "no-such-application"); chairside.ErrorCode(err) != chairside.ENOTFOUND {
				return fmt.Errorf("find in the unit: %v", err)
			}
			return s.AppendEvent(ctx, &chairside.Event{SessionID: "counted", Type: "test.counted"})
		})
		if err != nil {
			t.Fatal(err)
		}
		if reads, tx := db.Statements(); reads != reads0+1 || tx != tx0+2 {
			t.Fatalf("a unit of two statements: reads %d → %d, in units %d → %d", reads0, reads, tx0, tx)
		}
	})
}

// TestWriterCheckpointsAtItsOwnLength: the writer's automatic checkpoint is
// set from walAutoCheckpoint (a pragma in the writer's address, which a
// misspelling would drop without a word), and writes stay synchronous.
func TestWriterCheckpointsAtItsOwnLength(t *testing.T) {
	db := store.RawDB(storetest.SQLite(t).DB)
	var pages, sync, temp int
	if err := db.QueryRow(`PRAGMA wal_autocheckpoint`).Scan(&pages); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA synchronous`).Scan(&sync); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA temp_store`).Scan(&temp); err != nil {
		t.Fatal(err)
	}
	if pages != store.WalAutoCheckpoint || sync != 2 || temp != 2 { // 2 is FULL, and MEMORY
		t.Fatalf("writer: wal_autocheckpoint %d, synchronous %d, temp_store %d; want %d, 2 (FULL) and 2 (MEMORY)", pages, sync, temp, store.WalAutoCheckpoint)
	}
}

package backup_test

import (
	"context"
	"database/sql"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"github.com/chairside/chairside/backup"
	"github.com/chairside/chairside/testkit"
)

// openDB opens a WAL database as the store does, with a table of notes.
func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=journal_mode(WAL)&_pragma=busy_timeout(5000)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`CREATE TABLE IF NOT EXISTS notes (body TEXT NOT NULL)`); err != nil {
		t.Fatal(err)
	}
	return db
}

func notes(t *testing.T, path string) []string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT body FROM notes ORDER BY rowid`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var s string
		if err := rows.Scan(&s); err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// TestStreamAndRestore: what is committed reaches the replica, a restore
// finds all of it, a point in time before a commit finds none of that
// commit, and a restore never writes over a file.
func TestStreamAndRestore(t *testing.T) {
	testkit.SetS3Env(t)
	for name, replica := range map[string]func(t *testing.T) string{
		"folder": func(t *testing.T) string { return filepath.Join(t.TempDir(), "replica") },
		"s3":     func(t *testing.T) string { return testkit.FakeS3(t) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			to := replica(t)
			dir := t.TempDir()
			path := filepath.Join(dir, "chairside.db")
			db := openDB(t, path)
			if _, err := db.Exec(`INSERT INTO notes VALUES ('consent')`); err != nil {
				t.Fatal(err)
			}
			rep, err := backup.Start(ctx, path, backup.Config{To: to}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if err := rep.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			// LTX files are stamped to the millisecond; the point lies clearly between the two commits.
			time.Sleep(50 * time.Millisecond)
			before := time.Now()
			time.Sleep(50 * time.Millisecond)
			if _, err := db.Exec(`INSERT INTO notes VALUES ('signature')`); err != nil {
				t.Fatal(err)
			}
			if err := rep.Sync(ctx); err != nil {
				t.Fatal(err)
			}
			st := rep.Status()
			if st.Lag != 0 || st.Failing != "" || st.LastShipped.IsZero() || st.Behind {
				t.Errorf("status after a sync: %+v", st)
			}
			if strings.Contains(st.Replica, "?") {
				t.Errorf("the replica's name keeps its query: %s", st.Replica)
			}
			db.Close()
			if err := rep.Close(ctx); err != nil {
				t.Fatal(err)
			}

			latest := filepath.Join(dir, "restored", "latest.db")
			if err := backup.Restore(ctx, to, latest, time.Time{}); err != nil {
				t.Fatal(err)
			}
			if got := notes(t, latest); strings.Join(got, ",") != "consent,signature" {
				t.Errorf("latest restore holds %v", got)
			}
			if fi, err := os.Stat(latest); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("restored file's mode: %v %v", fi.Mode(), err)
			}
			earlier := filepath.Join(dir, "restored", "earlier.db")
			if err := backup.Restore(ctx, to, earlier, before); err != nil {
				t.Fatal(err)
			}
			if got := notes(t, earlier); strings.Join(got, ",") != "consent" {
				t.Errorf("point-in-time restore holds %v", got)
			}
			if err := backup.Restore(ctx, to, latest, time.Time{}); !errors.Is(err, backup.ErrTargetExists) {
				t.Errorf("a restore over an existing file: %v", err)
			}
			if got := notes(t, latest); len(got) != 2 {
				t.Errorf("the refused restore changed the file: %v", got)
			}
		})
	}
}

// TestUnreachableReplica: a replica that cannot be reached shows in the
// status as failing, with the error, and a restore from it says so.
func TestUnreachableReplica(t *testing.T) {
	ctx := context.Background()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	testkit.SetS3Env(t)
	to := "s3://chairside/practice?endpoint=http://" + dead + "&region=us-east-1"
	path := filepath.Join(t.TempDir(), "chairside.db")
	db := openDB(t, path)
	defer db.Close()
	rep, err := backup.Start(ctx, path, backup.Config{To: to}, nil)
	if err != nil {
		t.Fatal(err)
	}
	// S3's client tries a refused connection several times over seconds.
	sctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	if err := rep.Sync(sctx); err == nil {
		t.Fatal("a sync to an unreachable replica succeeded")
	}
	st := rep.Status()
	if st.Failing == "" || st.FailingSince.IsZero() {
		t.Errorf("status of an unreachable replica: %+v", st)
	}
	after := backup.DefaultBehindAfter
	if !backup.Behind(st, st.FailingSince.Add(after), after) || backup.Behind(st, st.FailingSince, after) || st.Behind {
		t.Errorf("behind only after %s of failing: %+v", after, st)
	}
	db.Close()
	// Closing tries a last sync; with the replica gone it gives up at the context's end.
	cctx, ccancel := context.WithTimeout(ctx, time.Second)
	defer ccancel()
	_ = rep.Close(cctx)
	rctx, rcancel := context.WithTimeout(ctx, 2*time.Second)
	defer rcancel()
	if err := backup.Restore(rctx, to, filepath.Join(t.TempDir(), "r.db"), time.Time{}); err == nil {
		t.Error("a restore from an unreachable replica succeeded")
	}
}

package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside/backup"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/testkit"
)

// journeyRows counts what a journey leaves that a lender or a regulator
// may ask for: consents (the e-signature among them), decisions, lender
// calls, completed applications, the history.
var journeyRows = []string{
	`SELECT COUNT(*) FROM consents`,
	`SELECT COUNT(*) FROM decisions`,
	`SELECT COUNT(*) FROM lender_calls`,
	`SELECT COUNT(*) FROM provider_applications WHERE status = 'completed'`,
	`SELECT COUNT(*) FROM events`,
}

func countRows(t *testing.T, path string) []int {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	out := make([]int, len(journeyRows))
	for i, q := range journeyRows {
		if err := db.QueryRow(q).Scan(&out[i]); err != nil {
			t.Fatalf("%s on %s: %v", q, path, err)
		}
	}
	return out
}

// readyBackup reads the backup's detail from /readyz.
func readyBackup(t *testing.T, base string) map[string]any {
	t.Helper()
	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Backup map[string]any `json:"backup"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	return body.Backup
}

// TestBackupSurvivesSIGKILL streams the real server's database to a folder
// and to an S3-compatible server, walks a patient's journey, kills the
// server with SIGKILL and restores into a new file: every consent,
// signature, decision and lender call of the journey is there and the
// audit passes; a restore to a moment before the journey finds none of
// it; a restore never writes over a file; and `backup verify` passes.
func TestBackupSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills servers")
	}
	testkit.SetS3Env(t) // this process restores from the same replica
	for name, replica := range map[string]func(t *testing.T) string{
		"folder": func(t *testing.T) string { return filepath.Join(t.TempDir(), "replica") },
		"s3":     func(t *testing.T) string { return testkit.FakeS3(t) },
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			to := replica(t)
			srv := newServer(t, store.SQLite)
			srv.extra = []string{"-backup-to", to}
			srv.env = testkit.S3Env
			live := srv.start(t, 0, 3*time.Second)
			waitShipped(t, live.url, time.Time{})
			time.Sleep(100 * time.Millisecond)
			before := time.Now()
			time.Sleep(100 * time.Millisecond)

			c := live.client()
			if err := c.CompleteFlow(demo.EntityKey, "123456789", testkit.SignaturePNG(t)); err != nil {
				t.Fatal(err)
			}
			// The journey reaches the replica within seconds while the server runs.
			waitShipped(t, live.url, time.Now())
			live.kill(t)

			dir := t.TempDir()
			restored := filepath.Join(dir, "restored.db")
			var out bytes.Buffer
			if err := run(ctx, []string{"restore", "-from", to, "-to", restored}, &out, &out); err != nil {
				t.Fatalf("restore: %v\n%s", err, out.String())
			}
			want, got := countRows(t, srv.dsn), countRows(t, restored)
			if fmt.Sprint(want) != fmt.Sprint(got) || got[0] == 0 || got[1] == 0 || got[3] == 0 {
				t.Errorf("the restore holds %v of %v (consents, decisions, lender calls, completed, events)", got, want)
			}
			rs := &server{dsn: restored, keys: srv.keys}
			rs.audit(t)

			earlier := filepath.Join(dir, "earlier.db")
			if err := run(ctx, []string{"restore", "-from", to, "-to", earlier, "-at", before.UTC().Format(time.RFC3339Nano)}, &out, &out); err != nil {
				t.Fatalf("restore -at: %v\n%s", err, out.String())
			}
			if got := countRows(t, earlier); fmt.Sprint(got) != "[0 0 0 0 0]" {
				t.Errorf("a restore to before the journey holds %v", got)
			}

			err := run(ctx, []string{"restore", "-from", to, "-to", restored}, &out, &out)
			if !errors.Is(err, backup.ErrTargetExists) {
				t.Errorf("a restore over an existing file: %v", err)
			}
			out.Reset()
			if err := run(ctx, []string{"backup", "verify", "-from", to}, &out, &out); err != nil || !strings.Contains(out.String(), "passes the audit") {
				t.Errorf("backup verify: %v %s", err, out.String())
			}
			// With the keys kept apart, the applicants and signatures in the backup open.
			keyFile := filepath.Join(dir, "keys.json")
			if err := os.WriteFile(keyFile, []byte(srv.keys), 0o600); err != nil {
				t.Fatal(err)
			}
			out.Reset()
			if err := run(ctx, []string{"backup", "verify", "-from", to, "-key-file", keyFile}, &out, &out); err != nil || !strings.Contains(out.String(), "sealed values in it open") || strings.Contains(out.String(), "All 0 ") {
				t.Errorf("backup verify with the keys: %v %s", err, out.String())
			}
		})
	}
}

// waitShipped waits until the running server's backup has caught up with
// changes made after since (any, when zero): its replica received changes
// after since and has nothing left to receive.
func waitShipped(t *testing.T, base string, since time.Time) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		b := readyBackup(t, base)
		shipped, _ := time.Parse(time.RFC3339Nano, fmt.Sprint(b["lastShipped"]))
		// The status is looked at every second: a second after since, a
		// lag of zero covers everything before since.
		if b["lagSeconds"] == 0.0 && shipped.After(since) && time.Since(since) > 2*time.Second {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the backup did not catch up: %v", b)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestBackupVerifyCatchesCorruption: a replica whose files were damaged
// fails `backup verify`, which says so.
func TestBackupVerifyCatchesCorruption(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "chairside.db")
	m := startMain(t, path)
	c := &testkit.Client{Base: m.URL(), HTTP: http.DefaultClient}
	if _, err := c.Start(demo.EntityKey); err != nil {
		t.Fatal(err)
	}
	m.Close()
	replica := filepath.Join(dir, "replica")
	rep, err := backup.Start(ctx, path, backup.Config{To: replica}, quietLogger())
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Sync(ctx); err != nil {
		t.Fatal(err)
	}
	if err := rep.Close(ctx); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(ctx, []string{"backup", "verify", "-from", replica}, &out, &out); err != nil {
		t.Fatalf("verify of a sound replica: %v %s", err, out.String())
	}
	// Damage the middle of every file the replica holds.
	damaged := 0
	err = filepath.Walk(replica, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() || fi.Size() < 64 {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for i := len(data) / 3; i < len(data)/3+16; i++ {
			data[i] ^= 0xff
		}
		damaged++
		return os.WriteFile(p, data, fi.Mode())
	})
	if err != nil || damaged == 0 {
		t.Fatalf("damaging the replica: %v (%d files)", err, damaged)
	}
	out.Reset()
	err = run(ctx, []string{"backup", "verify", "-from", replica}, &out, &out)
	if err == nil || !strings.Contains(err.Error(), "NOT usable") {
		t.Fatalf("verify of a damaged replica: %v %s", err, out.String())
	}
}

// TestBackupBehindShows: a server whose replica cannot be reached keeps
// serving patients, and /readyz and /metrics say the backup fails (the
// banner's minute is backup.Behind's, tested there and in httpapi).
func TestBackupBehindShows(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := l.Addr().String()
	l.Close()
	testkit.SetS3Env(t)
	m := NewMain()
	m.Config.DB = filepath.Join(t.TempDir(), "chairside.db")
	m.Config.Env = "test"
	m.Config.Addr = "127.0.0.1:0"
	m.Config.BackupTo = "s3://practice/chairside?endpoint=http://" + dead + "&region=us-east-1"
	m.Logger = quietLogger()
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	c := &testkit.Client{Base: m.URL(), HTTP: http.DefaultClient}
	if _, err := c.Start(demo.EntityKey); err != nil {
		t.Fatalf("a patient starts although the backup fails: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		b := readyBackup(t, m.URL())
		if b["failing"] != nil && b["failing"] != "" {
			if b["state"] != "ok" {
				t.Errorf("behind before a minute of failing: %v", b)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the backup never said it fails: %v", b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	res, err := http.Get(m.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var metrics bytes.Buffer
	_, _ = metrics.ReadFrom(res.Body)
	for _, want := range []string{"chairside_backup_failing 1", "chairside_backup_lag_seconds "} {
		if !strings.Contains(metrics.String(), want) {
			t.Errorf("/metrics lacks %q", want)
		}
	}
}

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/testkit"
)

// canarySSN is an SSN no other test uses, looked for in clear on disk.
const canarySSN = "321654987"

// TestKeyRotationUnderLoad rotates the data keys of a live deployment on
// both engines: journeys keep completing while a restarted server seals
// again what the old key sealed, a server killed (SIGKILL) halfway goes on
// after its restart, and afterwards nothing uses the old key, which is
// retired; every sealed value opens without it, the audit passes, and the
// canary SSN is nowhere on disk in clear.
func TestKeyRotationUnderLoad(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills servers")
	}
	for _, engine := range []string{store.SQLite, store.Postgres} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			srv := newServer(t, engine)
			// Three values a second: the re-sealing outlasts a few journeys.
			srv.extra = []string{"-reseal-batch", "3"}
			keyFile := filepath.Join(t.TempDir(), "keys.json")
			if err := os.WriteFile(keyFile, []byte(srv.keys), 0o600); err != nil {
				t.Fatal(err)
			}
			keys := func(args ...string) string {
				t.Helper()
				var out bytes.Buffer
				if err := run(ctx, append(append([]string{"keys"}, args...), "-db", srv.dsn, "-key-file", keyFile), &out, &out); err != nil {
					t.Fatalf("keys %v: %v\n%s", args, err, out.String())
				}
				return out.String()
			}

			live := srv.start(t, 0, 3*time.Second)
			journeys := func(c *testkit.Client, n int, ssn func(int) string) error {
				for i := range n {
					if err := c.CompleteFlow(demo.EntityKey, ssn(i), testkit.SignaturePNG(t)); err != nil {
						return fmt.Errorf("journey %d: %w", i, err)
					}
				}
				return nil
			}
			if err := journeys(live.client(), 6, func(i int) string {
				if i == 0 {
					return canarySSN
				}
				return fmt.Sprintf("12345%04d", 7100+i)
			}); err != nil {
				t.Fatal(err)
			}
			live.kill(t)

			if out := keys("rotate"); !strings.Contains(out, "sealed with k2") {
				t.Fatalf("rotate said: %s", out)
			}
			data, err := os.ReadFile(keyFile)
			if err != nil {
				t.Fatal(err)
			}
			srv.keys = string(data)
			before := counts(t, srv)
			if before["k1"] == 0 || before["k2"] != 0 {
				t.Fatalf("before re-sealing: %v", before)
			}

			// Patients keep applying all through the re-sealing, across the kill.
			// killing is set while the test kills the server on purpose: the
			// journeys cut short by it are not failures.
			var stop, killing atomic.Bool
			var failed atomic.Value
			var wg sync.WaitGroup
			base := atomic.Value{}
			live = srv.start(t, 0, 3*time.Second)
			base.Store(live.url)
			httpClient := live.client().HTTP
			wg.Go(func() {
				// A patient every fifth of a second or so, beside the re-sealing.
				for i := 0; !stop.Load(); i++ {
					time.Sleep(200 * time.Millisecond)
					c := &testkit.Client{Base: base.Load().(string), HTTP: httpClient}
					if err := c.CompleteFlow(demo.EntityKey, fmt.Sprintf("12346%04d", i+1), testkit.SignaturePNG(t)); err != nil && !stop.Load() && !killing.Load() {
						failed.Store(err)
					}
				}
			})
			waitCounts(t, srv, func(c map[string]int) bool { return c["k1"] < before["k1"] && c["k1"] > 0 }, "some but not all re-sealed")
			killing.Store(true)
			live.kill(t)
			live = srv.start(t, 0, 3*time.Second)
			base.Store(live.url)
			time.Sleep(500 * time.Millisecond)
			killing.Store(false)
			waitCounts(t, srv, func(c map[string]int) bool { return c["k1"] == 0 }, "nothing left on k1")
			stop.Store(true)
			wg.Wait()
			if err := failed.Load(); err != nil {
				t.Errorf("a journey failed while keys were rotated: %v", err)
			}
			live.kill(t)

			if out := keys("retire", "-id", "k1"); !strings.Contains(out, "Retired k1") {
				t.Fatalf("retire said: %s", out)
			}
			data, _ = os.ReadFile(keyFile)
			ring, err := seal.FromJSON(data)
			if err != nil || strings.Join(ring.KeyIDs(), ",") != "k2" {
				t.Fatalf("keys after retiring k1: %v %v", ring.KeyIDs(), err)
			}
			srv.keys = string(data)
			db := srv.open(t)
			n, err := db.OpenAllSealed(ctx)
			db.Close()
			if err != nil || n == 0 {
				t.Fatalf("sealed values without k1: %d opened, %v", n, err)
			}
			srv.audit(t)
			if out := keys("status"); !strings.Contains(out, "k2 (current)") || !strings.Contains(out, "sealed values open") {
				t.Errorf("status said: %s", out)
			}
			if engine == store.SQLite {
				for _, f := range []string{srv.dsn, srv.dsn + "-wal"} {
					if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte(canarySSN)) {
						t.Errorf("the canary SSN is in clear in %s", filepath.Base(f))
					}
				}
			}
		})
	}
}

func counts(t *testing.T, srv *server) map[string]int {
	t.Helper()
	db := srv.open(t)
	defer db.Close()
	c, err := db.SealedCounts(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func waitCounts(t *testing.T, srv *server, done func(map[string]int) bool, what string) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		c := counts(t, srv)
		if done(c) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited for %s: %v", what, c)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// TestKeyBackupCommands: `keys backup` writes the keys under a passphrase
// read from standard input, refuses to write over a file, and `keys
// open-backup` gives back a key file the server opens; a wrong passphrase
// writes nothing.
func TestKeyBackupCommands(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	keyFile := filepath.Join(dir, "keys.json")
	data, _ := seal.Generate()
	if err := os.WriteFile(keyFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	backup := filepath.Join(dir, "keys.backup")
	var out bytes.Buffer
	keys := func(stdin string, args ...string) error {
		out.Reset()
		return runKeys(ctx, args, strings.NewReader(stdin), &out, &out)
	}
	if err := keys("a passphrase of ours\n", "backup", "-key-file", keyFile, "-to", backup); err != nil {
		t.Fatalf("%v %s", err, out.String())
	}
	if err := keys("a passphrase of ours\n", "backup", "-key-file", keyFile, "-to", backup); err == nil {
		t.Error("keys backup wrote over a file")
	}
	restored := filepath.Join(dir, "restored-keys.json")
	if err := keys("not the passphrase\n", "open-backup", "-from", backup, "-to", restored); !errors.Is(err, seal.ErrPassphrase) {
		t.Errorf("a wrong passphrase: %v", err)
	}
	if _, err := os.Stat(restored); err == nil {
		t.Error("a wrong passphrase wrote a key file")
	}
	if err := keys("a passphrase of ours\n", "open-backup", "-from", backup, "-to", restored); err != nil {
		t.Fatalf("%v %s", err, out.String())
	}
	ring, err := seal.LoadOrCreate(restored)
	orig, _ := seal.FromJSON(data)
	if err != nil || ring.BlindIndex("x") != orig.BlindIndex("x") {
		t.Errorf("the restored key file: %v", err)
	}
	if fi, _ := os.Stat(restored); fi.Mode().Perm() != 0o600 {
		t.Errorf("the restored key file's mode: %v", fi.Mode())
	}
}

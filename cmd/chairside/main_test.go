package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/seal"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// TestServeWalksTheWholeFlow starts the real program on SQLite and on
// PostgreSQL and walks a patient from the demo office's entity key to
// finish/completed over HTTP; afterwards the session id no longer works.
func TestServeWalksTheWholeFlow(t *testing.T) {
	dsns := map[string]func(testing.TB) string{
		"sqlite":   func(tb testing.TB) string { return filepath.Join(tb.TempDir(), "chairside.db") },
		"postgres": func(tb testing.TB) string { return storetest.Postgres(tb).DSN },
	}
	for _, name := range []string{"sqlite", "postgres"} {
		t.Run(name, func(t *testing.T) {
			m := startMain(t, dsns[name](t))
			c := &testkit.Client{Base: m.URL(), HTTP: http.DefaultClient}
			if err := c.CompleteFlow(demo.EntityKey, "123456789", testkit.SignaturePNG(t)); err != nil {
				t.Fatal(err)
			}
			// Eleven steps of the journey (the form comes with the start),
			// and the two documents signing a prequalification shows besides
			// the e-sign one: the agreement and the hard-pull authorisation.
			if got := len(c.Latencies); got != 13 {
				t.Errorf("the flow made %d calls, want 13", got)
			}
			if slices.Contains(c.Names, "POST apply/start") {
				t.Error("the journey asked for the form the start had brought")
			}
			err := c.Call("GET", "/locations/current", nil, nil)
			var apiErr *testkit.APIError
			if !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized || !strings.Contains(apiErr.Body, `"session_invalid"`) {
				t.Fatalf("finished session: got %v, want 401 session_invalid", err)
			}
			problems, err := m.store.Audit(context.Background())
			if err != nil || len(problems) > 0 {
				t.Fatalf("audit after the journey: %v %v", problems, err)
			}
		})
	}
}

// TestServeCommand runs `chairside serve -env dev` as the README says: it
// prints the URL and the demo link, answers, and stops cleanly when
// interrupted.
func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr testkit.LockedBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-env", "dev", "-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "c.db"), "-log-level", "error"}, &stdout, &stderr)
	}()

	var url string
	re := regexp.MustCompile(`Open (http://127\.0\.0\.1:\d+)/`)
	for deadline := time.Now().Add(20 * time.Second); url == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(stdout.String()); m != nil {
			url = m[1]
		}
	}
	if url == "" {
		t.Fatalf("serve printed no URL; stdout %q stderr %q", stdout.String(), stderr.String())
	}
	if want := url + "/start/entity-keys/" + demo.EntityKey; !strings.Contains(stdout.String(), "Demo patient link: "+want) {
		t.Errorf("serve did not print the demo link %s:\n%s", want, stdout.String())
	}

	resp, err := http.Get(url + "/api/v1/internal/version")
	if err != nil {
		t.Fatal(err)
	}
	var version map[string]any
	json.NewDecoder(resp.Body).Decode(&version)
	resp.Body.Close()
	if resp.StatusCode != 200 || version["version"] == nil {
		t.Errorf("version: %d %v", resp.StatusCode, version)
	}

	cancel() // as SIGINT or SIGTERM would
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("serve ended with %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("serve did not stop after the interrupt")
	}
	if _, err := http.Get(url + "/api/v1/internal/version"); err == nil {
		t.Error("the server still answers after shutting down")
	}
}

// TestTokenCreate issues a start link the way an office does, then redeems
// it once; a second use is refused.
func TestTokenCreate(t *testing.T) {
	dir := t.TempDir()
	db, keyFile := filepath.Join(dir, "c.db"), filepath.Join(dir, "keys.json")
	first := startMainAt(t, db, keyFile) // creates and seeds the database
	first.Close()

	var out bytes.Buffer
	err := run(context.Background(), []string{"token", "create", "-db", db, "-key-file", keyFile,
		"-entity-key", demo.EntityKey, "-amount-cents", "450000", "-first-name", "Maria", "-last-name", "O'Hara",
		"-public-url", "https://office.example/"}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	link := regexp.MustCompile(`https://office\.example/start/tokens/([A-Za-z0-9_-]{22})\n`).FindStringSubmatch(out.String())
	if link == nil {
		t.Fatalf("no start link in:\n%s", out.String())
	}
	if !strings.Contains(out.String(), "Maria O'Hara ($4,500.00") || !strings.Contains(out.String(), "▀") {
		t.Errorf("output lacks the patient line or the QR code:\n%s", out.String())
	}

	m := startMainAt(t, db, keyFile)
	c := &testkit.Client{Base: m.URL(), HTTP: http.DefaultClient}
	var start struct {
		Application struct {
			PurchaseAmountCents int64 `json:"purchaseAmountCents"`
			Primary             struct {
				FirstName, LastName string
			} `json:"primary"`
		} `json:"application"`
	}
	if err := c.Call("POST", "/flow/start/tokens/"+link[1], nil, &start); err != nil {
		t.Fatal(err)
	}
	if a := start.Application; a.PurchaseAmountCents != 450000 || a.Primary.FirstName != "Maria" || a.Primary.LastName != "O'Hara" {
		t.Errorf("start by token answered %+v", a)
	}
	var apiErr *testkit.APIError
	if err := c.Call("POST", "/flow/start/tokens/"+link[1], nil, nil); !errors.As(err, &apiErr) || apiErr.Status != 404 {
		t.Errorf("second use of the token: %v, want 404", err)
	}
}

func TestCommandLineErrors(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name string
		args []string
		env  map[string]string
		want string
	}{
		{"unknown command", []string{"launch"}, nil, `unknown command "launch"`},
		{"bad env", []string{"serve", "-env", "staging"}, nil, "-env"},
		{"bad latency variable", []string{"serve"}, map[string]string{"CHAIRSIDE_SANDBOX_LATENCY": "fast"}, "CHAIRSIDE_SANDBOX_LATENCY"},
		{"negative latency", []string{"serve", "-sandbox-latency", "-1s"}, nil, "-sandbox-latency"},
		{"bad lender timeout variable", []string{"serve"}, map[string]string{"CHAIRSIDE_LENDER_TIMEOUT": "slow"}, "CHAIRSIDE_LENDER_TIMEOUT"},
		{"zero lender timeout", []string{"serve", "-lender-timeout", "0s"}, nil, "-lender-timeout"},
		{"huge lender timeout", []string{"serve", "-lender-timeout", "1h"}, nil, "-lender-timeout"},
		{"short entity key", []string{"token", "create", "-entity-key", "123", "-amount-cents", "100"}, nil, "16 digits"},
		{"no amount", []string{"token", "create", "-entity-key", demo.EntityKey}, nil, "-amount-cents"},
		{"unknown office", []string{"token", "create", "-db", filepath.Join(dir, "t.db"), "-entity-key", "9999888877776666", "-amount-cents", "100"}, nil, "no office has entity key"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			err := run(context.Background(), tc.args, io.Discard, io.Discard)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error mentioning %q", err, tc.want)
			}
		})
	}
}

// startMainAt is startMain with a fixed database and key file, for tests
// that restart the program on the same data.
func startMainAt(tb testing.TB, dsn, keyFile string) *Main {
	tb.Helper()
	m := NewMain()
	m.Config.Addr = "127.0.0.1:0"
	m.Config.DB = dsn
	m.Config.Env = "test"
	m.Config.KeyFile = keyFile
	m.Config.RateLimit = 0
	m.Config.SandboxLatency = 0 // whatever CHAIRSIDE_SANDBOX_LATENCY says
	m.Stdout = io.Discard
	m.Logger = quietLogger()
	if err := m.Run(context.Background()); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { m.Close() })
	return m
}

// TestDefaultEnvIsProd: with no -env and no CHAIRSIDE_ENV the server runs
// as prod — no demo offices, no test cases — and says so.
func TestDefaultEnvIsProd(t *testing.T) {
	t.Setenv("CHAIRSIDE_ENV", "")
	m := NewMain()
	if err := m.ParseFlags(nil, io.Discard); err != nil {
		t.Fatal(err)
	}
	if m.Config.Env != chairside.EnvProd {
		t.Fatalf("default env %q, want prod", m.Config.Env)
	}
	t.Setenv("CHAIRSIDE_ENV", "dev")
	if m := NewMain(); m.Config.Env != chairside.EnvDev {
		t.Errorf("CHAIRSIDE_ENV=dev gave env %q", m.Config.Env)
	}
}

// prodMain is a Main in env prod on dsn with the keys in keyFile, not yet
// running.
func prodMain(dsn, keyFile string) *Main {
	m := NewMain()
	m.Config.Addr = "127.0.0.1:0"
	m.Config.DB = dsn
	m.Config.Env = chairside.EnvProd
	m.Config.KeyFile = keyFile
	m.Config.Keys = ""
	m.Config.RateLimit = 0
	m.Stdout = io.Discard
	m.Logger = quietLogger()
	return m
}

// runOnce runs m and stops it again at once: for starts that should be
// refused.
func runOnce(m *Main) error {
	err := m.Run(context.Background())
	if err == nil {
		m.Close()
	}
	return err
}

// TestProdRefusesUnsafeSetups: in env prod the server will not start with
// the key file beside the SQLite database, with the demo offices in the
// database, or with the database, its WAL files or the key file open to
// other users — each refusal says why and how to fix it. A clean setup
// starts, with every file private.
func TestProdRefusesUnsafeSetups(t *testing.T) {
	dataDir, keyDir := t.TempDir(), t.TempDir()
	db := filepath.Join(dataDir, "chairside.db")

	// The default key file is beside the database: refused before either
	// is created.
	err := runOnce(prodMain(db, ""))
	if err == nil || !strings.Contains(err.Error(), "same directory") || !strings.Contains(err.Error(), "-key-file") {
		t.Fatalf("key file beside the database: %v", err)
	}
	for _, f := range []string{db, filepath.Join(dataDir, "chairside.key")} {
		if _, err := os.Stat(f); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s was created by a refused start (%v)", f, err)
		}
	}
	// So is an explicit key file there, even through another spelling.
	if err := runOnce(prodMain(db, filepath.Join(dataDir, ".", "keys.json"))); err == nil || !strings.Contains(err.Error(), "same directory") {
		t.Fatalf("explicit key file beside the database: %v", err)
	}
	// Keys given in CHAIRSIDE_KEYS have no file to misplace.
	keyFile := filepath.Join(keyDir, "keys.json")

	// A clean start: fresh database elsewhere than the keys.
	m := prodMain(db, keyFile)
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("clean prod start: %v", err)
	}
	resp, err := http.Post(m.URL()+"/api/v1/flow/start/entity-keys/"+demo.EntityKey, "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("prod serves the demo office: %d", resp.StatusCode)
	}
	assertPrivate(t, db, db+"-wal", db+"-shm", keyFile)
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}

	// Files open to other users: each named, with the chmod that fixes it.
	for _, f := range []string{db, keyFile} {
		if err := os.Chmod(f, 0o644); err != nil {
			t.Fatal(err)
		}
		walBefore, walErr := os.Stat(db + "-wal")
		err := runOnce(prodMain(db, keyFile))
		if err == nil || !strings.Contains(err.Error(), "chmod 600 "+f) {
			t.Errorf("%s with mode 0644: %v", f, err)
		}
		// Refused before SQLite opened it (which would make or write the
		// -wal and -shm files, with the same open mode).
		walAfter, err := os.Stat(db + "-wal")
		switch {
		case errors.Is(walErr, fs.ErrNotExist) && !errors.Is(err, fs.ErrNotExist):
			t.Errorf("a refused start opened the database: it made %s-wal", db)
		case walErr == nil && (err != nil || !walAfter.ModTime().Equal(walBefore.ModTime())):
			t.Errorf("a refused start opened the database: %s-wal changed (%v)", db, err)
		}
		if err := os.Chmod(f, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// The -wal and -shm files are checked as well (SQLite gives them the
	// database file's mode, but a copy or an old run may not have).
	running := startMainAt(t, filepath.Join(t.TempDir(), "w.db"), filepath.Join(t.TempDir(), "keys.json"))
	wal := running.Config.DB + "-wal"
	if err := os.Chmod(wal, 0o640); err != nil {
		t.Fatal(err)
	}
	if err := running.Config.checkProd(context.Background(), running.store); err == nil || !strings.Contains(err.Error(), "chmod 600 "+wal) {
		t.Errorf("-wal with mode 0640: %v", err)
	}
	running.Close()

	// The demo offices, seeded by a dev run on the same database.
	dev := startMainAt(t, db, keyFile)
	dev.Close()
	err = runOnce(prodMain(db, keyFile))
	if err == nil || !strings.Contains(err.Error(), "demo offices") || !strings.Contains(err.Error(), demo.EntityKey) {
		t.Fatalf("database with the demo offices: %v", err)
	}
}

// TestProdRefusesDemoOnPostgres: on PostgreSQL the demo-data check applies
// (and the key file's mode); there is no database file to check.
func TestProdRefusesDemoOnPostgres(t *testing.T) {
	dsn := storetest.Postgres(t).DSN
	keyFile := filepath.Join(t.TempDir(), "keys.json")
	m := prodMain(dsn, keyFile)
	if err := m.Run(context.Background()); err != nil {
		t.Fatalf("clean prod start on PostgreSQL: %v", err)
	}
	m.Close()
	dev := startMainAt(t, dsn, keyFile)
	dev.Close()
	err := runOnce(prodMain(dsn, keyFile))
	if err == nil || !strings.Contains(err.Error(), "demo offices") || strings.Contains(err.Error(), "same directory") {
		t.Fatalf("PostgreSQL with the demo offices: %v", err)
	}
}

// TestSQLiteFilesArePrivate: in every environment the SQLite database is
// created readable by its owner only, and so are the -wal and -shm files
// SQLite makes beside it.
func TestSQLiteFilesArePrivate(t *testing.T) {
	db := filepath.Join(t.TempDir(), "new", "c.db")
	startMainAt(t, db, filepath.Join(t.TempDir(), "keys.json"))
	assertPrivate(t, db, db+"-wal", db+"-shm")
	// An existing file is left as it is (env prod refuses it if open).
	other := filepath.Join(t.TempDir(), "old.db")
	if err := os.WriteFile(other, nil, 0o640); err != nil {
		t.Fatal(err)
	}
	keys, err := seal.FromJSON(mustGenerate(t))
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.Open(context.Background(), other, keys)
	if err != nil {
		t.Fatal(err)
	}
	st.Close()
	if st, _ := os.Stat(other); st.Mode().Perm() != 0o640 {
		t.Errorf("an existing database file changed mode to %v", st.Mode().Perm())
	}
}

// assertPrivate fails for any of files that exists with permissions for
// group or others.
func assertPrivate(t *testing.T, files ...string) {
	t.Helper()
	for _, f := range files {
		st, err := os.Stat(f)
		if errors.Is(err, fs.ErrNotExist) && (strings.HasSuffix(f, "-wal") || strings.HasSuffix(f, "-shm")) {
			continue
		} else if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if perm := st.Mode().Perm(); perm&0o077 != 0 {
			t.Errorf("%s has mode %04o, want 0600", f, perm)
		}
	}
}

// TestServeHeaders: the server sends Permissions-Policy always, and HSTS
// when its public URL is https (TLS ended by a proxy in front).
func TestServeHeaders(t *testing.T) {
	for _, public := range []string{"", "https://pay.example-dental.test"} {
		m := NewMain()
		m.Config.Addr = "127.0.0.1:0"
		m.Config.DB = filepath.Join(t.TempDir(), "c.db")
		m.Config.KeyFile = filepath.Join(t.TempDir(), "keys.json")
		m.Config.Env = chairside.EnvTest
		m.Config.PublicURL = public
		m.Stdout, m.Logger = io.Discard, quietLogger()
		if err := m.Run(context.Background()); err != nil {
			t.Fatal(err)
		}
		resp, err := http.Get("http://" + m.listener.Addr().String() + "/api/v1/internal/version")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		m.Close()
		if pp := resp.Header.Get("Permissions-Policy"); !strings.Contains(pp, "camera=()") || !strings.Contains(pp, "geolocation=()") {
			t.Errorf("public URL %q: Permissions-Policy %q", public, pp)
		}
		hsts := resp.Header.Get("Strict-Transport-Security")
		if public != "" && hsts != "max-age=31536000; includeSubDomains" || public == "" && hsts != "" {
			t.Errorf("public URL %q: Strict-Transport-Security %q", public, hsts)
		}
	}
}

// TestLenderTimeout: -lender-timeout (CHAIRSIDE_LENDER_TIMEOUT) reaches the
// service, and the shutdown grace and the HTTP write time-out are sized
// from it, so a lender call that runs its full time can still answer.
func TestLenderTimeout(t *testing.T) {
	m := NewMain()
	if m.Config.LenderTimeout != flow.DefaultLenderTimeout || m.shutdownGrace() != flow.DefaultLenderTimeout+10*time.Second {
		t.Errorf("defaults: timeout %s, grace %s", m.Config.LenderTimeout, m.shutdownGrace())
	}
	t.Setenv("CHAIRSIDE_LENDER_TIMEOUT", "3s")
	m = NewMain()
	if err := m.ParseFlags([]string{"-lender-timeout", "40s"}, io.Discard); err != nil {
		t.Fatal(err)
	}
	if m.Config.LenderTimeout != 40*time.Second || m.shutdownGrace() != 50*time.Second {
		t.Errorf("-lender-timeout 40s: timeout %s, grace %s", m.Config.LenderTimeout, m.shutdownGrace())
	}
	if m := NewMain(); m.Config.LenderTimeout != 3*time.Second {
		t.Errorf("CHAIRSIDE_LENDER_TIMEOUT=3s: %s", m.Config.LenderTimeout)
	}
	m.Config.Addr = "127.0.0.1:0"
	m.Config.DB = filepath.Join(t.TempDir(), "c.db")
	m.Config.KeyFile = filepath.Join(t.TempDir(), "keys.json")
	m.Config.Env = chairside.EnvTest
	m.Stdout, m.Logger = io.Discard, quietLogger()
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if wt := m.server.WriteTimeout; wt < 40*time.Second+30*time.Second {
		t.Errorf("WriteTimeout %s is not comfortably over the 40s lender time-out", wt)
	}
}

func mustGenerate(t *testing.T) []byte {
	t.Helper()
	data, err := seal.Generate()
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// startMain runs the real program in-process on a free port against dsn,
// env test (demo offices seeded, sandbox answering at once, no rate limit),
// with quiet logs.
func startMain(tb testing.TB, dsn string) *Main {
	tb.Helper()
	return startMainAt(tb, dsn, filepath.Join(tb.TempDir(), "keys.json"))
}

func quietLogger() *slog.Logger { return slog.New(slog.NewJSONHandler(io.Discard, nil)) }

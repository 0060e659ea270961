package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/store/storetest"
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
			c := &flowClient{base: m.URL(), http: http.DefaultClient}
			if err := c.completeFlow(demo.EntityKey, "123456789", signaturePNG(t)); err != nil {
				t.Fatal(err)
			}
			if got := len(c.latencies); got != 12 {
				t.Errorf("the flow made %d calls, want 12", got)
			}
			err := c.call("GET", "/locations/current", nil, nil)
			var apiErr *apiError
			if !errors.As(err, &apiErr) || apiErr.Status != http.StatusUnauthorized || !strings.Contains(apiErr.Body, `"session_invalid"`) {
				t.Fatalf("finished session: got %v, want 401 session_invalid", err)
			}
		})
	}
}

// syncBuffer is a bytes.Buffer safe for the server goroutine and the test.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServeCommand runs `chairside serve` as a person does: it prints the URL
// and the demo link, answers, and stops cleanly when interrupted.
func TestServeCommand(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, []string{"serve", "-addr", "127.0.0.1:0", "-db", filepath.Join(dir, "c.db"), "-log-level", "error"}, &stdout, &stderr)
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
	c := &flowClient{base: m.URL(), http: http.DefaultClient}
	var start struct {
		Application struct {
			PurchaseAmountCents int64 `json:"purchaseAmountCents"`
			Primary             struct {
				FirstName, LastName string
			} `json:"primary"`
		} `json:"application"`
	}
	if err := c.call("POST", "/flow/start/tokens/"+link[1], nil, &start); err != nil {
		t.Fatal(err)
	}
	if a := start.Application; a.PurchaseAmountCents != 450000 || a.Primary.FirstName != "Maria" || a.Primary.LastName != "O'Hara" {
		t.Errorf("start by token answered %+v", a)
	}
	var apiErr *apiError
	if err := c.call("POST", "/flow/start/tokens/"+link[1], nil, nil); !errors.As(err, &apiErr) || apiErr.Status != 404 {
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

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/testkit"
)

// TestInviteThroughTheLogInProd: as an operator would run it — the sample
// office imported, a staff account added, `serve -env prod` — an
// invitation with a phone number goes out through the server's outbox
// dispatcher to the built-in notifier, which logs the masked number and
// withholds the link in env prod; and the office's screen is told that
// messages do not reach patients. In prod the account sets up its second
// factor first.
func TestInviteThroughTheLogInProd(t *testing.T) {
	db, keyFile := filepath.Join(t.TempDir(), "c.db"), filepath.Join(t.TempDir(), "keys.json")
	sample := filepath.Join("..", "..", "examples", "offices.yaml")
	if err := run(context.Background(), []string{"office", "import", "-db", db, "-key-file", keyFile, sample}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	const email, password = "desk@maplestreet.example", "maple street front desk"
	if err := runStaff(context.Background(), []string{"add", "-db", db, "-key-file", keyFile, "-entity-key", "4815162342000001", "-email", email},
		strings.NewReader(password+"\n"), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	logs := &testkit.LockedBuffer{}
	m := prodMain(db, keyFile)
	m.Logger = httpapi.NewLogger(logs, slog.LevelInfo)
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	call := func(method, path, csrf string, body any) map[string]any {
		t.Helper()
		buf, _ := json.Marshal(body)
		req, _ := http.NewRequest(method, m.URL()+"/api/v1"+path, bytes.NewReader(buf))
		req.Header.Set("Content-Type", "application/json")
		if csrf != "" {
			req.Header.Set("X-CSRF-Token", csrf)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var out map[string]any
		if err := json.NewDecoder(resp.Body).Decode(&out); err != nil || resp.StatusCode >= 300 {
			t.Fatalf("%s %s: %d %v %v", method, path, resp.StatusCode, out, err)
		}
		return out
	}
	sess := call("POST", "/office/session", "", map[string]string{"email": email, "password": password})
	if sess["office"].(map[string]any)["messagesDelivered"] != false {
		t.Fatalf("a log-only server says messages are delivered: %v", sess)
	}
	csrf := sess["csrfToken"].(string)
	if sess["stage"] != "set_up_second_factor" {
		t.Fatalf("prod lets a password alone in: %v", sess)
	}
	setup := call("POST", "/office/second-factor/setup", csrf, nil)
	key := strings.ReplaceAll(setup["key"].(string), "-", "")
	code, err := totp.GenerateCode(key, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	call("POST", "/office/second-factor/confirm", csrf, map[string]string{"code": code})
	inv := call("POST", "/office/invites", csrf, map[string]any{"purchaseAmountCents": 320000, "mobilePhone": "415-555-0134"})
	token := strings.TrimPrefix(inv["link"].(string), m.URL()+"/start/tokens/")

	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(logs.String(), `"msg":"outbox message"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no outbox message in the log:\n%s", logs.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	out := logs.String()
	if !strings.Contains(out, "(•••) •••-0134") || !strings.Contains(out, "withheld") || strings.Contains(out, "4155550134") || strings.Contains(out, token) {
		t.Fatalf("the log line:\n%s", out)
	}
}

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/messaging/smtpsim"
	"github.com/chairside/chairside/messaging/twiliosim"
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
	db, keyFile := sampleOfficeWithDesk(t)
	logs := &testkit.LockedBuffer{}
	m := prodMain(db, keyFile)
	m.Logger = httpapi.NewLogger(logs, slog.LevelInfo)
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()

	sess, call := officeSignIn(t, m, deskEmail, deskPassword)
	if sess["office"].(map[string]any)["messagesDelivered"] != false {
		t.Fatalf("a log-only server says messages are delivered: %v", sess)
	}
	inv := call("POST", "/office/invites", map[string]any{"purchaseAmountCents": 320000, "mobilePhone": "415-555-0134"})
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

// officeSignIn signs a staff member in at m's office API, setting up the
// second factor where the environment asks for it first, and answers the
// session and a caller of the office API that sends its CSRF token.
func officeSignIn(t *testing.T, m *Main, email, password string) (map[string]any, func(method, path string, body any) map[string]any) {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar, Timeout: 10 * time.Second}
	csrf := ""
	call := func(method, path string, body any) map[string]any {
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
	sess := call("POST", "/office/session", map[string]string{"email": email, "password": password})
	csrf = sess["csrfToken"].(string)
	if m.Config.Env == chairside.EnvProd && sess["stage"] != "set_up_second_factor" {
		t.Fatalf("prod lets a password alone in: %v", sess)
	}
	if sess["stage"] == "set_up_second_factor" {
		setup := call("POST", "/office/second-factor/setup", nil)
		key := strings.ReplaceAll(setup["key"].(string), "-", "")
		code, err := totp.GenerateCode(key, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		call("POST", "/office/second-factor/confirm", map[string]string{"code": code})
	}
	return sess, call
}

// TestInviteThroughTwilioAndSMTP: with a Twilio account and an SMTP relay
// set (here the stand-ins), an invitation with a phone and an email
// sends the text through Twilio and the email through SMTP, from the
// practice; the office is told messages reach patients, and its list
// shows the text delivered once the stand-in's signed report arrives.
func TestInviteThroughTwilioAndSMTP(t *testing.T) {
	db, keyFile := sampleOfficeWithDesk(t)
	const account, token, service = "AC00000000000000000000000000000042", "the stand-in's auth token", "MG00000000000000000000000000000042"
	sim := twiliosim.New(account, token)
	simSrv := httptest.NewServer(sim)
	defer simSrv.Close()
	var mail smtpsim.Server
	addr, err := mail.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()
	host, port, _ := net.SplitHostPort(addr)

	m := prodMain(db, keyFile)
	m.Config.Env = chairside.EnvTest
	m.Config.TwilioAccount, m.Config.TwilioToken, m.Config.TwilioSender, m.Config.TwilioURL = account, token, service, simSrv.URL
	m.Config.SMTPHost, m.Config.SMTPPort, m.Config.SMTPFrom, m.Config.SMTPTLS = host, port, "invites@chairside.example", "none"
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sess, call := officeSignIn(t, m, deskEmail, deskPassword)
	if sess["office"].(map[string]any)["messagesDelivered"] != true {
		t.Fatalf("a server with Twilio and SMTP says messages are not delivered: %v", sess)
	}
	inv := call("POST", "/office/invites", map[string]any{"purchaseAmountCents": 320000, "firstName": "Maria",
		"mobilePhone": "415-555-0134", "email": "maria@example.com"})
	token1 := strings.TrimPrefix(inv["link"].(string), m.URL()+"/start/tokens/")

	deadline := time.Now().Add(10 * time.Second)
	for len(sim.Messages()) == 0 || len(mail.Mail()) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("texts %v, mail %v", sim.Messages(), mail.Mail())
		}
		time.Sleep(20 * time.Millisecond)
	}
	if text := sim.Messages()[0]; text.To != "+14155550134" || text.Sender != service || !strings.Contains(text.Body, "/i/"+token1) {
		t.Errorf("the text: %+v", text)
	}
	if got := mail.Mail()[0]; got.To[0] != "maria@example.com" || !strings.Contains(got.Data, "Maple Street") || !strings.Contains(got.Data, token1) {
		t.Errorf("the email: %+v", got)
	}
	for {
		list := call("GET", "/office/applications?tz=UTC", nil)
		if states := fmt.Sprint(list["applications"].([]any)[0].(map[string]any)["messages"]); strings.Contains(states, "state:delivered") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the list never showed the text delivered: %v", list)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// The sample office's front desk, as sampleOfficeWithDesk adds it.
const deskEmail, deskPassword = "desk@maplestreet.example", "maple street front desk"

// sampleOfficeWithDesk imports the sample office file into a new database
// and adds its front desk (deskEmail, deskPassword), as an operator would; it
// answers the database and its key file.
func sampleOfficeWithDesk(t *testing.T) (db, keyFile string) {
	t.Helper()
	db, keyFile = filepath.Join(t.TempDir(), "c.db"), filepath.Join(t.TempDir(), "keys.json")
	sample := filepath.Join("..", "..", "examples", "offices.yaml")
	if err := run(context.Background(), []string{"office", "import", "-db", db, "-key-file", keyFile, sample}, io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	if err := runStaff(context.Background(), []string{"add", "-db", db, "-key-file", keyFile, "-entity-key", "4815162342000001", "-email", deskEmail},
		strings.NewReader(deskPassword+"\n"), io.Discard, io.Discard); err != nil {
		t.Fatal(err)
	}
	return db, keyFile
}

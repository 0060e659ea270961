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
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pquerna/otp/totp"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/messaging/smtpsim"
	"github.com/chairside/chairside/messaging/twiliosim"
	"github.com/chairside/chairside/pms/opendental/odsim"
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
	inv := call("POST", "/office/invites", map[string]any{"purchaseAmountCents": 320000, "mobilePhone": "415-555-0134", "textConsent": true})
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
// set (here the stand-ins), an invitation in Spanish with a phone and an
// email sends the Spanish text through Twilio from the office's own
// sender (not the server's), and holds the email; the office is told messages reach patients, and
// its list shows the text delivered once the stand-in's signed report
// arrives. A text that is not delivered sends its email instead, in the
// invitation's language, from the practice.
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
	var logs testkit.LockedBuffer
	m.Logger = slog.New(slog.NewJSONHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	m.Config.Env = chairside.EnvTest
	m.Config.TwilioAccount, m.Config.TwilioToken, m.Config.TwilioSender, m.Config.TwilioURL = account, token, service, simSrv.URL
	m.Config.SMTPHost, m.Config.SMTPPort, m.Config.SMTPFrom, m.Config.SMTPTLS = host, port, "invites@chairside.example", "none"
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	sess, call := officeSignIn(t, m, deskEmail, deskPassword)
	if o := sess["office"].(map[string]any); o["textsDelivered"] != true || o["emailsDelivered"] != true {
		t.Fatalf("a server with Twilio and SMTP says messages are not delivered: %v", sess)
	}
	inv := call("POST", "/office/invites", map[string]any{"purchaseAmountCents": 320000, "firstName": "Maria", "language": "es",
		"mobilePhone": "415-555-0134", "textConsent": true, "email": "maria@example.com"})
	token1 := strings.TrimPrefix(inv["link"].(string), m.URL()+"/start/tokens/")
	sim.Fail("+14155550177", 30003)
	inv2 := call("POST", "/office/invites", map[string]any{"purchaseAmountCents": 90000, "language": "es",
		"mobilePhone": "415-555-0177", "textConsent": true, "email": "jo@example.com"})
	token2 := strings.TrimPrefix(inv2["link"].(string), m.URL()+"/start/tokens/")

	waitFor(t, "the texts and the fallback email", func() bool { return len(sim.Messages()) == 2 && len(mail.Mail()) == 1 })
	// The office's own sender, not the server's.
	if text := sim.Messages()[0]; text.To != "+14155550134" || text.Sender != sampleSender || !strings.Contains(text.Body, "/i/"+token1) ||
		!strings.Contains(text.Body, "solicite financiamiento") {
		t.Errorf("the text: %+v", text)
	}
	if got := mail.Mail()[0]; got.To[0] != "jo@example.com" || !strings.Contains(got.Data, "Maple Street") || !strings.Contains(got.Data, token2) ||
		!strings.Contains(got.Data, "Abra este enlace") {
		t.Errorf("the email: %+v", got)
	}
	waitFor(t, "the list to show the texts' fates", func() bool {
		list := fmt.Sprint(call("GET", "/office/applications?tz=UTC", nil)["applications"])
		return strings.Contains(list, "state:delivered") && strings.Contains(list, "state:undelivered") && strings.Contains(list, "state:held")
	})
	time.Sleep(100 * time.Millisecond)
	if n := len(mail.Mail()); n != 1 {
		t.Errorf("%d emails: the delivered text's email went too", n)
	}
	// The auth token is nowhere the server wrote: not its log, not a byte
	// of the database's files.
	if err := m.Close(); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(logs.String(), token) || !strings.Contains(logs.String(), "msg") {
		t.Error("the auth token is in the log, or nothing was logged")
	}
	files, _ := filepath.Glob(db + "*")
	for _, f := range files {
		if b, err := os.ReadFile(f); err != nil {
			t.Fatal(err)
		} else if bytes.Contains(b, []byte(token)) {
			t.Errorf("the auth token is in %s", filepath.Base(f))
		}
	}
}

// waitFor polls cond for up to 10 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	waitUpTo(t, 10*time.Second, what, cond)
}

// waitUpTo polls cond for up to d.
func waitUpTo(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(d)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("waited %s for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestStandinsFollowAnInvitation: `serve -messaging-standins` (as `make
// run` starts it) sends an invitation's text to the stand-in inside the
// server, from the office's own sender (textSender in the office file),
// and /dev/messages shows it, with its link whole; a STOP sent from the
// page opts the number out, and the next invitation to it is not texted,
// which the office's list says. The Open Dental stand-in answers there
// too, for an office connected with its key.
func TestStandinsFollowAnInvitation(t *testing.T) {
	db, keyFile := sampleOfficeWithDesk(t)
	m := prodMain(db, keyFile)
	m.Config.Env = chairside.EnvTest
	m.Config.Standins = true
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	_, call := officeSignIn(t, m, deskEmail, deskPassword)
	inv := call("POST", "/office/invites", map[string]any{"purchaseAmountCents": 320000, "mobilePhone": "415-555-0134", "textConsent": true})
	token := strings.TrimPrefix(inv["link"].(string), m.URL()+"/start/tokens/")
	var seen struct {
		Texts []struct{ Sender, To, Body, Link, Status string }
	}
	waitFor(t, "the stand-in's page to show the text delivered", func() bool {
		getJSON(t, m.URL()+"/dev/messages.json", &seen)
		return len(seen.Texts) == 1 && seen.Texts[0].Status == "delivered"
	})
	if x := seen.Texts[0]; x.Sender != sampleSender || x.To != "+14155550134" || x.Link != m.URL()+"/i/"+token {
		t.Fatalf("the stand-in's text: %+v", x)
	}
	page := getText(t, m.URL()+"/dev/messages")
	if !strings.Contains(page, "/i/"+token) || !strings.Contains(page, "Reply from the number") {
		t.Errorf("the developer's page:\n%s", page)
	}
	res, err := http.PostForm(m.URL()+"/dev/messages/reply", url.Values{"from": {"4155550134"}, "body": {"STOP"}, "sender": {sampleSender}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	again := call("POST", "/office/invites", map[string]any{"purchaseAmountCents": 120000, "mobilePhone": "4155550134", "textConsent": true})
	waitFor(t, "the list to say the number opted out", func() bool {
		for _, row := range call("GET", "/office/applications?tz=UTC", nil)["applications"].([]any) {
			r := row.(map[string]any)
			if r["id"] == again["id"] && strings.Contains(fmt.Sprint(r["messages"]), "state:opted_out") {
				return true
			}
		}
		return false
	})
	getJSON(t, m.URL()+"/dev/messages.json", &seen)
	if len(seen.Texts) != 1 {
		t.Errorf("a text went to a number that replied STOP: %+v", seen.Texts)
	}
	// The Open Dental stand-in: connected with its key, searched.
	if got := call("PUT", "/office/records", map[string]any{"customerKey": odsim.StandinCustomerKey, "postOn": "funded"}); got["connected"] != true {
		t.Fatalf("connecting the Open Dental stand-in: %v", got)
	}
	if found := call("GET", "/office/records/patients?lastName=lopez", nil)["patients"].([]any); len(found) != 2 {
		t.Errorf("the stand-in's Lopez family: %v", found)
	}
}

// The sample office's own sender of texts (examples/offices.yaml).
const sampleSender = "MG4815162342000001aaaaaaaaaaaaaaaa"

func getJSON(t *testing.T, target string, out any) {
	t.Helper()
	res, err := http.Get(target)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if err := json.NewDecoder(res.Body).Decode(out); err != nil {
		t.Fatal(err)
	}
}

func getText(t *testing.T, target string) string {
	t.Helper()
	res, err := http.Get(target)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
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

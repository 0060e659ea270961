package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/office"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/testkit"
)

// staffClient is an office staff member's browser: a cookie jar and the
// CSRF token of the sign-in.
type staffClient struct {
	http *http.Client
	base string
	csrf string
}

// call sends one office call and answers its status and body.
func (c *staffClient) call(t *testing.T, method, path, key string, body any) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		r = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, c.base+"/api/v1"+path, r)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-CSRF-Token", c.csrf)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	res, err := c.http.Do(req)
	if err != nil {
		return 0, []byte(err.Error())
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, data
}

// The manager of the demo office the crash tests add.
const crashManager, crashPassword = "manager@crash.example", "the manager's long password"

// addManager adds the manager to the demo office in the servers' database.
func (s *server) addManager(t *testing.T) {
	t.Helper()
	db := s.open(t)
	defer db.Close()
	if _, err := office.New(db, slog.New(slog.DiscardHandler)).AddStaff(context.Background(), demo.EntityKey, crashManager, crashPassword, chairside.StaffManager); err != nil {
		t.Fatal(err)
	}
}

// signIn signs the manager in at base, with a browser of their own.
func signIn(t *testing.T, base string) *staffClient {
	t.Helper()
	jar, _ := cookiejar.New(nil)
	c := &staffClient{http: &http.Client{Jar: jar, Timeout: time.Minute}, base: base}
	status, body := c.call(t, "POST", "/office/session", "", map[string]string{"email": crashManager, "password": crashPassword})
	var m struct{ CSRFToken string }
	if status != http.StatusOK || json.Unmarshal(body, &m) != nil || m.CSRFToken == "" {
		t.Fatalf("sign-in: %d %s", status, body)
	}
	c.csrf = m.CSRFToken
	return c
}

// TestCrashDuringRefund kills the server (SIGKILL) while the lender is
// refunding a funded case, on both engines. After the restart the retry
// with the same Idempotency-Key waits while the refund is in flight, then
// takes it over: the lender sees one reference, the money line one refund,
// and the audit finds every entry with its evidence.
func TestCrashDuringRefund(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills servers")
	}
	for _, engine := range []string{store.SQLite, store.Postgres} {
		t.Run(engine, func(t *testing.T) {
			t.Parallel()
			srv := newServer(t, engine)
			// A business day of one second: funded two seconds after
			// completion, deposited one later, refundable for 90 seconds.
			srv.extra = []string{"-sandbox-funding-day", "1s"}
			const slow, timeout = 1500 * time.Millisecond, 3 * time.Second
			live := srv.start(t, 0, timeout)
			c := live.client()
			if err := c.CompleteFlow(demo.EntityKey, "123455100", testkit.SignaturePNG(t)); err != nil {
				t.Fatal(err)
			}
			srv.addManager(t)
			mgr := signIn(t, live.url)
			var list struct{ Applications []struct{ ID string } }
			status, body := mgr.call(t, "GET", "/office/applications", "", nil)
			if status != http.StatusOK || json.Unmarshal(body, &list) != nil || len(list.Applications) != 1 {
				t.Fatalf("the list: %d %s", status, body)
			}
			id := list.Applications[0].ID
			// The reconciler follows the funding (its first poll is ten
			// seconds after completion).
			deadline := time.Now().Add(60 * time.Second)
			for {
				_, body := mgr.call(t, "GET", "/office/applications/"+id, "", nil)
				if strings.Contains(string(body), `"state":"deposited"`) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("never deposited: %s", body)
				}
				time.Sleep(500 * time.Millisecond)
			}

			live.kill(t)
			live = srv.start(t, slow, timeout)
			mgr = signIn(t, live.url)
			path := "/office/applications/" + id + "/changes"
			refund := map[string]any{"kind": "refund", "amountCents": 30_000, "reason": "A crown was not placed."}
			sent := make(chan int, 1)
			go func() { status, _ := mgr.call(t, "POST", path, "refund-1", refund); sent <- status }()
			first := srv.waitForCall(t, sandbox.OpRefund, 1)
			live.kill(t)
			if status := <-sent; status == http.StatusOK {
				t.Fatal("the refund answered although the server was killed mid-call")
			}
			live = srv.start(t, 0, timeout)
			mgr = signIn(t, live.url)
			deadline = time.Now().Add(30 * time.Second)
			for {
				status, body := mgr.call(t, "POST", path, "refund-1", refund)
				if status == http.StatusOK {
					if !strings.Contains(string(body), `"status":"done"`) {
						t.Fatalf("the refund's answer: %s", body)
					}
					break
				}
				if status != http.StatusConflict || !strings.Contains(string(body), `"in_flight"`) || time.Now().After(deadline) {
					t.Fatalf("retry of the refund: %d %s", status, body)
				}
				time.Sleep(250 * time.Millisecond)
			}
			// Again, after it settled: the same answer, no new call.
			if status, body := mgr.call(t, "POST", path, "refund-1", refund); status != http.StatusOK {
				t.Fatalf("the refund again: %d %s", status, body)
			}
			refs := map[string]int{}
			for _, call := range srv.calls(t) {
				if call.Op == sandbox.OpRefund {
					refs[call.Reference]++
				}
			}
			if len(refs) != 1 || refs[first.Reference] == 0 {
				t.Fatalf("the lender saw refund references %v; want only %s", refs, first.Reference)
			}
			_, body = mgr.call(t, "GET", "/office/applications/"+id, "", nil)
			if n := strings.Count(string(body), `"kind":"refunded"`); n != 1 {
				t.Fatalf("%d refunds on the money line: %s", n, body)
			}
			live.kill(t)
			srv.audit(t)
			t.Logf("refund: %d lender calls with reference %s", refs[first.Reference], first.Reference)
		})
	}
}

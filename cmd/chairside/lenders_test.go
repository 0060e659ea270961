package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/demo"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// simSetup is the real program with Synchrony and Fortiva (the first two
// lenders of the demo office) reached over HTTP, on real sockets, through
// the lender simulator, which sends its webhooks back to the program.
type simSetup struct {
	m   *Main
	sim *lendersim.Sim
}

const simWebhookSecret = "sim-webhook-secret"

func startWithSim(t *testing.T, dsn string) *simSetup {
	t.Helper()
	// The webhooks' address is the program's, known once it listens.
	sim := lendersim.New(lendersim.Options{
		APIKey:         "sim-api-key",
		WebhookSecret:  simWebhookSecret,
		PendingFor:     300 * time.Millisecond,
		WebhookBackoff: 100 * time.Millisecond,
		// A short business day, so a completed case funds and deposits in
		// about a second (TestFundingOverHTTPLenders).
		FundingDay: 200 * time.Millisecond,
	})
	simSrv := httptest.NewServer(sim)
	t.Cleanup(func() { simSrv.Close(); sim.Close() })
	file := "lenders:\n"
	for _, key := range []string{"synchrony_standard", "fortiva_standard"} {
		// An attempt's time-out of 1 s: long enough that a loaded machine
		// answering a 5xx or garbage late does not turn it into a time-out
		// (TestLenderFaultsCascade counts each fault by its kind), short
		// enough that two attempts end well within the patient's 3 s.
		file += fmt.Sprintf("  %s:\n    adapter: http\n    url: %s/lenders/%s\n    apiKey: sim-api-key\n    webhookSecrets:\n      - %s\n    timeout: 1s\n    maxAttempts: 2\n",
			key, simSrv.URL, key, simWebhookSecret)
	}
	path := filepath.Join(t.TempDir(), "lenders.yaml")
	if err := os.WriteFile(path, []byte(file), 0o600); err != nil {
		t.Fatal(err)
	}
	m := NewMain()
	m.Config.Addr = "127.0.0.1:0"
	m.Config.DB = dsn
	m.Config.Env = chairside.EnvTest
	m.Config.KeyFile = filepath.Join(t.TempDir(), "keys.json")
	m.Config.RateLimit = 0
	m.Config.SandboxLatency = 0
	m.Config.LenderTimeout = 3 * time.Second
	m.Config.LendersFile = path
	m.Stdout, m.Logger = io.Discard, quietLogger()
	if err := m.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { m.Close() })
	sim.SetWebhookURL(m.URL() + "/api/v1/lenders/{providerKey}/webhooks")
	return &simSetup{m: m, sim: sim}
}

func (s *simSetup) client() *testkit.Client {
	return &testkit.Client{Base: s.m.URL(), HTTP: http.DefaultClient}
}

// prequalify starts a session and submits the soft-pull check to the
// first lender for an applicant.
func (s *simSetup) prequalify(t *testing.T, c *testkit.Client, lastName, ssn string) map[string]any {
	t.Helper()
	if _, err := c.Start(demo.EntityKey); err != nil {
		t.Fatal(err)
	}
	return s.submit(t, c, "synchrony_standard", lastName, ssn)
}

func (s *simSetup) submit(t *testing.T, c *testkit.Client, key, lastName, ssn string) map[string]any {
	t.Helper()
	consent, err := c.Consent(key, "prequalification")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]any
	body := map[string]any{"primary": testkit.Applicant(lastName, ssn), "jointEnabled": false, "consent": consent}
	if err := c.Call("POST", "/providers/"+key+"/prequalify", body, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

func (s *simSetup) scrape(t *testing.T) string {
	t.Helper()
	res, err := http.Get(s.m.URL() + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return string(b)
}

// eachDB runs fn on SQLite and on PostgreSQL.
func eachDB(t *testing.T, fn func(t *testing.T, dsn string)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, filepath.Join(t.TempDir(), "chairside.db")) })
	t.Run("postgres", func(t *testing.T) { fn(t, storetest.Postgres(t).DSN) })
}

// TestJourneyOverHTTPLenders: a whole journey with the first lender over
// HTTP — decision, plans, accept, e-sign, complete — and /metrics then
// shows that lender's calls and their latency.
func TestJourneyOverHTTPLenders(t *testing.T) {
	s := startWithSim(t, filepath.Join(t.TempDir(), "chairside.db"))
	c := s.client()
	if err := c.CompleteFlow(demo.EntityKey, "123451001", testkit.SignaturePNG(t)); err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{lender.OpDecide, lender.OpAcceptOffer, lender.OpESign, lender.OpComplete} {
		if s.sim.Hits("synchrony_standard", op) == 0 {
			t.Errorf("the simulator never saw %s", op)
		}
	}
	m := s.scrape(t)
	for _, line := range []string{
		`chairside_lender_calls_total{lender="synchrony_standard",op="decide",result="ok"} 1`,
		`chairside_lender_calls_total{lender="synchrony_standard",op="complete",result="ok"} 1`,
		`chairside_lender_call_duration_seconds_count{lender="synchrony_standard",op="decide"} 1`,
		`chairside_lender_call_duration_seconds_bucket{lender="synchrony_standard",op="decide",le="0.25"}`,
		`chairside_lender_breaker_state{lender="synchrony_standard"} 0`,
		`chairside_http_requests_total{code="200",route="POST /api/v1/providers/{providerKey}/prequalify"} 1`,
		`go_goroutines`,
	} {
		if !strings.Contains(m, line) {
			t.Errorf("/metrics lacks %s", line)
		}
	}
}

// TestPendingApprovedByWebhook: the simulator leaves a Pending applicant
// pending, approves after a while and says so by signed webhook; the
// patient's application is then approved without the patient asking.
func TestPendingApprovedByWebhook(t *testing.T) {
	s := startWithSim(t, filepath.Join(t.TempDir(), "chairside.db"))
	c := s.client()
	d := s.prequalify(t, c, "Pending", "123451002")
	if d["responseCode"] != chairside.ResponsePending {
		t.Fatalf("Pending: %v", d)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		var pa struct {
			Decision struct {
				ResponseCode string `json:"responseCode"`
			} `json:"decision"`
		}
		if err := c.Call("GET", "/providers/synchrony_standard/application", nil, &pa); err != nil {
			t.Fatal(err)
		}
		if chairside.Positive(pa.Decision.ResponseCode) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("still %s after 10s", pa.Decision.ResponseCode)
		}
		time.Sleep(50 * time.Millisecond)
	}
	// The webhook is counted after its write commits and before its 2xx
	// answer: once the simulator holds the answer, the count is there.
	for s.sim.Webhooks("synchrony_standard") == 0 {
		if time.Now().After(deadline) {
			t.Fatal("the simulator never had the webhook answered")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if m := s.scrape(t); !strings.Contains(m, `chairside_lender_webhooks_total{lender="synchrony_standard",result="applied"} 1`) {
		t.Errorf("/metrics does not count the applied webhook")
	}
	// The patient asked nothing: the lender's status was never read by
	// the patient's screen or the reconciler (its first poll is later).
	if n := s.sim.Hits("synchrony_standard", lender.OpStatus); n != 0 {
		t.Errorf("the lender was asked for the status %d times", n)
	}
}

// TestConcurrentSubmitsOverHTTP: 20 identical submits at once (a patient
// tapping, a browser retrying) reach the lender once over the network, and
// every one of them answers the same decision, on SQLite and PostgreSQL.
func TestConcurrentSubmitsOverHTTP(t *testing.T) {
	eachDB(t, func(t *testing.T, dsn string) {
		s := startWithSim(t, dsn)
		c := s.client()
		if _, err := c.Start(demo.EntityKey); err != nil {
			t.Fatal(err)
		}
		consent, err := c.Consent("synchrony_standard", "prequalification")
		if err != nil {
			t.Fatal(err)
		}
		body := map[string]any{"primary": testkit.Applicant("Approve", "123451003"), "jointEnabled": false, "consent": consent}
		ids := make([]string, 20)
		var wg sync.WaitGroup
		for i := range ids {
			// One client each (a client records its calls), one session.
			tap := &testkit.Client{Base: c.Base, HTTP: c.HTTP, SessionID: c.SessionID}
			wg.Go(func() {
				ids[i] = submitUntilAnswered(t, tap, body)
			})
		}
		wg.Wait()
		for i, id := range ids {
			if id == "" || id != ids[0] {
				t.Fatalf("answer %d: lenderApplicationId %q, first %q", i, id, ids[0])
			}
		}
		// One application at the lender, made once. The transport may
		// resend the one claimed call with its idempotency key when an
		// attempt times out (maxAttempts 2 above, 1 s each, which a
		// loaded machine can pass), so the requests are at most two; the
		// other 19 submits never reached the network.
		d, ok := s.sim.Application("synchrony_standard", ids[0])
		if !ok {
			t.Fatalf("the lender holds no application %s", ids[0])
		}
		if n := s.sim.Creates("synchrony_standard", d.PlatformReference); n != 1 {
			t.Fatalf("the lender made the application %d times, want 1", n)
		}
		if n := s.sim.Hits("synchrony_standard", lender.OpDecide); n < 1 || n > 2 {
			t.Fatalf("the lender received %d decide requests, want 1 (2 with a resend)", n)
		}
	})
}

// submitUntilAnswered sends a prequalify, waiting out in_flight answers as
// the browser does, and answers the decision's lenderApplicationId.
func submitUntilAnswered(t *testing.T, c *testkit.Client, body map[string]any) string {
	for range 100 {
		var d struct {
			LenderRef string `json:"lenderApplicationId"`
		}
		err := c.Call("POST", "/providers/synchrony_standard/prequalify", body, &d)
		if err == nil {
			return d.LenderRef
		}
		if !strings.Contains(err.Error(), chairside.EINFLIGHT) {
			t.Error(err)
			return ""
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Error("still in flight after 100 tries")
	return ""
}

// TestLenderFaultsCascade: a lender that answers too slowly, fails with
// 5xx or answers garbage is that lender's "could not reach" answer, and
// the waterfall goes on to the next lender (over HTTP too), which
// approves. Every fault is counted by kind in /metrics.
func TestLenderFaultsCascade(t *testing.T) {
	s := startWithSim(t, filepath.Join(t.TempDir(), "chairside.db"))
	for i, tc := range []struct {
		fault lendersim.Fault
		kind  string
	}{
		{lendersim.Fault{Kind: lendersim.FaultSlow, Delay: 5 * time.Second, Op: lender.OpDecide}, lender.KindTimeout},
		{lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpDecide}, lender.KindUnavailable},
		{lendersim.Fault{Kind: lendersim.FaultGarbage, Op: lender.OpDecide}, lender.KindMalformed},
	} {
		t.Run(tc.fault.Kind, func(t *testing.T) {
			if err := s.sim.SetFault("synchrony_standard", tc.fault); err != nil {
				t.Fatal(err)
			}
			c := s.client()
			ssn := fmt.Sprintf("12345101%d", i)
			start := time.Now()
			d := s.prequalify(t, c, "Approve", ssn)
			took := time.Since(start)
			next, _ := d["next"].(map[string]any)
			if d["responseCode"] != chairside.ResponseError || next == nil || next["provider"] != "fortiva_standard" {
				t.Fatalf("Synchrony with %s: %v", tc.fault.Kind, d)
			}
			if took > 3*time.Second {
				t.Errorf("the failing lender held the patient %s", took)
			}
			if d := s.submit(t, c, "fortiva_standard", "Approve", ssn); !chairside.Positive(fmt.Sprint(d["responseCode"])) {
				t.Fatalf("Fortiva after Synchrony's %s: %v", tc.fault.Kind, d)
			}
			want := fmt.Sprintf(`chairside_lender_errors_total{kind=%q,lender="synchrony_standard",op="decide"}`, tc.kind)
			if m := s.scrape(t); !strings.Contains(m, want) {
				t.Errorf("/metrics lacks %s", want)
			}
		})
	}
}

// TestRefundOverHTTPLenders: a manager's refund of a case funded by a
// lender over HTTP reaches the lender once, the same request again
// answering the first answer; a refund that lender refuses shows on
// /metrics as a money alert. (TestFundingWebhooksOverHTTP follows the
// funding itself.) On both engines.
func TestRefundOverHTTPLenders(t *testing.T) {
	t.Parallel()
	eachDB(t, func(t *testing.T, dsn string) {
		t.Parallel()
		s := startWithSim(t, dsn)
		ctx := context.Background()
		id, _ := completeCase(t, s, moneyCase{key: "synchrony_standard", office: demo.EntityKey, ssn: "1234512"}, "123451201")
		checkDeposited(t, "before the refund", waitDeposited(t, s, id))
		refund := &flow.CaseChange{Kind: flow.ChangeRefund, AmountCents: 10_000, Reason: "Over HTTP."}
		res, err := s.m.svc.ChangeCase(ctx, id, "refund-http-1", refund)
		if err != nil || res.Status != chairside.ChangeDone || res.Reference == "" {
			t.Fatalf("refund over HTTP: %+v %v", res, err)
		}
		if again, err := s.m.svc.ChangeCase(ctx, id, "refund-http-1", refund); err != nil || *again != *res {
			t.Fatalf("the same refund again: %+v %v", again, err)
		}
		if n := s.sim.Hits("synchrony_standard", lender.OpRefund); n != 1 {
			t.Errorf("the simulator refunded %d times", n)
		}

		// A refund refused by the lender is an alert the office and
		// /metrics show (counted by the server's loop once a minute, here
		// at once).
		pa, err := s.m.store.FindLenderApplication(ctx, id, "synchrony_standard")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.m.store.AppendMoney(ctx, &chairside.MoneyEntry{LenderApplicationID: pa.ID, Kind: chairside.MoneyRefundRefused,
			AmountCents: 5_000, Reference: "refused-1"}, false); err != nil {
			t.Fatal(err)
		}
		s.m.countAlerts(ctx, s.m.store, quietLogger())
		if m := s.scrape(t); !strings.Contains(m, `chairside_money_alerts{kind="refund_refused"} 1`) ||
			!strings.Contains(m, `chairside_money_alerts{kind="late_funding"} 0`) ||
			// The simulator's deposit states its total, which its cases add up to.
			!strings.Contains(m, `chairside_money_alerts{kind="deposit_mismatch"} 0`) {
			t.Errorf("/metrics lacks the money alerts:\n%s", grepLines(m, "chairside_money_alerts"))
		}
	})
}

// grepLines are the lines of text that contain sub.
func grepLines(text, sub string) string {
	var out []string
	for line := range strings.Lines(text) {
		if strings.Contains(line, sub) {
			out = append(out, line)
		}
	}
	return strings.Join(out, "")
}

// fortivaOffice is the demo office whose first lender is Fortiva.
const fortivaOffice = "1000200030014000"

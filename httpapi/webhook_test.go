package httpapi_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/testkit"
)

// signedEvent is a webhook event for a lender application, its body and
// a signature made at "at" with secret.
func signedEvent(t *testing.T, id, lenderAppID, status string, at time.Time, secret []byte) (body []byte, sig string) {
	t.Helper()
	return signedEventOf(t, id, lenderAppID, status, 500_000, at, secret)
}

// signedEventOf is signedEvent with the amount the decision approves.
func signedEventOf(t *testing.T, id, lenderAppID, status string, approvedCents int64, at time.Time, secret []byte) (body []byte, sig string) {
	t.Helper()
	ev := protocol.Event{ID: id, Type: protocol.EventApplicationUpdated, CreatedAt: at, Data: protocol.EventData{
		ApplicationID: lenderAppID, PreviousStatus: protocol.StatusPending, NewStatus: status,
		Decision: &protocol.Decision{ApplicationID: lenderAppID, Status: status, ApprovedAmountCents: approvedCents, Currency: "USD"},
	}}
	body, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	return body, protocol.Sign(secret, at, body)
}

func (h *harness) webhook(t *testing.T, key string, body []byte, sig string) *result {
	t.Helper()
	hd := map[string]string{}
	if sig != "" {
		hd[protocol.SignatureHeader] = sig
	}
	return h.do(t, req{method: "POST", path: "/lenders/" + key + "/webhooks", body: body, header: hd})
}

// TestLenderWebhook: a pending application approved by its lender's
// webhook is approved for the patient, without the patient asking; a bad
// signature, an old one, a repeated event id, an unknown application or
// lender change nothing.
func TestLenderWebhook(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/pending-then-approved", session: sid}), 200, "")
		d := want(t, h.prequalify(t, sid, key, testkit.Applicant("Waiting", "123450062")), 200, "")
		lid, _ := d["lenderApplicationId"].(string)
		if d["responseCode"] != chairside.ResponsePending || lid == "" {
			t.Fatalf("pending-then-approved: %v", d)
		}
		status := func() string {
			t.Helper()
			pa := want(t, h.do(t, req{method: "GET", path: "/providers/" + key + "/application", session: sid}), 200, "")
			dec, _ := pa["decision"].(map[string]any)
			return fmt.Sprint(dec["responseCode"])
		}
		now := h.clock.Now()

		body, sig := signedEvent(t, "evt_1", lid, protocol.StatusApproved, now, []byte("not-the-secret"))
		want(t, h.webhook(t, key, body, sig), 403, chairside.EFORBIDDEN)
		want(t, h.webhook(t, key, body, ""), 403, chairside.EFORBIDDEN)
		body, sig = signedEvent(t, "evt_1", lid, protocol.StatusApproved, now.Add(-6*time.Minute), webhookSecret)
		want(t, h.webhook(t, key, body, sig), 403, chairside.EFORBIDDEN)
		// A signature over other bytes than those sent.
		body, sig = signedEvent(t, "evt_1", lid, protocol.StatusApproved, now, webhookSecret)
		tampered := []byte(strings.Replace(string(body), "500000", "900000", 1))
		want(t, h.webhook(t, key, tampered, sig), 403, chairside.EFORBIDDEN)
		if got := status(); got != chairside.ResponsePending {
			t.Fatalf("after refused webhooks the decision is %s, want pending", got)
		}

		// Signed, but no lender approves $99,900,000.00 (nor Synchrony more
		// than its card's $25,000): malformed, refused, nothing recorded.
		for i, cents := range []int64{9_990_000_000, 2_500_001} {
			huge, hsig := signedEventOf(t, fmt.Sprintf("evt_huge_%d", i), lid, protocol.StatusApproved, cents, now, webhookSecret)
			want(t, h.webhook(t, key, huge, hsig), 400, chairside.EINVALID)
		}
		if got := status(); got != chairside.ResponsePending {
			t.Fatalf("after malformed webhooks the decision is %s, want pending", got)
		}

		other, osig := signedEvent(t, "evt_9", "no-such-application", protocol.StatusApproved, now, webhookSecret)
		want(t, h.webhook(t, key, other, osig), 404, chairside.ENOTFOUND)
		want(t, h.webhook(t, "no_such_lender", body, sig), 404, chairside.ENOTFOUND)
		// The event is the synchrony application's: another lender's
		// endpoint does not find it.
		want(t, h.webhook(t, "ads_standard", body, sig), 404, chairside.ENOTFOUND)

		if got := want(t, h.webhook(t, key, body, sig), 200, ""); got["result"] != chairside.EventApplied {
			t.Fatalf("webhook: %v", got)
		}
		if got := status(); got != chairside.ResponseApproved {
			t.Fatalf("after the webhook the decision is %s, want approved", got)
		}
		// The approval has plans, as any approval does.
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans", session: sid, body: map[string]any{"amountCents": 200000}}), 200, "")

		// The same event again, and a later one saying declined: neither
		// changes an application that is no longer pending.
		if got := want(t, h.webhook(t, key, body, sig), 200, ""); got["result"] != chairside.EventDuplicate {
			t.Fatalf("repeated webhook: %v", got)
		}
		late, lsig := signedEvent(t, "evt_2", lid, protocol.StatusDeclined, now, webhookSecret)
		if got := want(t, h.webhook(t, key, late, lsig), 200, ""); got["result"] != chairside.EventIgnored {
			t.Fatalf("late webhook: %v", got)
		}
		if got := status(); got != chairside.ResponseApproved {
			t.Fatalf("after the late webhook the decision is %s, want approved", got)
		}

		m := h.scrape(t)
		for _, line := range []string{
			`chairside_lender_webhooks_total{lender="synchrony_standard",result="applied"} 1`,
			`chairside_lender_webhooks_total{lender="synchrony_standard",result="duplicate"} 1`,
			`chairside_lender_webhooks_total{lender="synchrony_standard",result="bad_signature"} 3`,
			`chairside_lender_webhooks_total{lender="synchrony_standard",result="stale"} 1`,
			`chairside_lender_webhooks_total{lender="unknown",result="unknown_lender"} 1`,
		} {
			if !strings.Contains(m, line) {
				t.Errorf("/metrics lacks %s", line)
			}
		}
	})
}

// scrape reads /metrics.
func (h *harness) scrape(t *testing.T) string {
	t.Helper()
	res, err := h.srv.Client().Get(h.srv.URL + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("/metrics: %d %s", res.StatusCode, b)
	}
	return string(b)
}

// TestHealthAndReadiness: /healthz answers while the process serves;
// /readyz while the database answers with its migrations applied, and 503
// once it does not.
func TestHealthAndReadiness(t *testing.T) {
	var down atomic.Bool
	var db *store.DB
	ready := func(ctx context.Context) error {
		if down.Load() {
			return errors.New("the database is down")
		}
		return db.Ready(ctx)
	}
	sqliteOnly(t, config{ready: ready}, func(t *testing.T, h *harness) {
		db = h.eng.DB
		get := func(path string) (int, string) {
			res, err := h.srv.Client().Get(h.srv.URL + path)
			if err != nil {
				t.Fatal(err)
			}
			defer res.Body.Close()
			b, _ := io.ReadAll(res.Body)
			return res.StatusCode, string(b)
		}
		if code, body := get("/healthz"); code != 200 || !strings.Contains(body, `"ok"`) {
			t.Fatalf("/healthz: %d %s", code, body)
		}
		if code, body := get("/readyz"); code != 200 || !strings.Contains(body, `"ready"`) {
			t.Fatalf("/readyz: %d %s", code, body)
		}
		// A journey's requests are counted by route pattern.
		h.start(t)
		if m := h.scrape(t); !strings.Contains(m, `chairside_http_requests_total{code="200",route="POST /api/v1/flow/start/entity-keys/{entityKey}"} 1`) {
			t.Errorf("/metrics lacks the flow start's request count:\n%.2000s", m)
		}
		down.Store(true)
		if code, body := get("/readyz"); code != 503 {
			t.Fatalf("/readyz with the database closed: %d %s", code, body)
		}
		if code, _ := get("/healthz"); code != 200 {
			t.Fatalf("/healthz with the database closed: %d", code)
		}
	})
}

// TestLenderWebhookWithoutDecision: an event that carries no decision (or
// one the protocol's checks refuse) makes the server ask the lender for
// the application's status, and records what the lender answers.
func TestLenderWebhookWithoutDecision(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/pending-then-approved", session: sid}), 200, "")
		d := want(t, h.prequalify(t, sid, key, testkit.Applicant("Waiting", "123450063")), 200, "")
		lid, _ := d["lenderApplicationId"].(string)
		now := h.clock.Now()
		body, err := json.Marshal(protocol.Event{ID: "evt_bare", Type: protocol.EventApplicationUpdated, CreatedAt: now,
			Data: protocol.EventData{ApplicationID: lid, PreviousStatus: protocol.StatusPending, NewStatus: protocol.StatusApproved,
				Decision: &protocol.Decision{ApplicationID: lid, Status: "approved-ish", Currency: "USD"}}})
		if err != nil {
			t.Fatal(err)
		}
		before := h.statuses.Load()
		if got := want(t, h.webhook(t, key, body, protocol.Sign(webhookSecret, now, body)), 200, ""); got["result"] != chairside.EventApplied {
			t.Fatalf("webhook: %v", got)
		}
		if h.statuses.Load() != before+1 {
			t.Errorf("the lender was asked for the status %d times, want once", h.statuses.Load()-before)
		}
		pa := want(t, h.do(t, req{method: "GET", path: "/providers/" + key + "/application", session: sid}), 200, "")
		if dec, _ := pa["decision"].(map[string]any); !chairside.Positive(fmt.Sprint(dec["responseCode"])) {
			t.Fatalf("after the webhook: %v", pa)
		}
	})
}

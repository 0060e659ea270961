package lendersim_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/protocol"
)

const webhookSecret = "whsec-test"

// receiver is a webhook endpoint that keeps the events whose signature
// verifies, with when each arrived, and refuses the first `refuse`
// deliveries with a 503.
type receiver struct {
	mu       sync.Mutex
	events   []protocol.Event
	paths    []string
	raws     [][]byte
	sigs     []string
	at       []time.Time
	bad      int
	refuse   int
	arrivals chan struct{}
}

func newReceiver(t *testing.T, refuse int) (*receiver, string) {
	t.Helper()
	rc := &receiver{refuse: refuse, arrivals: make(chan struct{}, 64)}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		rc.mu.Lock()
		defer rc.mu.Unlock()
		if rc.refuse > 0 {
			rc.refuse--
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		if err := protocol.VerifySignature([]byte(webhookSecret), r.Header.Get(protocol.SignatureHeader), body, time.Now()); err != nil {
			rc.bad++
			w.WriteHeader(http.StatusForbidden)
			return
		}
		var ev protocol.Event
		if err := json.Unmarshal(body, &ev); err != nil {
			rc.bad++
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		rc.events = append(rc.events, ev)
		rc.paths = append(rc.paths, r.URL.Path)
		rc.raws = append(rc.raws, body)
		rc.sigs = append(rc.sigs, r.Header.Get(protocol.SignatureHeader))
		rc.at = append(rc.at, time.Now())
		select {
		case rc.arrivals <- struct{}{}:
		default: // nobody counts arrivals (until polls instead)
		}
	}))
	t.Cleanup(srv.Close)
	return rc, srv.URL + "/api/v1/lenders/{providerKey}/webhooks"
}

// wait waits for n events, or fails after a while.
func (rc *receiver) wait(t *testing.T, n int) []protocol.Event {
	t.Helper()
	for range n {
		select {
		case <-rc.arrivals:
		case <-time.After(3 * time.Second):
			t.Fatalf("waited for %d webhook(s)", n)
		}
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	return append([]protocol.Event(nil), rc.events...)
}

// until polls the events received until ok accepts them, or fails after
// a while; it answers them.
func (rc *receiver) until(t *testing.T, what string, ok func([]protocol.Event) bool) []protocol.Event {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		rc.mu.Lock()
		evs := append([]protocol.Event(nil), rc.events...)
		rc.mu.Unlock()
		if ok(evs) {
			return evs
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited for %s; received %d events", what, len(evs))
		}
	}
}

// pendingApp creates a Pending application and checks it answers pending.
func pendingApp(t *testing.T, srv *httptest.Server, key, ref string) protocol.Decision {
	t.Helper()
	var d protocol.Decision
	a := send(t, srv, "POST", lenderPath(key, "/applications"), ref, create(ref, "Pending"))
	a.decode(t, &d)
	if a.status != 200 || d.Status != protocol.StatusPending {
		t.Fatalf("create: %d %s", a.status, a.body)
	}
	var st protocol.Decision
	send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, "")), "", nil).decode(t, &st)
	if st.Status != protocol.StatusPending {
		t.Fatalf("status before PendingFor: %+v", st)
	}
	return d
}

// TestPendingAdvancesWithWebhook: a pending application is approved after
// PendingFor and announced by a signed event, delivered again after a
// refusal; the status reads approved from then on.
func TestPendingAdvancesWithWebhook(t *testing.T) {
	rc, url := newReceiver(t, 1)
	sim, srv := start(t, lendersim.Options{WebhookURL: url, WebhookSecret: webhookSecret, PendingFor: 100 * time.Millisecond,
		WebhookBackoff: 20 * time.Millisecond})
	key := catalogue.Synchrony
	d := pendingApp(t, srv, key, "ref-pending")
	evs := rc.wait(t, 1)
	ev := evs[0]
	if ev.ID == "" || ev.Type != protocol.EventApplicationUpdated || ev.Data.ApplicationID != d.ApplicationID ||
		ev.Data.PlatformReference != "ref-pending" || ev.Data.PreviousStatus != protocol.StatusPending ||
		ev.Data.NewStatus != protocol.StatusApproved || ev.Data.Decision == nil || ev.Data.Decision.Status != protocol.StatusApproved {
		t.Fatalf("event %+v", ev)
	}
	rc.mu.Lock()
	path, bad := rc.paths[0], rc.bad
	rc.mu.Unlock()
	if path != "/api/v1/lenders/"+key+"/webhooks" || bad != 0 {
		t.Fatalf("delivered to %s, %d bad signatures", path, bad)
	}
	var st protocol.Decision
	send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, "")), "", nil).decode(t, &st)
	if st.Status != protocol.StatusApproved || st.ApprovedAmountCents <= 0 {
		t.Fatalf("status after PendingFor: %+v", st)
	}
	if a := send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(d.ApplicationID, protocol.SubPlans)), "", nil); a.status != 200 {
		t.Fatalf("plans once approved: %d %s", a.status, a.body)
	}
	// The simulator counts a delivery once it has read the answer, a
	// moment after the receiver saw it.
	for deadline := time.Now().Add(2 * time.Second); sim.Webhooks(key) == 0 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if n := sim.Webhooks(key); n != 1 {
		t.Fatalf("deliveries %d, want 1 (the refused one not counted)", n)
	}
}

// TestWebhookFaults: under webhook-twice the same event (same id) comes
// twice; under webhook-never none comes, and the status still moves.
func TestWebhookFaults(t *testing.T) {
	rc, url := newReceiver(t, 0)
	sim, srv := start(t, lendersim.Options{WebhookURL: url, WebhookSecret: webhookSecret, PendingFor: 50 * time.Millisecond})
	if err := sim.SetFault(catalogue.Genesis, lendersim.Fault{Kind: lendersim.FaultWebhookTwice}); err != nil {
		t.Fatal(err)
	}
	if err := sim.SetFault(catalogue.Fortiva, lendersim.Fault{Kind: lendersim.FaultWebhookNever}); err != nil {
		t.Fatal(err)
	}
	pendingApp(t, srv, catalogue.Genesis, "ref-twice")
	evs := rc.wait(t, 2)
	if len(evs) != 2 || evs[0].ID != evs[1].ID || evs[0].Data.NewStatus != protocol.StatusApproved {
		t.Fatalf("webhook-twice: %+v", evs)
	}
	d := pendingApp(t, srv, catalogue.Fortiva, "ref-never")
	time.Sleep(250 * time.Millisecond)
	var st protocol.Decision
	send(t, srv, "GET", lenderPath(catalogue.Fortiva, protocol.ApplicationPath(d.ApplicationID, "")), "", nil).decode(t, &st)
	if st.Status != protocol.StatusApproved {
		t.Fatalf("status under webhook-never: %+v", st)
	}
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.events) != 2 || sim.Webhooks(catalogue.Fortiva) != 0 {
		t.Fatalf("webhook-never delivered: %+v", rc.events)
	}
}

package httplender_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/metrics"
)

// TestSlowLenderTimesOut: an attempt ends at its time-out, and a call at
// its context's deadline however many attempts it still had. The lender
// holds every answer 5 s, so the bounds below tell a time-out from a wait
// while leaving room for a busy machine.
func TestSlowLenderTimesOut(t *testing.T) {
	ctx := context.Background()
	slow := lendersim.Fault{Kind: lendersim.FaultSlow, Delay: 5 * time.Second}
	// The answer never comes in time, so the case need not exist.
	status := &chairside.StatusRequest{LenderKey: catalogue.Synchrony, LenderRef: "SYN-never-made"}

	r := newRig(t, catalogue.Synchrony, func(c *httplender.Config) { c.Timeout, c.MaxAttempts = 150*time.Millisecond, 1 })
	r.fault(t, slow)
	start := time.Now()
	_, err := r.l.Status(ctx, status)
	lenderErr(t, err, lender.KindTimeout)
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the time-out took %s", took)
	}

	// Three attempts of 1 s each would take over 3 s; the context allows 250 ms.
	r3 := newRig(t, catalogue.Synchrony, func(c *httplender.Config) { c.Timeout, c.MaxAttempts = time.Second, 3 })
	r3.fault(t, slow)
	cctx, cancel := context.WithTimeout(ctx, 250*time.Millisecond)
	defer cancel()
	start = time.Now()
	_, err = r3.l.Status(cctx, status)
	lenderErr(t, err, lender.KindTimeout)
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("the call outlived its context: %s", took)
	}
}

// TestReadRetriedAfter5xx: a 503 on Status and on Plans is tried again
// and the second attempt's answer returned.
func TestReadRetriedAfter5xx(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, nil)
	ctx := context.Background()
	d, err := r.l.Decide(ctx, decideReq(r.key, "ref-5xx", "Approve"))
	if err != nil {
		t.Fatal(err)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpStatus, Count: 1})
	st, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef})
	if err != nil || st.ResponseCode != chairside.ResponseApproved {
		t.Fatalf("status after one 503: %+v %v", st, err)
	}
	if n := r.sim.Hits(r.key, lender.OpStatus); n != 2 {
		t.Fatalf("status reached the lender %d times, want 2", n)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpPlans, Count: 1})
	plans, err := r.l.Plans(ctx, &chairside.PlansRequest{LenderKey: r.key, LenderRef: d.LenderRef, AmountCents: 300_000})
	if err != nil || len(plans) == 0 {
		t.Fatalf("plans after one 503: %v %v", plans, err)
	}
	if n := r.sim.Hits(r.key, lender.OpPlans); n != 2 {
		t.Fatalf("plans reached the lender %d times, want 2", n)
	}
}

// TestRetryAfter: a 503's Retry-After is waited out when the context
// leaves time for it, and ends the call at once when it does not.
func TestRetryAfter(t *testing.T) {
	r := newRigWith(t, catalogue.Synchrony, lendersim.Options{RetryAfter: time.Second}, nil)
	ctx := context.Background()
	d, err := r.l.Decide(ctx, decideReq(r.key, "ref-retry-after", "Approve"))
	if err != nil {
		t.Fatal(err)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpStatus, Count: 1})
	// The context leaves 800 ms, less than the 1 s asked for: the call ends
	// with the 503 while its context is still live, instead of sleeping
	// into the deadline.
	short, cancel := context.WithTimeout(ctx, 800*time.Millisecond)
	defer cancel()
	_, err = r.l.Status(short, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef})
	lenderErr(t, err, lender.KindUnavailable)
	if short.Err() != nil {
		t.Fatal("waited for a Retry-After beyond the deadline")
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpStatus, Count: 1})
	start := time.Now()
	if _, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef}); err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took < time.Second {
		t.Fatalf("Retry-After: 1 waited only %s", took)
	}
}

// TestPostWithoutReferenceNotRetried: a POST without a Reference carries
// no idempotency key and is sent once; with one, it is repeated.
func TestPostWithoutReferenceNotRetried(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, nil)
	ctx := context.Background()
	d, err := r.l.Decide(ctx, decideReq(r.key, "ref-post", "Approve"))
	if err != nil {
		t.Fatal(err)
	}
	plans, err := r.l.Plans(ctx, &chairside.PlansRequest{LenderKey: r.key, LenderRef: d.LenderRef, AmountCents: 300_000})
	if err != nil {
		t.Fatal(err)
	}
	offer := &chairside.OfferRequest{LenderKey: r.key, LenderRef: d.LenderRef, LenderPlanCode: plans[0].LenderPlanCode, AmountCents: 300_000}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpAcceptOffer, Count: 1})
	le := lenderErr(t, r.l.AcceptOffer(ctx, offer), lender.KindUnavailable)
	if le.Status != http.StatusServiceUnavailable {
		t.Fatalf("status %d", le.Status)
	}
	if n := r.sim.Hits(r.key, lender.OpAcceptOffer); n != 1 {
		t.Fatalf("a POST without an idempotency key reached the lender %d times, want 1", n)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpAcceptOffer, Count: 1})
	offer.Reference = "ref-accept"
	if err := r.l.AcceptOffer(ctx, offer); err != nil {
		t.Fatalf("accept with a reference after one 503: %v", err)
	}
	if n := r.sim.Hits(r.key, lender.OpAcceptOffer); n != 3 {
		t.Fatalf("accept reached the lender %d times in all, want 3", n)
	}
}

// TestGarbageIsMalformed: a 200 that is not the protocol's is a malformed
// answer and is not repeated; so is a decision with an unknown status.
func TestGarbageIsMalformed(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, nil)
	ctx := context.Background()
	d, err := r.l.Decide(ctx, decideReq(r.key, "ref-garbage", "Approve"))
	if err != nil {
		t.Fatal(err)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.FaultGarbage, Count: 1})
	_, err = r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef})
	if le := lenderErr(t, err, lender.KindMalformed); le.Status != http.StatusOK {
		t.Fatalf("status %d", le.Status)
	}
	if chairside.ErrorCode(err) != chairside.ELENDER {
		t.Fatalf("public code %s", chairside.ErrorCode(err))
	}
	if n := r.sim.Hits(r.key, lender.OpStatus); n != 1 {
		t.Fatalf("a malformed answer was asked again: %d hits", n)
	}
}

// TestBreakerOpensAndCloses: consecutive 503s open the breaker, after
// which calls fail at once without reaching the lender; after OpenFor a
// trial call goes through and, answered, closes it. 4xx answers never
// open it.
func TestBreakerOpensAndCloses(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, func(c *httplender.Config) {
		c.MaxAttempts = 1
		c.Breaker = httplender.BreakerConfig{ConsecutiveFailures: 3, OpenFor: 300 * time.Millisecond}
	})
	ctx := context.Background()
	d, err := r.l.Decide(ctx, decideReq(r.key, "ref-breaker", "Approve"))
	if err != nil {
		t.Fatal(err)
	}
	for range 5 {
		_, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: "SBX-SYN-NOPE"})
		lenderErr(t, err, lender.KindNotFound)
	}
	if s := r.l.BreakerState(); s != "closed" {
		t.Fatalf("404s moved the breaker to %s", s)
	}
	r.fault(t, lendersim.Fault{Kind: lendersim.Fault5xx, Op: lender.OpStatus})
	for range 3 {
		_, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef})
		lenderErr(t, err, lender.KindUnavailable)
	}
	hits := r.sim.Hits(r.key, lender.OpStatus)
	for range 3 {
		_, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef})
		lenderErr(t, err, lender.KindBreakerOpen)
	}
	if n := r.sim.Hits(r.key, lender.OpStatus); n != hits {
		t.Fatalf("calls reached the lender through an open breaker: %d hits, want %d", n, hits)
	}
	if g := r.breakerGauge(t); g != metrics.BreakerOpen {
		t.Fatalf("gauge %v, want open", g)
	}
	r.fault(t, lendersim.Fault{})
	time.Sleep(350 * time.Millisecond)
	if st, err := r.l.Status(ctx, &chairside.StatusRequest{LenderKey: r.key, LenderRef: d.LenderRef}); err != nil || st.ResponseCode != chairside.ResponseApproved {
		t.Fatalf("trial call: %+v %v", st, err)
	}
	if s, g := r.l.BreakerState(), r.breakerGauge(t); s != "closed" || g != metrics.BreakerClosed {
		t.Fatalf("after a good trial call: %s, gauge %v", s, g)
	}
}

// TestWrongAPIKey: the lender answers 401; the call is refused, not
// repeated, and the breaker does not count it.
func TestWrongAPIKey(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, func(c *httplender.Config) { c.APIKey = "wrong" })
	for range 6 {
		_, err := r.l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: r.key, Kind: "disclosures"})
		if le := lenderErr(t, err, lender.KindRejected); le.Status != http.StatusUnauthorized {
			t.Fatalf("status %d", le.Status)
		}
	}
	if n := r.sim.Hits(r.key, lender.OpDocument); n != 6 {
		t.Fatalf("%d hits, want 6 (one per call)", n)
	}
	if s := r.l.BreakerState(); s != "closed" {
		t.Fatalf("401s moved the breaker to %s", s)
	}
}

// TestFieldErrors: a 422 becomes EINVALID with the lender's field errors,
// still a *lender.Error of kind rejected, and is not repeated.
func TestFieldErrors(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, nil)
	req := decideReq(r.key, "ref-fields", "Approve")
	req.Primary.FirstName = ""
	req.Primary.SSN = "12345"
	_, err := r.l.Decide(context.Background(), req)
	le := lenderErr(t, err, lender.KindRejected)
	if le.Status != http.StatusUnprocessableEntity || chairside.ErrorCode(err) != chairside.EINVALID {
		t.Fatalf("got %d %s", le.Status, chairside.ErrorCode(err))
	}
	fields := map[string]bool{}
	for _, f := range chairside.FieldErrorsOf(err) {
		fields[f.Field] = true
	}
	if !fields["primary.firstName"] || !fields["primary.ssn"] || len(fields) != 2 {
		t.Fatalf("field errors %+v", chairside.FieldErrorsOf(err))
	}
	if n := r.sim.Hits(r.key, lender.OpDecide); n != 1 || r.sim.Creates(r.key, "ref-fields") != 0 {
		t.Fatalf("a 422 was repeated (%d hits) or created something", n)
	}
}

// TestNoRedirects: the adapter's own client does not follow a redirect
// (it would take the API key elsewhere); the answer is malformed.
func TestNoRedirects(t *testing.T) {
	r := newRig(t, catalogue.Synchrony, nil)
	redirect := http.NewServeMux()
	redirect.HandleFunc("/", func(w http.ResponseWriter, req *http.Request) {
		http.Redirect(w, req, r.srv.URL+"/lenders/"+r.key+req.URL.Path, http.StatusTemporaryRedirect)
	})
	other := newRedirectServer(t, redirect)
	l, err := httplender.New(httplender.Config{LenderKey: r.key, BaseURL: other, APIKey: testAPIKey})
	if err != nil {
		t.Fatal(err)
	}
	_, err = l.Document(context.Background(), &chairside.DocumentRequest{LenderKey: r.key, Kind: "disclosures"})
	lenderErr(t, err, lender.KindMalformed)
	if n := r.sim.Hits(r.key, lender.OpDocument); n != 0 {
		t.Fatalf("the redirect was followed: %d hits", n)
	}
}

// TestNewRefusesBadConfig: an unknown or modified key, a relative URL.
func TestNewRefusesBadConfig(t *testing.T) {
	for _, c := range []httplender.Config{
		{LenderKey: "nope", BaseURL: "http://127.0.0.1:1/x"},
		{LenderKey: "hfd_standard:role=highline_secondary", BaseURL: "http://127.0.0.1:1/x"},
		{LenderKey: catalogue.HFD, BaseURL: "/lenders/hfd_standard"},
		{LenderKey: catalogue.HFD, BaseURL: "ftp://127.0.0.1/x"},
	} {
		if _, err := httplender.New(c); err == nil {
			t.Errorf("New(%+v) accepted", c)
		}
	}
}

// TestMalformedAnswers: a lender on a real socket answering 200s that are
// not usable — a negative amount, a status the protocol lacks, another
// currency, another platform reference, a document whose hash is not its
// content's, an answer over the size limit — gets KindMalformed, each
// counted by the breaker.
func TestMalformedAnswers(t *testing.T) {
	answers := map[string]string{
		"/lenders/x/applications/negative":       `{"applicationId":"A","platformReference":"","status":"approved","approvedAmountCents":-100,"currency":"USD"}`,
		"/lenders/x/applications/unknown-status": `{"applicationId":"A","status":"maybe","currency":"USD"}`,
		"/lenders/x/applications/euros":          `{"applicationId":"A","status":"approved","approvedAmountCents":100,"currency":"EUR"}`,
		"/lenders/x/applications/trailing":       `{"applicationId":"A","status":"declined"} {}`,
		"/lenders/x/documents/terms":             `{"id":"x/terms","version":"1","content":"hello","sha256":"00"}`,
		"/lenders/x/applications":                `{"applicationId":"A","platformReference":"someone-else","status":"approved","approvedAmountCents":1,"currency":"USD"}`,
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/lenders/x/applications/huge" {
			w.Write([]byte(`{"applicationId":"` + strings.Repeat("A", 1<<20) + `","status":"declined"}`))
			return
		}
		w.Write([]byte(answers[req.URL.Path]))
	})
	base := newRedirectServer(t, mux) + "/lenders/x"
	l, err := httplender.New(httplender.Config{LenderKey: catalogue.Snap, BaseURL: base,
		Breaker: httplender.BreakerConfig{ConsecutiveFailures: 7}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for _, id := range []string{"negative", "unknown-status", "euros", "trailing", "huge"} {
		_, err := l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.Snap, LenderRef: id})
		lenderErr(t, err, lender.KindMalformed)
	}
	_, err = l.Document(ctx, &chairside.DocumentRequest{LenderKey: catalogue.Snap, Kind: "terms"})
	lenderErr(t, err, lender.KindMalformed)
	_, err = l.Decide(ctx, decideReq(catalogue.Snap, "mine", "Approve"))
	lenderErr(t, err, lender.KindMalformed)
	if s := l.BreakerState(); s != "open" {
		t.Fatalf("seven malformed answers in a row left the breaker %s", s)
	}
}

// TestRateLimited: a 429 is tried again after its Retry-After; a
// Retry-After far beyond reason ends the call at once.
func TestRateLimited(t *testing.T) {
	var mu sync.Mutex
	calls := 0
	mux := http.NewServeMux()
	mux.HandleFunc("/lenders/x/applications/", func(w http.ResponseWriter, req *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		switch {
		case strings.HasSuffix(req.URL.Path, "/patient"):
			if n == 1 {
				w.Header().Set("Retry-After", "0")
				w.WriteHeader(http.StatusTooManyRequests)
				return
			}
			w.Write([]byte(`{"applicationId":"patient","status":"declined"}`))
		default:
			w.Header().Set("Retry-After", "3600")
			w.WriteHeader(http.StatusTooManyRequests)
			w.Write([]byte(`{"error":{"code":"rate_limited","message":"Slow down.","correlationId":"c-429"}}`))
		}
	})
	base := newRedirectServer(t, mux) + "/lenders/x"
	l, err := httplender.New(httplender.Config{LenderKey: catalogue.Snap, BaseURL: base})
	if err != nil {
		t.Fatal(err)
	}
	d, err := l.Status(context.Background(), &chairside.StatusRequest{LenderKey: catalogue.Snap, LenderRef: "patient"})
	if err != nil || d.ResponseCode != chairside.ResponseDeclined || calls != 2 {
		t.Fatalf("after one 429: %+v %v (%d calls)", d, err, calls)
	}
	start := time.Now()
	_, err = l.Status(context.Background(), &chairside.StatusRequest{LenderKey: catalogue.Snap, LenderRef: "impatient"})
	le := lenderErr(t, err, lender.KindRejected)
	if le.Status != http.StatusTooManyRequests || le.CorrelationID != "c-429" || time.Since(start) > time.Second || calls != 3 {
		t.Fatalf("an hour's Retry-After: %v %q after %s, %d calls", err, le.CorrelationID, time.Since(start), calls)
	}
}

package lendersim_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/lender/protocol"
	"github.com/chairside/chairside/lender/sandbox"
)

const apiKey = "sim-key"

// start serves a simulator of opts (with apiKey) on a real socket.
func start(t *testing.T, opts lendersim.Options) (*lendersim.Sim, *httptest.Server) {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = apiKey
	}
	sim := lendersim.New(opts)
	srv := httptest.NewServer(sim)
	t.Cleanup(func() { srv.Close(); sim.Close() })
	return sim, srv
}

// answer is one HTTP answer, read in full.
type answer struct {
	status int
	header http.Header
	body   []byte
}

func (a answer) decode(t *testing.T, v any) {
	t.Helper()
	if err := json.Unmarshal(a.body, v); err != nil {
		t.Fatalf("answer %d: %v: %s", a.status, err, a.body)
	}
}

// errorCode is the code of an error answer.
func (a answer) errorCode(t *testing.T) string {
	t.Helper()
	var eb protocol.ErrorBody
	a.decode(t, &eb)
	return eb.Error.Code
}

// send makes one request with the protocol's headers; key is the
// Idempotency-Key ("" for none).
func send(t *testing.T, srv *httptest.Server, method, path, key string, body any) answer {
	t.Helper()
	var rd io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set(protocol.HeaderCorrelationID, "cid-test")
	if key != "" {
		req.Header.Set(protocol.HeaderIdempotencyKey, key)
	}
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return answer{status: res.StatusCode, header: res.Header, body: raw}
}

func create(ref, last string) *protocol.CreateApplication {
	income := int64(9_000_000)
	return &protocol.CreateApplication{
		PlatformReference: ref, Operation: protocol.OperationApply, Role: "primary", LocationState: "NV",
		PurchaseAmountCents: 300_000, Currency: protocol.Currency,
		Primary: protocol.Applicant{FirstName: "Ada", LastName: last, DateOfBirth: "1980-04-02", SSN: "123456789",
			AddressLine1: "1 Main St", AddressCity: "Reno", AddressState: "NV", AddressZipCode: "89501", AnnualGrossIncome: &income},
	}
}

func lenderPath(key, rest string) string { return "/lenders/" + key + rest }

// TestIdempotency: the same key and body answer the first answer again
// (marked as replayed) without running the create; the same key on
// another body is refused; a create runs once for twenty concurrent
// copies.
func TestIdempotency(t *testing.T) {
	sim, srv := start(t, lendersim.Options{})
	key := catalogue.Synchrony
	path := lenderPath(key, "/applications")
	first := send(t, srv, "POST", path, "ref-1", create("ref-1", "Approve"))
	again := send(t, srv, "POST", path, "ref-1", create("ref-1", "Approve"))
	if first.status != 200 || again.status != 200 || !bytes.Equal(first.body, again.body) || again.header.Get(protocol.HeaderReplayed) != "true" {
		t.Fatalf("replay: %d %s / %d %s %v", first.status, first.body, again.status, again.body, again.header)
	}
	if n := sim.Creates(key, "ref-1"); n != 1 {
		t.Fatalf("creates %d", n)
	}
	other := send(t, srv, "POST", path, "ref-1", create("ref-1", "Decline"))
	if other.status != http.StatusUnprocessableEntity || other.errorCode(t) != protocol.CodeIdempotencyMismatch {
		t.Fatalf("same key, other body: %d %s", other.status, other.body)
	}
	dup := send(t, srv, "POST", path, "another-key", create("ref-1", "Approve"))
	if dup.status != http.StatusConflict || dup.errorCode(t) != protocol.CodeDuplicateReference {
		t.Fatalf("same reference, other key: %d %s", dup.status, dup.body)
	}

	var wg sync.WaitGroup
	bodies := make([][]byte, 20)
	for i := range bodies {
		wg.Go(func() { bodies[i] = send(t, srv, "POST", path, "ref-2", create("ref-2", "Pending")).body })
	}
	wg.Wait()
	for i := range bodies {
		if !bytes.Equal(bodies[i], bodies[0]) {
			t.Fatalf("answer %d differs:\n%s\n%s", i, bodies[i], bodies[0])
		}
	}
	if n := sim.Creates(key, "ref-2"); n != 1 {
		t.Fatalf("twenty concurrent copies ran the create %d times", n)
	}
}

// TestAuthAndErrors: a wrong key is 401; every error body carries the
// code and the caller's correlation id, which the header echoes too.
func TestAuthAndErrors(t *testing.T) {
	sim, srv := start(t, lendersim.Options{})
	req, _ := http.NewRequest("GET", srv.URL+lenderPath(catalogue.HFD, "/documents/terms"), nil)
	req.Header.Set("Authorization", "Bearer wrong")
	req.Header.Set(protocol.HeaderCorrelationID, "cid-401")
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := io.ReadAll(res.Body)
	res.Body.Close()
	var eb protocol.ErrorBody
	if err := json.Unmarshal(raw, &eb); err != nil || res.StatusCode != 401 || eb.Error.Code != protocol.CodeUnauthorized ||
		eb.Error.CorrelationID != "cid-401" || res.Header.Get(protocol.HeaderCorrelationID) != "cid-401" {
		t.Fatalf("wrong key: %d %s %v", res.StatusCode, raw, res.Header)
	}
	if n := sim.Hits(catalogue.HFD, lender.OpDocument); n != 1 {
		t.Fatalf("hits %d", n)
	}
	for path, want := range map[string]int{
		lenderPath(catalogue.HFD, "/documents/terms"):                    200,
		lenderPath(catalogue.HFD, "/documents/nope"):                     404,
		lenderPath("nope_standard", "/documents/terms"):                  404,
		lenderPath(catalogue.HFD, "/applications/SBX-HFD-NOPE"):          404,
		lenderPath(catalogue.HFD, "/applications?platformReference=zzz"): 404,
		lenderPath(catalogue.HFD, "/applications"):                       400,
	} {
		a := send(t, srv, "GET", path, "", nil)
		if a.status != want || a.header.Get(protocol.HeaderCorrelationID) != "cid-test" {
			t.Errorf("GET %s: %d %s, want %d", path, a.status, a.body, want)
		}
		if want != 200 {
			var eb protocol.ErrorBody
			a.decode(t, &eb)
			if eb.Error.Code == "" || eb.Error.Message == "" || eb.Error.CorrelationID != "cid-test" {
				t.Errorf("GET %s: error body %s", path, a.body)
			}
		}
	}
	bad := create("ref-bad", "")
	bad.Currency = "EUR"
	a := send(t, srv, "POST", lenderPath(catalogue.HFD, "/applications"), "ref-bad", bad)
	eb = protocol.ErrorBody{}
	a.decode(t, &eb)
	if a.status != 422 || eb.Error.Code != protocol.CodeValidation || len(eb.Error.Fields) != 2 {
		t.Fatalf("field errors: %d %s", a.status, a.body)
	}
}

// TestLookupAndDrop: a dropped create has run; its application is found
// by platform reference, and sending it again replays the answer.
func TestLookupAndDrop(t *testing.T) {
	sim, srv := start(t, lendersim.Options{})
	key := catalogue.Vive
	if err := sim.SetFault(key, lendersim.Fault{Kind: lendersim.FaultDrop, Op: lender.OpDecide, Count: 1}); err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(create("ref-drop", "Approve"))
	req, _ := http.NewRequest("POST", srv.URL+lenderPath(key, "/applications"), bytes.NewReader(raw))
	req.Header.Set("Authorization", "Bearer "+apiKey)
	req.Header.Set(protocol.HeaderIdempotencyKey, "ref-drop")
	req.GetBody = nil // no replay by net/http
	if res, err := srv.Client().Do(req); err == nil {
		res.Body.Close()
		t.Fatalf("a dropped answer arrived: %d", res.StatusCode)
	}
	found := send(t, srv, "GET", lenderPath(key, "/applications?platformReference=ref-drop"), "", nil)
	var d protocol.Decision
	found.decode(t, &d)
	if found.status != 200 || d.PlatformReference != "ref-drop" || d.Status != protocol.StatusApproved {
		t.Fatalf("lookup: %d %s", found.status, found.body)
	}
	again := send(t, srv, "POST", lenderPath(key, "/applications"), "ref-drop", create("ref-drop", "Approve"))
	var d2 protocol.Decision
	again.decode(t, &d2)
	if d2.ApplicationID != d.ApplicationID || sim.Creates(key, "ref-drop") != 1 {
		t.Fatalf("resend: %s, creates %d", again.body, sim.Creates(key, "ref-drop"))
	}
}

// TestFaultsOverHTTP: faults set through POST /_sim/faults act on the
// next matching requests only, and are listed until spent.
func TestFaultsOverHTTP(t *testing.T) {
	sim, srv := start(t, lendersim.Options{})
	key := catalogue.ADS
	set := send(t, srv, "POST", "/_sim/faults", "", map[string]any{"lender": key, "kind": "5xx", "op": "document", "count": 2})
	if set.status != 200 || !strings.Contains(string(set.body), `"kind":"5xx"`) {
		t.Fatalf("set: %d %s", set.status, set.body)
	}
	want := []int{503, 503, 200}
	for i, w := range want {
		if a := send(t, srv, "GET", lenderPath(key, "/documents/terms"), "", nil); a.status != w {
			t.Fatalf("request %d: %d, want %d", i, a.status, w)
		}
	}
	if a := send(t, srv, "GET", "/_sim/faults", "", nil); a.status != 200 || strings.Contains(string(a.body), key) {
		t.Fatalf("a spent fault is still listed: %s", a.body)
	}
	send(t, srv, "POST", "/_sim/faults", "", map[string]any{"lender": key, "kind": "garbage"})
	if a := send(t, srv, "GET", lenderPath(key, "/documents/terms"), "", nil); a.status != 200 || json.Valid(a.body) {
		t.Fatalf("garbage: %d %s", a.status, a.body)
	}
	send(t, srv, "POST", "/_sim/faults", "", map[string]any{"lender": key, "kind": "slow", "delay": "150ms"})
	start := time.Now()
	if a := send(t, srv, "GET", lenderPath(key, "/documents/terms"), "", nil); a.status != 200 || time.Since(start) < 150*time.Millisecond {
		t.Fatalf("slow: %d after %s", a.status, time.Since(start))
	}
	send(t, srv, "POST", "/_sim/faults", "", map[string]any{"lender": key, "kind": "none"})
	for _, bad := range []map[string]any{{"lender": "nope", "kind": "5xx"}, {"lender": key, "kind": "explode"}, {"lender": key, "kind": "slow"}} {
		if a := send(t, srv, "POST", "/_sim/faults", "", bad); a.status != 422 {
			t.Errorf("fault %v: %d", bad, a.status)
		}
	}
	if n := sim.Hits(key, lender.OpDocument); n != 5 {
		t.Fatalf("hits %d, want 5", n)
	}
}

// TestParseFault reads the -fault flag's forms.
func TestParseFault(t *testing.T) {
	for spec, want := range map[string]lendersim.Fault{
		"snap_standard=slow:30s":                                        {Kind: lendersim.FaultSlow, Delay: 30 * time.Second},
		"ads_standard=5xx":                                              {Kind: lendersim.Fault5xx},
		"vive_standard=drop,op=decide,count=1":                          {Kind: lendersim.FaultDrop, Op: "decide", Count: 1},
		"genesis_aspen=webhook-twice":                                   {Kind: lendersim.FaultWebhookTwice},
		"synchrony_standard=webhook-reorder,op=funding.updated,count=1": {Kind: lendersim.FaultWebhookReorder, Op: protocol.EventFundingUpdated, Count: 1},
		"ads_standard=webhook-late:2s,op=deposit.sent":                  {Kind: lendersim.FaultWebhookLate, Delay: 2 * time.Second, Op: protocol.EventDepositSent},
	} {
		key, f, err := lendersim.ParseFault(spec)
		if err != nil || f != want || key != strings.Split(spec, "=")[0] {
			t.Errorf("%s: %q %+v %v", spec, key, f, err)
		}
	}
	for _, bad := range []string{"snap_standard", "=5xx", "snap_standard=slow:soon", "x=drop,count=many", "x=drop,when=now",
		"x=explode", "x=slow", "x=webhook-late", "x=webhook-twice,op=decide", "x=drop,count=-1"} {
		if _, _, err := lendersim.ParseFault(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}

// TestCreditLimit: the simulator decides a change with the sandbox's rule
// (sandbox.CreditLimitRule): approved under a new application id that
// carries the new limit, declined above the product's maximum or below four
// times the income, and 503 for the income that stands for a lender out
// of reach.
func TestCreditLimit(t *testing.T) {
	_, srv := start(t, lendersim.Options{})
	key := catalogue.Synchrony
	var d protocol.Decision
	send(t, srv, "POST", lenderPath(key, "/applications"), "ref-cl", create("ref-cl", "Approve")).decode(t, &d)
	path := lenderPath(key, protocol.ApplicationPath(d.ApplicationID, protocol.SubCreditLimit))
	current := d.ApprovedAmountCents
	change := func(ref string, limit, income int64) (answer, protocol.CreditLimitAnswer) {
		a := send(t, srv, "POST", path, ref, protocol.CreditLimitChange{PlatformReference: ref, RequestedLimitCents: limit,
			AnnualGrossIncomeCents: income, Currency: protocol.Currency})
		var ans protocol.CreditLimitAnswer
		if a.status == 200 {
			a.decode(t, &ans)
		}
		return a, ans
	}
	for i, tt := range []struct {
		limit, income int64
		status        string
		after         int64
	}{
		{current + 100_000, 4 * (current + 100_000), protocol.CreditLimitApproved, current + 100_000},
		{2_500_100, 900_000_000, protocol.CreditLimitDeclined, current},
		{current + 200_000, 4*(current+200_000) - 1, protocol.CreditLimitDeclined, current},
	} {
		a, ans := change("ref-cl-"+string(rune('a'+i)), tt.limit, tt.income)
		if a.status != 200 || ans.Status != tt.status || ans.CreditLimitCents != tt.after || ans.Validate() != nil {
			t.Fatalf("change %d: %d %s", i, a.status, a.body)
		}
		if (ans.ApplicationID != d.ApplicationID) != (tt.status == protocol.CreditLimitApproved) {
			t.Errorf("change %d: application id %s (was %s)", i, ans.ApplicationID, d.ApplicationID)
		}
		if tt.status == protocol.CreditLimitApproved {
			var after protocol.Decision
			send(t, srv, "GET", lenderPath(key, protocol.ApplicationPath(ans.ApplicationID, "")), "", nil).decode(t, &after)
			if after.ApprovedAmountCents != tt.after || after.Validate() != nil {
				t.Errorf("after the change: %+v", after)
			}
		}
	}
	if a, _ := change("ref-cl-err", current+100_000, sandbox.CreditLimitErrorIncomeCents); a.status != 503 {
		t.Fatalf("the error income: %d %s", a.status, a.body)
	}
	if a := send(t, srv, "POST", path, "ref-cl-bad", protocol.CreditLimitChange{PlatformReference: "x", RequestedLimitCents: -1, Currency: protocol.Currency}); a.status != 422 {
		t.Fatalf("negative limit: %d", a.status)
	}
}

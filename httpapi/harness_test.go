package httpapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/api"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/httpapi"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/metrics"
	"github.com/chairside/chairside/office"
	"github.com/chairside/chairside/store"
	"github.com/chairside/chairside/store/storetest"
	"github.com/chairside/chairside/testkit"
)

// EntityKey is the seeded test office's entity key.
const EntityKey = testkit.EntityKey

// config changes one harness from the defaults.
type config struct {
	env         string
	dailySSNCap int
	rate        float64
	burst       int
	hsts        bool
	// proxies are the trusted proxies (httpapi.ParseProxies).
	proxies string
	// wrap, when set, stands between the flow service and the store: it
	// wraps the store and each batch of it (wrapped).
	wrap func(flow.Store) flow.Store
	// ready replaces the database's readiness check (/readyz).
	ready func(context.Context) error
	// publicURL is the address patients and staff are told to use.
	publicURL string
	// twilioToken, when set, is the Twilio auth token whose signature
	// the texts' webhooks take.
	twilioToken string
	// backup answers the server's backup status (httpapi.Options.Backup).
	backup func() *chairside.BackupStatus
}

// harness is one real server: real store, real sandbox lenders, real flow
// service and HTTP layer, a fake clock and captured logs.
type harness struct {
	t   testing.TB
	srv *httptest.Server
	db  *store.DB
	// view is the store as the flow service sees it (config.wrap).
	view  flow.Store
	eng   storetest.Engine
	clock *clock
	logs  *testkit.LockedBuffer
	api   *contract
	// office is the office side's service, for adding staff.
	office *office.Service
	// decides counts the decision calls that reached a sandbox lender,
	// statuses its status reads.
	decides, statuses atomic.Int64
	// metrics are the server's metrics, served at /metrics.
	metrics *metrics.Metrics
	// handler is the server's handler, for a test that must see what it
	// writes before the network copies it.
	handler http.Handler
	// svc is the flow service, for the background loops' rounds
	// (ReconcileFunding) a test runs itself.
	svc *flow.Service
}

// webhookSecret signs the test lenders' webhooks: every known lender
// sends them in the harness.
var webhookSecret = []byte("harness-webhook-secret")

// harnessStart is where a harness's clock starts: today at noon UTC, the
// middle of the day in every office's time zone, so that a test advancing
// the clock by minutes or hours never crosses into the next day, whatever
// the hour the tests run at (a list of today's applications would
// otherwise come back empty from a run started just before midnight).
func harnessStart() time.Time {
	return time.Now().UTC().Truncate(24 * time.Hour).Add(12 * time.Hour)
}

// clock is a settable clock.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Advance(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

// eachEngine runs fn against SQLite and PostgreSQL.
func eachEngine(t *testing.T, cfg config, fn func(t *testing.T, h *harness)) {
	storetest.EachEngine(t, func(t *testing.T, e storetest.Engine) {
		fn(t, newHarness(t, e, cfg))
	})
}

// sqliteOnly runs fn against SQLite alone, for tests of the HTTP layer that
// do not depend on the engine.
func sqliteOnly(t *testing.T, cfg config, fn func(t *testing.T, h *harness)) {
	fn(t, newHarness(t, storetest.SQLite(t), cfg))
}

func newHarness(t testing.TB, e storetest.Engine, cfg config) *harness {
	t.Helper()
	h := &harness{
		t:     t,
		eng:   e,
		clock: &clock{t: harnessStart()},
		logs:  &testkit.LockedBuffer{},
		api:   loadContract(t),
	}
	h.db, h.view = e.DB, e.DB
	if cfg.wrap != nil {
		h.view = cfg.wrap(e.DB)
	}
	testkit.SeedOffice(t, e.DB)
	if cfg.env == "" {
		cfg.env = chairside.EnvTest
	}
	if cfg.ready == nil {
		cfg.ready = e.DB.Ready
	}
	if cfg.rate == 0 {
		cfg.rate = -1 // off, unless a test is about it
	}
	logger := httpapi.NewLogger(h.logs, slog.LevelDebug)
	lenders := sandbox.New(sandbox.Options{Observe: func(c sandbox.Call) {
		switch c.Op {
		case sandbox.OpDecide:
			h.decides.Add(1)
		case sandbox.OpStatus:
			h.statuses.Add(1)
		}
	}})
	opts := flow.Options{
		Env:           cfg.env,
		Now:           h.clock.Now,
		LenderTimeout: 5 * time.Second,
		Logger:        logger,
		DailySSNCap:   cfg.dailySSNCap,
		TestCases:     testCases(),
		DemoEntityKey: EntityKey,
	}
	svc := flow.New(e.DB, lenders, e.Keys, opts)
	if cfg.wrap != nil {
		svc = flow.New[flow.Store](wrapped{Store: h.view, db: e.DB, wrap: cfg.wrap}, lenders, e.Keys, opts)
	}
	h.svc = svc
	h.office = office.New(e.DB, logger)
	h.office.Now = h.clock.Now
	h.metrics = metrics.New()
	h.handler = httpapi.New(svc, httpapi.Options{
		Metrics: h.metrics,
		Ready:   cfg.ready,
		WebhookSecrets: func(key string) ([][]byte, bool) {
			return [][]byte{webhookSecret}, true
		},
		Env:            cfg.env,
		Logger:         logger,
		OpenAPI:        api.Spec,
		RatePerSecond:  cfg.rate,
		RateBurst:      cfg.burst,
		HSTS:           cfg.hsts,
		TrustedProxies: mustProxies(t, cfg.proxies),
		Office:         h.office,
		PublicURL:      cfg.publicURL,
		TwilioTokens:   tokens(cfg.twilioToken),
		Backup:         cfg.backup,
	})
	h.srv = httptest.NewServer(h.handler)
	t.Cleanup(h.srv.Close)
	// After every test's journeys: no lender application's status lacks
	// its evidence (registered after the server's close, so it runs first).
	testkit.AuditAfter(t, e.DB)
	return h
}

// tokens is the one token, or none.
func tokens(t string) []string {
	if t == "" {
		return nil
	}
	return []string{t}
}

// testCases lists the sandbox's test cases.
func testCases() []flow.TestCaseInfo {
	var out []flow.TestCaseInfo
	for _, tc := range sandbox.TestCases() {
		out = append(out, flow.TestCaseInfo{ID: tc.ID, Name: tc.Name, Description: tc.Description})
	}
	return out
}

// contract validates real answers against api/openapi.yaml.
type contract struct {
	router routers.Router
}

var (
	contractOnce sync.Once
	contractDoc  *openapi3.T
	contractErr  error
)

func loadContract(t testing.TB) *contract {
	t.Helper()
	contractOnce.Do(func() {
		// The printable sheets answer PDF bytes, which the validator reads
		// as it reads any file.
		openapi3filter.RegisterBodyDecoder("application/pdf", openapi3filter.FileBodyDecoder)
		loader := openapi3.NewLoader()
		contractDoc, contractErr = loader.LoadFromData(api.Spec)
		if contractErr == nil {
			contractErr = contractDoc.Validate(loader.Context)
		}
	})
	if contractErr != nil {
		t.Fatalf("api/openapi.yaml: %v", contractErr)
	}
	r, err := gorillamux.NewRouter(contractDoc)
	if err != nil {
		t.Fatal(err)
	}
	return &contract{router: r}
}

// check fails the test when an answer does not match the contract: an
// undocumented path or status, a missing required field, a wrong type.
func (c *contract) check(t testing.TB, req *http.Request, res *result) {
	t.Helper()
	route, params, err := c.router.FindRoute(req)
	if err != nil {
		t.Errorf("contract: %s %s is not in api/openapi.yaml: %v", req.Method, req.URL.Path, err)
		return
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: params,
		Route:      route,
		Options:    &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc},
	}
	err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 res.status,
		Header:                 res.header,
		Body:                   io.NopCloser(bytes.NewReader(res.body)),
		Options:                &openapi3filter.Options{IncludeResponseStatus: true},
	})
	if err != nil {
		t.Errorf("contract: %s %s answered %d not matching api/openapi.yaml: %v\nbody: %.500s", req.Method, route.Path, res.status, err, res.body)
	}
}

// result is one answer.
type result struct {
	status int
	header http.Header
	body   []byte
}

// json decodes the answer into a generic map.
func (r *result) json(t testing.TB) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("answer %d is not a JSON object: %v: %.300s", r.status, err, r.body)
	}
	return m
}

// into decodes the answer into v.
func (r *result) into(t testing.TB, v any) {
	t.Helper()
	if err := json.Unmarshal(r.body, v); err != nil {
		t.Fatalf("decode answer %d: %v: %.300s", r.status, err, r.body)
	}
}

// req describes one call.
type req struct {
	method, path, session string
	body                  any               // string or []byte sent as is; anything else as JSON
	header                map[string]string // "" removes a header (Content-Type)
	noContract            bool
}

// do sends a call under /api/v1, checks the headers every API answer must
// carry, and validates the answer against the contract.
func (h *harness) do(t testing.TB, q req) *result {
	t.Helper()
	var rd io.Reader
	var raw []byte
	switch b := q.body.(type) {
	case nil:
	case string:
		raw = []byte(b)
	case []byte:
		raw = b
	default:
		var err error
		if raw, err = json.Marshal(b); err != nil {
			t.Fatal(err)
		}
	}
	if raw != nil {
		rd = bytes.NewReader(raw)
	}
	path := q.path
	if !strings.HasPrefix(path, "/") || !strings.HasPrefix(path, "/api/") {
		path = "/api/v1" + path
	}
	hr, err := http.NewRequest(q.method, h.srv.URL+path, rd)
	if err != nil {
		t.Fatal(err)
	}
	if raw != nil {
		hr.Header.Set("Content-Type", "application/json")
	}
	if q.session != "" {
		hr.Header.Set("X-Web-Session-Id", q.session)
	}
	for k, v := range q.header {
		if v == "" {
			hr.Header.Del(k) // "" sends the call without that header
		} else {
			hr.Header.Set(k, v)
		}
	}
	resp, err := h.srv.Client().Do(hr)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	res := &result{status: resp.StatusCode, header: resp.Header, body: body}

	// Help answers may be kept by the browser for a minute; nothing else.
	wantCache := "no-store"
	if strings.HasPrefix(path, "/api/v1/help/") && (res.status == 200 || res.status == 304) {
		wantCache = "private, max-age=60"
	}
	if got := resp.Header.Get("Cache-Control"); got != wantCache {
		t.Errorf("%s %s: Cache-Control %q, want %s", q.method, q.path, got, wantCache)
	}
	// A printable sheet may be framed by the app's own documents page.
	frame := "DENY"
	if strings.HasPrefix(path, "/api/v1/documents/pdf/") && res.status == 200 {
		frame = "SAMEORIGIN"
	}
	for hd, want := range map[string]string{
		"X-Content-Type-Options": "nosniff",
		"Referrer-Policy":        "no-referrer",
		"X-Frame-Options":        frame,
		"Permissions-Policy":     httpapi.PermissionsPolicy,
	} {
		if got := resp.Header.Get(hd); got != want {
			t.Errorf("%s %s: %s %q, want %q", q.method, q.path, hd, got, want)
		}
	}
	if resp.Header.Get("X-Request-Id") == "" {
		t.Errorf("%s %s: no X-Request-Id", q.method, q.path)
	}
	if strings.Contains(string(body), "goroutine ") || strings.Contains(string(body), ".go:") {
		t.Errorf("%s %s: answer looks like a stack trace: %.300s", q.method, q.path, body)
	}
	if !q.noContract {
		// The validator reads the request body again: give it a fresh one.
		if raw != nil {
			hr.Body = io.NopCloser(bytes.NewReader(raw))
		}
		h.api.check(t, hr, res)
	}
	return res
}

// want fails unless the answer has the status (and, for errors, the code).
func want(t testing.TB, res *result, status int, code string) map[string]any {
	t.Helper()
	if res.status != status {
		t.Fatalf("status %d, want %d: %.500s", res.status, status, res.body)
	}
	if len(res.body) == 0 {
		return nil
	}
	m := res.json(t)
	if code != "" && m["code"] != code {
		t.Fatalf("code %v, want %s: %.500s", m["code"], code, res.body)
	}
	return m
}

// start starts a flow at the test location and answers the session id.
func (h *harness) start(t testing.TB) string {
	t.Helper()
	var s flow.StartResponse
	res := h.do(t, req{method: "POST", path: "/flow/start/entity-keys/" + EntityKey, body: map[string]any{"purchaseAmountCents": 450000}})
	want(t, res, 200, "")
	res.into(t, &s)
	if s.Session.WebSessionID == "" {
		t.Fatal("no webSessionId")
	}
	return s.Session.WebSessionID
}

// consent fetches a lender's document of a kind and answers the consent
// that names it.
func (h *harness) consent(t testing.TB, sid, lenderKey, kind string) flow.ConsentInput {
	t.Helper()
	var doc chairside.Document
	res := h.do(t, req{method: "GET", path: "/providers/" + lenderKey + "/disclosures?kind=" + kind, session: sid})
	want(t, res, 200, "")
	res.into(t, &doc)
	return flow.ConsentInput{DocumentID: doc.ID, DocumentVersion: doc.Version, DocumentSHA256: doc.SHA256, Agreed: true}
}

// prequalify submits a prequalification for one primary applicant.
func (h *harness) prequalify(t testing.TB, sid, lenderKey string, a chairside.Applicant) *result {
	t.Helper()
	return h.do(t, req{method: "POST", path: "/providers/" + lenderKey + "/prequalify", session: sid, body: flow.SubmitRequest{
		Primary: a, Consent: testkit.Ptr(h.consent(t, sid, lenderKey, flow.DocPrequalification)),
	}})
}

// wrapped is a store whose views, the store itself and each batch of it,
// pass through wrap: how a test stands between the flow and the store.
type wrapped struct {
	flow.Store
	db   *store.DB
	wrap func(flow.Store) flow.Store
}

func (w wrapped) Batch(ctx context.Context, fn func(tx flow.Store) error) error {
	return w.db.Batch(ctx, func(tx *store.DB) error { return fn(w.wrap(tx)) })
}

func mustProxies(t testing.TB, list string) []netip.Prefix {
	t.Helper()
	p, err := httpapi.ParseProxies(list)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

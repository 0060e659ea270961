package httplender_test

import (
	"bytes"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/lendersim"
	"github.com/chairside/chairside/metrics"
)

// rig is a simulator on a real socket and an adapter pointed at it.
type rig struct {
	sim  *lendersim.Sim
	srv  *httptest.Server
	key  string
	l    *httplender.Lender
	m    *metrics.Metrics
	logs *syncBuffer
}

const testAPIKey = "test-key"

// newRig starts a simulator and an adapter for key; cfg, when set, edits
// the adapter's configuration (time-outs small by default, so failures
// end fast).
func newRig(t *testing.T, key string, cfg func(*httplender.Config)) *rig {
	t.Helper()
	return newRigWith(t, key, lendersim.Options{}, cfg)
}

// newRigWith is newRig with a simulator of opts (its API key and
// PendingFor set when not given).
func newRigWith(t *testing.T, key string, opts lendersim.Options, cfg func(*httplender.Config)) *rig {
	t.Helper()
	if opts.APIKey == "" {
		opts.APIKey = testAPIKey
	}
	if opts.PendingFor == 0 {
		opts.PendingFor = 200 * time.Millisecond
	}
	sim := lendersim.New(opts)
	srv := httptest.NewServer(sim)
	t.Cleanup(func() { srv.Close(); sim.Close() })
	r := &rig{sim: sim, srv: srv, key: key, m: metrics.New(), logs: &syncBuffer{}}
	c := httplender.Config{
		LenderKey: key, BaseURL: srv.URL + "/lenders/" + key, APIKey: opts.APIKey,
		Timeout: 2 * time.Second, BackoffBase: 10 * time.Millisecond, Metrics: r.m,
		Logger: slog.New(slog.NewTextHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug, ReplaceAttr: plainLog})),
	}
	if cfg != nil {
		cfg(&c)
	}
	l, err := httplender.New(c)
	if err != nil {
		t.Fatal(err)
	}
	r.l = l
	return r
}

func (r *rig) fault(t *testing.T, f lendersim.Fault) {
	t.Helper()
	if err := r.sim.SetFault(r.key, f); err != nil {
		t.Fatal(err)
	}
}

// breakerGauge reads the breaker state gauge of the rig's lender.
func (r *rig) breakerGauge(t *testing.T) float64 {
	t.Helper()
	mfs, err := r.m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "chairside_lender_breaker_state" {
			continue
		}
		for _, m := range mf.GetMetric() {
			for _, lp := range m.GetLabel() {
				if lp.GetName() == "lender" && lp.GetValue() == r.key {
					return m.GetGauge().GetValue()
				}
			}
		}
	}
	t.Fatal("no breaker gauge")
	return 0
}

func applicant(last string) chairside.Applicant {
	income := int64(9_000_000)
	return chairside.Applicant{
		FirstName: "Ada", LastName: last, DateOfBirth: "1980-04-02", SSN: "123456789",
		AddressLine1: "1 Main St", AddressCity: "Reno", AddressState: "NV", AddressZipCode: "89501",
		Email: "ada@example.com", MobilePhone: "7025550123", AnnualGrossIncome: &income,
	}
}

func decideReq(key, ref, last string) *chairside.DecisionRequest {
	return &chairside.DecisionRequest{
		LenderKey: key, Operation: "apply", Reference: ref, Role: "primary", LocationState: "NV",
		PurchaseAmountCents: 300_000, Primary: applicant(last), Now: time.Now().UTC(),
	}
}

// lenderErr asserts err is a *lender.Error of kind and returns it.
func lenderErr(t *testing.T, err error, kind string) *lender.Error {
	t.Helper()
	var le *lender.Error
	if !errors.As(err, &le) {
		t.Fatalf("got %v (%T), want a *lender.Error of kind %s", err, err, kind)
	}
	if le.Kind != kind {
		t.Fatalf("got kind %s (%v), want %s", le.Kind, err, kind)
	}
	if le.CorrelationID == "" {
		t.Errorf("%v: no correlation id", err)
	}
	return le
}

// syncBuffer is a log sink safe for the adapter's goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// newRedirectServer serves h on a socket of its own and returns its URL.
func newRedirectServer(t *testing.T, h http.Handler) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// plainLog leaves the clock out of log lines and rounds durations, so
// that a test looking for a number in them finds only what was logged.
func plainLog(_ []string, a slog.Attr) slog.Attr {
	switch {
	case a.Key == slog.TimeKey:
		return slog.Attr{}
	case a.Value.Kind() == slog.KindDuration:
		return slog.Duration(a.Key, a.Value.Duration().Round(time.Millisecond))
	}
	return a
}

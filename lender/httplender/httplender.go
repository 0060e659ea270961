// Package httplender is the adapter that speaks our JSON lender protocol
// (package lender/protocol, docs/lender-protocol.md) to one lender over
// HTTP, behind chairside.Lender. It has every optional step too
// (lender.AllSteps): the protocol has an endpoint for each and does not
// say which a lender uses: a lender without one answers it with an error,
// like any refusal.
//
// Each call gets a time-out per attempt; calls that are safe to repeat
// (reads, and submits carrying an idempotency key) are repeated after
// network failures, time-outs, 5xx and 429 with jittered exponential
// backoff; a circuit breaker per lender stops calling a lender that keeps
// failing; a create whose answer was lost is looked up by its platform
// reference before anything is sent again (docs/lender-protocol.md,
// "Failures"). Every failure is a *lender.Error of a kind.
package httplender

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/sony/gobreaker/v2"

	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/metrics"
)

// Defaults of Config.
const (
	DefaultTimeout             = 10 * time.Second
	DefaultMaxAttempts         = 3
	DefaultBackoffBase         = 200 * time.Millisecond
	DefaultConsecutiveFailures = 5
	DefaultOpenFor             = 30 * time.Second
	DefaultHalfOpenRequests    = 1
)

// maxBackoff caps one wait between attempts, whatever the attempt number.
// A lender's Retry-After longer than maxRetryAfter ends the call instead:
// a patient is waiting.
const (
	maxBackoff    = 5 * time.Second
	maxRetryAfter = 30 * time.Second
)

// BreakerConfig configures the circuit breaker of one lender.
type BreakerConfig struct {
	// ConsecutiveFailures of the lender (time-outs, 5xx, network failures,
	// malformed answers; never 4xx) open the breaker.
	ConsecutiveFailures int
	// OpenFor is how long an open breaker refuses calls before letting
	// HalfOpenRequests trial calls through; their success closes it.
	OpenFor          time.Duration
	HalfOpenRequests int
}

// Config configures a Lender. Zero values take the defaults above.
type Config struct {
	LenderKey         string // the base lender key it serves, e.g. "synchrony_standard"
	BaseURL           string // e.g. http://127.0.0.1:8090/lenders/synchrony_standard
	APIKey, APISecret string
	Timeout           time.Duration // per attempt; also bounded by the call's context
	MaxAttempts       int           // for calls safe to repeat
	BackoffBase       time.Duration // full jitter, capped, never past the context's deadline
	Breaker           BreakerConfig
	Client            *http.Client // nil: one with its own transport
	// Metrics, when set, shows the breaker's state (metrics.BreakerState).
	// Calls are counted by lender.Instrument, not here.
	Metrics *metrics.Metrics
	// Logger is told of failed attempts and breaker changes: operation,
	// kind, status, correlation id, never what was sent.
	Logger *slog.Logger
}

// Lender is one lender over HTTP. It is safe for concurrent use.
type Lender struct {
	cfg     Config
	base    string // BaseURL without its trailing slash
	client  *http.Client
	breaker *gobreaker.CircuitBreaker[struct{}]
	log     *slog.Logger
	docs    documents // the last document of each kind and language
}

var _ lender.AllSteps = (*Lender)(nil)

// New returns the Lender of cfg, or an error naming what is wrong with it.
func New(cfg Config) (*Lender, error) {
	if base, _ := catalogue.ParseKey(cfg.LenderKey); base != cfg.LenderKey || !known(base) {
		return nil, fmt.Errorf("httplender: unknown base lender key %q", cfg.LenderKey)
	}
	u, err := url.Parse(cfg.BaseURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.RawQuery != "" {
		return nil, fmt.Errorf("httplender %s: the base URL must be an absolute http(s) URL without a query", cfg.LenderKey)
	}
	cfg = withDefaults(cfg)
	if cfg.MaxAttempts < 1 || cfg.Timeout < 0 || cfg.BackoffBase < 0 {
		return nil, fmt.Errorf("httplender %s: negative time-out, backoff or attempts", cfg.LenderKey)
	}
	l := &Lender{cfg: cfg, base: strings.TrimRight(cfg.BaseURL, "/"), client: cfg.Client, log: cfg.Logger}
	if l.client == nil {
		l.client = defaultClient()
	}
	if l.log == nil {
		l.log = slog.New(slog.DiscardHandler)
	}
	l.log = l.log.With("lender", cfg.LenderKey)
	l.breaker = gobreaker.NewCircuitBreaker[struct{}](gobreaker.Settings{
		Name:        cfg.LenderKey,
		MaxRequests: uint32(cfg.Breaker.HalfOpenRequests),
		Timeout:     cfg.Breaker.OpenFor,
		ReadyToTrip: func(c gobreaker.Counts) bool {
			return c.ConsecutiveFailures >= uint32(cfg.Breaker.ConsecutiveFailures)
		},
		IsSuccessful:  lenderAnswered,
		IsExcluded:    callerGaveUp,
		OnStateChange: l.breakerChanged,
	})
	cfg.Metrics.BreakerState(cfg.LenderKey, metrics.BreakerClosed)
	return l, nil
}

// known reports whether key is in the catalogue.
func known(key string) bool {
	_, err := catalogue.Get(key)
	return err == nil
}

func withDefaults(cfg Config) Config {
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxAttempts == 0 {
		cfg.MaxAttempts = DefaultMaxAttempts
	}
	if cfg.BackoffBase == 0 {
		cfg.BackoffBase = DefaultBackoffBase
	}
	if cfg.Breaker.ConsecutiveFailures <= 0 {
		cfg.Breaker.ConsecutiveFailures = DefaultConsecutiveFailures
	}
	if cfg.Breaker.OpenFor <= 0 {
		cfg.Breaker.OpenFor = DefaultOpenFor
	}
	if cfg.Breaker.HalfOpenRequests <= 0 {
		cfg.Breaker.HalfOpenRequests = DefaultHalfOpenRequests
	}
	return cfg
}

// defaultClient bounds what the per-attempt context does not: dialling
// and the TLS handshake. Redirects are not followed: the protocol has
// none, and a redirect would carry the credentials somewhere else.
func defaultClient() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			Proxy:                 http.ProxyFromEnvironment,
			DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
			ForceAttemptHTTP2:     true,
			MaxIdleConns:          100,
			MaxIdleConnsPerHost:   16,
			IdleConnTimeout:       90 * time.Second,
			TLSHandshakeTimeout:   5 * time.Second,
			ExpectContinueTimeout: time.Second,
			TLSClientConfig:       &tls.Config{MinVersion: tls.VersionTLS12},
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

// LenderKey is the lender key the lender serves.
func (l *Lender) LenderKey() string { return l.cfg.LenderKey }

// BreakerState names the breaker's state: "closed", "half-open" or "open".
func (l *Lender) BreakerState() string { return l.breaker.State().String() }

// lenderAnswered tells the breaker which failures are not the lender's
// fault: a refusal (4xx) or a missing application is an answer.
func lenderAnswered(err error) bool {
	if err == nil {
		return true
	}
	var f *failure
	if errors.As(err, &f) {
		return f.err.Kind == lender.KindRejected || f.err.Kind == lender.KindNotFound
	}
	return false
}

// callerGaveUp keeps calls our side cancelled out of the breaker's count.
func callerGaveUp(err error) bool {
	var f *failure
	return errors.As(err, &f) && f.cancelled
}

func (l *Lender) breakerChanged(_ string, from, to gobreaker.State) {
	state := map[gobreaker.State]int{
		gobreaker.StateClosed: metrics.BreakerClosed, gobreaker.StateHalfOpen: metrics.BreakerHalfOpen, gobreaker.StateOpen: metrics.BreakerOpen,
	}[to]
	l.cfg.Metrics.BreakerState(l.cfg.LenderKey, state)
	l.log.Warn("lender circuit breaker changed", "from", from.String(), "to", to.String())
}

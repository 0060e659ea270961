// Package registry chooses, per lender key, which lender adapter serves
// it: the built-in sandbox, or a lender over HTTP speaking our protocol
// (lender/httplender) at a URL with its credentials. The choice is a
// lenders file (docs/lender-protocol.md, "Connecting a real lender");
// without one every lender is the sandbox.
package registry

import (
	"bytes"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/metrics"
)

// File is a lenders file: for each base lender key it names, the
// adapter and its settings. Lender keys it leaves out use the sandbox.
type File struct {
	Lenders map[string]Entry `yaml:"lenders"`
}

// Entry is one lender's configuration. String values may name
// environment variables as ${NAME}, so secrets stay out of the file.
type Entry struct {
	Adapter string `yaml:"adapter"` // "http" or "sandbox"
	URL     string `yaml:"url"`
	APIKey  string `yaml:"apiKey"`
	// APISecret is sent beside the key by lenders that ask for both.
	APISecret string `yaml:"apiSecret"`
	// WebhookSecrets sign the lender's webhooks; several while it rotates
	// them. None: the lender's webhooks are refused and its pending
	// applications are polled only.
	WebhookSecrets []string      `yaml:"webhookSecrets"`
	Timeout        time.Duration `yaml:"timeout"`
	MaxAttempts    int           `yaml:"maxAttempts"`
	// DecisionTimeouts replace the catalogue's time-outs of the lender's
	// decisions (chairside.LenderConfig.QuickCheckTimeout, ApplyTimeout);
	// zero keeps the catalogue's.
	DecisionTimeouts struct {
		QuickCheck time.Duration `yaml:"quickCheck"`
		Apply      time.Duration `yaml:"apply"`
	} `yaml:"decisionTimeouts"`
	Breaker struct {
		Failures int           `yaml:"failures"`
		OpenFor  time.Duration `yaml:"openFor"`
	} `yaml:"breaker"`
}

// Adapters.
const (
	AdapterHTTP    = "http"
	AdapterSandbox = "sandbox"
)

// Parse reads a lenders file (YAML or JSON) named name, expanding ${NAME}
// from getenv, and checks it: known lender keys, a known adapter, an
// absolute http(s) URL for HTTP lenders (https outside loopback when
// requireTLS), and no unknown fields. Every problem is reported.
func Parse(name string, data []byte, getenv func(string) string, requireTLS bool) (*File, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var problems []string
	for key, e := range f.Lenders {
		problems = append(problems, e.expand(getenv, key)...)
		if _, err := catalogue.Get(key); err != nil || catalogue.BaseKey(key) != key {
			problems = append(problems, fmt.Sprintf("%s: not a lender key (see chairside office list)", key))
		}
		switch e.Adapter {
		case AdapterSandbox:
		case AdapterHTTP:
			problems = append(problems, checkURL(key, e.URL, requireTLS)...)
		default:
			problems = append(problems, fmt.Sprintf("%s: adapter must be http or sandbox, not %q", key, e.Adapter))
		}
		if e.DecisionTimeouts.QuickCheck < 0 || e.DecisionTimeouts.Apply < 0 {
			problems = append(problems, fmt.Sprintf("%s: decision time-outs cannot be negative", key))
		}
		f.Lenders[key] = e
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return nil, fmt.Errorf("%s:\n  - %s", name, strings.Join(problems, "\n  - "))
	}
	return &f, nil
}

// CheckTimeouts reports the decision time-outs over limit, the time-out
// of every lender call (-lender-timeout), which would cut them short.
func (f *File) CheckTimeouts(limit time.Duration) error {
	var problems []string
	for key, e := range f.Lenders {
		for what, d := range map[string]time.Duration{"quickCheck": e.DecisionTimeouts.QuickCheck, "apply": e.DecisionTimeouts.Apply} {
			if d > limit {
				problems = append(problems, fmt.Sprintf("%s: decisionTimeouts.%s %s is over -lender-timeout %s", key, what, d, limit))
			}
		}
	}
	if len(problems) > 0 {
		slices.Sort(problems)
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// expand replaces ${NAME} in the entry's strings; a variable that is not
// set is a problem, never an empty secret.
func (e *Entry) expand(getenv func(string) string, key string) []string {
	var problems []string
	ex := func(s string) string {
		return os.Expand(s, func(v string) string {
			val := getenv(v)
			if val == "" {
				problems = append(problems, fmt.Sprintf("%s: the environment variable %s is not set", key, v))
			}
			return val
		})
	}
	e.URL, e.APIKey, e.APISecret = ex(e.URL), ex(e.APIKey), ex(e.APISecret)
	for i, s := range e.WebhookSecrets {
		e.WebhookSecrets[i] = ex(s)
	}
	return problems
}

func checkURL(key, raw string, requireTLS bool) []string {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return []string{fmt.Sprintf("%s: url must be an absolute http or https URL, not %q", key, raw)}
	}
	if requireTLS && u.Scheme != "https" {
		if ip := net.ParseIP(u.Hostname()); u.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
			return []string{fmt.Sprintf("%s: url must be https in env prod (applicants' data crosses it)", key)}
		}
	}
	return nil
}

// Registry is the lenders of one server. It implements chairside.Lenders.
type Registry struct {
	sandbox  chairside.Lenders
	timeouts map[string][2]time.Duration // quick check, apply; from the file
	http     map[string]chairside.Lender
	secrets  map[string][][]byte
	urls     map[string]string
}

// New builds the lenders of f over sandbox (which serves every lender
// key f does not send elsewhere). f may be nil.
func New(f *File, sandbox chairside.Lenders, m *metrics.Metrics, log *slog.Logger) (*Registry, error) {
	r := &Registry{sandbox: sandbox, http: map[string]chairside.Lender{}, secrets: map[string][][]byte{}, urls: map[string]string{},
		timeouts: map[string][2]time.Duration{}}
	if f == nil {
		return r, nil
	}
	for key, e := range f.Lenders {
		r.timeouts[key] = [2]time.Duration{e.DecisionTimeouts.QuickCheck, e.DecisionTimeouts.Apply}
	}
	for key, e := range f.Lenders {
		if e.Adapter != AdapterHTTP {
			continue
		}
		cfg := httplender.Config{
			LenderKey: key, BaseURL: e.URL, APIKey: e.APIKey, APISecret: e.APISecret,
			Timeout: e.Timeout, MaxAttempts: e.MaxAttempts, Metrics: m, Logger: log,
		}
		cfg.Breaker.ConsecutiveFailures = int(e.Breaker.Failures)
		cfg.Breaker.OpenFor = e.Breaker.OpenFor
		l, err := httplender.New(cfg)
		if err != nil {
			return nil, fmt.Errorf("lender %s: %w", key, err)
		}
		r.http[key] = l
		r.urls[key] = e.URL
		for _, s := range e.WebhookSecrets {
			if s != "" {
				r.secrets[key] = append(r.secrets[key], []byte(s))
			}
		}
	}
	return r, nil
}

// Lender finds the lender of a lender key (waterfall modifiers such as
// ":role=secondary" are ignored).
func (r *Registry) Lender(lenderKey string) (chairside.Lender, error) {
	if l, ok := r.http[catalogue.BaseKey(lenderKey)]; ok {
		return l, nil
	}
	return r.sandbox.Lender(lenderKey)
}

// DecisionTimeout answers how long the lender of lenderKey may take to
// decide a full application (apply) or a quick check: the lenders file's
// time-out, else the catalogue's.
func (r *Registry) DecisionTimeout(lenderKey string, apply bool) time.Duration {
	key := catalogue.BaseKey(lenderKey)
	i := 0
	if apply {
		i = 1
	}
	if d := r.timeouts[key][i]; d > 0 {
		return d
	}
	return catalogue.DecisionTimeout(key, apply)
}

// WebhookSecrets answers the webhook secrets of an HTTP lender; false for
// the sandbox and for a lender configured without any.
func (r *Registry) WebhookSecrets(lenderKey string) ([][]byte, bool) {
	s, ok := r.secrets[lenderKey]
	return s, ok && len(s) > 0
}

// Describe lists the HTTP lenders with their URLs, sorted, for the start-up
// message; empty when every lender is the sandbox.
func (r *Registry) Describe() []string {
	var out []string
	for key, u := range r.urls {
		out = append(out, key+" → "+u)
	}
	slices.Sort(out)
	return out
}

package registry_test

import (
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender/httplender"
	"github.com/chairside/chairside/lender/registry"
	"github.com/chairside/chairside/lender/sandbox"
)

func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// TestSampleLendersFile: the sample in examples/ parses with its variables
// set, and sends its two lenders over HTTP with their webhook secrets while
// every other lender stays the sandbox (modifiers included).
func TestSampleLendersFile(t *testing.T) {
	data, err := os.ReadFile("../../examples/lenders.yaml")
	if err != nil {
		t.Fatal(err)
	}
	f, err := registry.Parse("lenders.yaml", data, env(map[string]string{"CHAIRSIDE_SIM_API_KEY": "k", "CHAIRSIDE_SIM_WEBHOOK_SECRET": "w"}), false)
	if err != nil {
		t.Fatal(err)
	}
	r, err := registry.New(f, sandbox.New(sandbox.Options{}), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	for key, overHTTP := range map[string]bool{"synchrony_standard": true, "vive_standard:role=secondary": true, "snap_standard": false, "hfd_standard:role=highline_secondary": false} {
		l, err := r.Lender(key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if _, isHTTP := l.(*httplender.Lender); isHTTP != overHTTP {
			t.Errorf("%s: over HTTP %v, want %v", key, isHTTP, overHTTP)
		}
	}
	if s, ok := r.WebhookSecrets("vive_standard"); !ok || len(s) != 1 || string(s[0]) != "w" {
		t.Errorf("vive's webhook secrets: %q %v", s, ok)
	}
	if _, ok := r.WebhookSecrets("snap_standard"); ok {
		t.Error("a sandbox lender has webhook secrets")
	}
	if got := strings.Join(r.Describe(), ", "); got != "synchrony_standard → http://127.0.0.1:8090/lenders/synchrony_standard, vive_standard → http://127.0.0.1:8090/lenders/vive_standard" {
		t.Errorf("Describe: %s", got)
	}
	// In env prod a plain-http lender on loopback is still allowed.
	if _, err := registry.Parse("lenders.yaml", data, env(map[string]string{"CHAIRSIDE_SIM_API_KEY": "k", "CHAIRSIDE_SIM_WEBHOOK_SECRET": "w"}), true); err != nil {
		t.Errorf("prod, loopback: %v", err)
	}
}

// TestLendersFileProblems: every problem of a file is reported at once,
// and none leaves a lender half configured.
func TestLendersFileProblems(t *testing.T) {
	file := `lenders:
  synchrony_standard:
    adapter: http
    url: http://lender.example/v1
    apiKey: ${MISSING_KEY}
  nosuch_lender:
    adapter: sandbox
  snap_standard:
    adapter: carrier_pigeon
  vive_standard:
    adapter: http
    url: not a url
`
	_, err := registry.Parse("bad.yaml", []byte(file), env(nil), true)
	if err == nil {
		t.Fatal("a bad file parsed")
	}
	for _, want := range []string{
		"synchrony_standard: the environment variable MISSING_KEY is not set",
		"synchrony_standard: url must be https in env prod",
		"nosuch_lender: not a lender key",
		`snap_standard: adapter must be http or sandbox, not "carrier_pigeon"`,
		`vive_standard: url must be an absolute http or https URL`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("the error lacks %q:\n%v", want, err)
		}
	}
	if _, err := registry.Parse("x.yaml", []byte("lenders:\n  snap_standard:\n    adapter: sandbox\n    colour: blue\n"), env(nil), false); err == nil || !strings.Contains(err.Error(), "colour") {
		t.Errorf("an unknown field: %v", err)
	}
}

// TestDecisionTimeouts: a lender's decision time-outs come from the
// lenders file where it sets them, else from the catalogue (a quick check
// shorter than a full application); a negative one is a problem, and one
// over the time-out of every lender call is refused at start.
func TestDecisionTimeouts(t *testing.T) {
	file := `lenders:
  synchrony_standard:
    adapter: sandbox
    decisionTimeouts:
      quickCheck: 3s
  snap_standard:
    adapter: sandbox
    decisionTimeouts:
      apply: 40s
`
	f, err := registry.Parse("t.yaml", []byte(file), env(nil), false)
	if err != nil {
		t.Fatal(err)
	}
	r, err := registry.New(f, sandbox.New(sandbox.Options{}), nil, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		key   string
		apply bool
		want  time.Duration
	}{
		{"synchrony_standard", false, 3 * time.Second},
		{"synchrony_standard:role=secondary", false, 3 * time.Second},
		{"synchrony_standard", true, catalogue.DefaultApplyTimeout},
		{"snap_standard", false, catalogue.DefaultQuickCheckTimeout},
		{"snap_standard", true, 40 * time.Second},
		{"vive_standard", false, catalogue.DefaultQuickCheckTimeout},
	} {
		if got := r.DecisionTimeout(c.key, c.apply); got != c.want {
			t.Errorf("%s (apply %v): %s, want %s", c.key, c.apply, got, c.want)
		}
	}
	if catalogue.DefaultQuickCheckTimeout >= catalogue.DefaultApplyTimeout {
		t.Error("a quick check may keep the patient as long as a full application")
	}
	if err := f.CheckTimeouts(25 * time.Second); err == nil || !strings.Contains(err.Error(), "snap_standard: decisionTimeouts.apply 40s is over -lender-timeout 25s") {
		t.Errorf("a time-out over -lender-timeout: %v", err)
	}
	if err := f.CheckTimeouts(time.Minute); err != nil {
		t.Errorf("time-outs within the limit: %v", err)
	}
	neg := "lenders:\n  snap_standard:\n    adapter: sandbox\n    decisionTimeouts:\n      quickCheck: -1s\n"
	if _, err := registry.Parse("n.yaml", []byte(neg), env(nil), false); err == nil || !strings.Contains(err.Error(), "cannot be negative") {
		t.Errorf("a negative time-out: %v", err)
	}
}

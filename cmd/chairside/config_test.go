package main

import (
	"os"
	"strings"
	"testing"

	"github.com/chairside/chairside/testkit"
)

// settingsDoc holds the table of `chairside serve`'s settings, between
// its two marker lines.
const settingsDoc = "../../docs/running.md"

// TestSettingsTable: the table the operator reads is the one the flags are
// made from (`make generate` rewrites it through `chairside settings -doc`).
func TestSettingsTable(t *testing.T) {
	doc, err := os.ReadFile(settingsDoc)
	if err != nil {
		t.Fatal(err)
	}
	want, err := withSettingsTable(string(doc))
	if err != nil {
		t.Fatalf("%s: %v", settingsDoc, err)
	}
	testkit.Generated(t, settingsDoc, []byte(want))
}

// Every setting has a flag, a variable and words; no two share a name.
func TestSettingsAreWholeAndDistinct(t *testing.T) {
	var c Config
	seen := map[string]bool{}
	for _, s := range c.settings() {
		if s.Flag == "" || !strings.HasPrefix(s.Env, "CHAIRSIDE_") || s.Meaning == "" || s.value == nil {
			t.Errorf("incomplete setting %+v", s)
		}
		if seen[s.Flag] || seen[s.Env] {
			t.Errorf("-%s / %s named twice", s.Flag, s.Env)
		}
		seen[s.Flag], seen[s.Env] = true, true
	}
}

// A malformed variable is an error naming it, never its default in silence.
func TestSettingsFromTheEnvironment(t *testing.T) {
	t.Setenv("CHAIRSIDE_RATE_LIMIT", "5")
	t.Setenv("CHAIRSIDE_RETENTION", "1h")
	c, err := newConfig()
	if err != nil || c.RateLimit != 5 || c.Retention.String() != "1h0m0s" || c.Addr != "127.0.0.1:8080" {
		t.Fatalf("%+v %v", c, err)
	}
	t.Setenv("CHAIRSIDE_LENDER_TIMEOUT", "soon")
	if _, err := newConfig(); err == nil || !strings.Contains(err.Error(), `CHAIRSIDE_LENDER_TIMEOUT="soon": not a duration`) {
		t.Fatalf("malformed variable: %v", err)
	}
}

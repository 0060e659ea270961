package catalogue_test

import (
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// TestServes: every lender serves every state but Snap, which does not
// lend in five; every state a lender lists is a real one.
func TestServes(t *testing.T) {
	for _, p := range catalogue.All() {
		for _, s := range p.States {
			if !catalogue.ValidState(s) {
				t.Errorf("%s lists %q, not a state", p.Key, s)
			}
		}
		for _, s := range catalogue.States {
			want := p.Key != catalogue.Snap || !strings.Contains("MN NJ VT WI WY", s.Value)
			if got := catalogue.Serves(p, s.Value); got != want {
				t.Errorf("%s serves %s: %v, want %v", p.Key, s.Value, got, want)
			}
		}
	}
	if catalogue.ValidState("PR") || catalogue.ValidState("ca") || !catalogue.ValidState("DC") {
		t.Error("ValidState takes the 50 states and DC, in capitals")
	}
}

// TestCheckStep: the rules of a waterfall step, one broken at a time.
func TestCheckStep(t *testing.T) {
	ok := chairside.WaterfallStep{LenderKey: catalogue.Synchrony, Role: chairside.RolePrimary, ApplyMode: chairside.ModeFull}
	if msg := catalogue.CheckStep(0, ok, "CA"); msg != "" {
		t.Fatalf("a good first step: %s", msg)
	}
	second := chairside.WaterfallStep{LenderKey: catalogue.HFD + ":role=highline_secondary", Role: chairside.RoleSecondary,
		ApplyMode: chairside.ModePrequalify, AutoSubmit: true}
	if msg := catalogue.CheckStep(1, second, "WI"); msg != "" {
		t.Fatalf("a good second step: %s", msg)
	}
	for _, tc := range []struct {
		i     int
		step  func(*chairside.WaterfallStep)
		state string
		want  string
	}{
		{0, func(s *chairside.WaterfallStep) { s.LenderKey = "acme_standard" }, "CA", "is not a lender Chairside knows"},
		{0, func(s *chairside.WaterfallStep) { s.LenderKey += ":tier=gold" }, "CA", "is not a modifier"},
		{0, func(s *chairside.WaterfallStep) { s.LenderKey += ":role=boss" }, "CA", `role="boss" is not a role`},
		{0, func(s *chairside.WaterfallStep) { s.LenderKey, s.ApplyMode = catalogue.Snap, chairside.ModePrequalify }, "WY",
			"does not serve offices in WY"},
		{0, func(s *chairside.WaterfallStep) { s.Role = "boss" }, "CA", `role "boss" is not a role`},
		{0, func(s *chairside.WaterfallStep) { s.Role = chairside.RoleSecondary }, "CA", "its role must be primary"},
		{1, func(*chairside.WaterfallStep) {}, "CA", "only the first lender is primary"},
		{0, func(s *chairside.WaterfallStep) { s.ApplyMode = "soft" }, "CA", `apply mode "soft"`},
		{0, func(s *chairside.WaterfallStep) { s.LenderKey = catalogue.Vive }, "CA", "does not take a full application"},
		{0, func(s *chairside.WaterfallStep) { s.AutoSubmit = true }, "CA", "cannot be submitted by itself"},
	} {
		st := ok
		tc.step(&st)
		if msg := catalogue.CheckStep(tc.i, st, tc.state); !strings.Contains(msg, tc.want) {
			t.Errorf("%+v at %d in %s: %q, want %q", st, tc.i, tc.state, msg, tc.want)
		}
	}
	// An office whose state is wrong is not also told its lenders do not
	// serve it.
	snap := chairside.WaterfallStep{LenderKey: catalogue.Snap, Role: chairside.RolePrimary, ApplyMode: chairside.ModePrequalify}
	if msg := catalogue.CheckStep(0, snap, ""); msg != "" {
		t.Errorf("no state: %s", msg)
	}
}

package catalogue

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/chairside/chairside"
)

func TestCatalogue(t *testing.T) {
	all := All()
	keys := []string{ADS, AFF, CoveredCare, Fortiva, Genesis, HFD, LendingClub, Proceed, Snap, Synchrony, Vive}
	if len(all) != len(keys) {
		t.Fatalf("%d providers, want %d", len(all), len(keys))
	}
	for _, p := range all {
		if !slices.Contains(keys, p.Key) {
			t.Errorf("unexpected key %q", p.Key)
		}
		if p.LenderID == "" || p.Name == "" || p.FinancingName == "" || p.AbbreviatedName == "" || p.FundingName == "" || p.FundingSourceDescription == "" {
			t.Errorf("%s: missing names: %+v", p.Key, p)
		}
		if p.Logo != "/logos/"+p.LenderID+".svg" {
			t.Errorf("%s: logo %q", p.Key, p.Logo)
		}
		if p.CreditType != CreditLoan && p.CreditType != CreditRevolving {
			t.Errorf("%s: credit type %q", p.Key, p.CreditType)
		}
		wantDays := 30
		if p.Key == Snap {
			wantDays = 60
		}
		if p.PreauthExpireDays != wantDays {
			t.Errorf("%s: preauthExpireDays %d", p.Key, p.PreauthExpireDays)
		}
		if p.FetchPaymentPlansOnPreAuth != (p.Key != Snap) {
			t.Errorf("%s: fetchPaymentPlansOnPreAuth %v", p.Key, p.FetchPaymentPlansOnPreAuth)
		}
	}
	// Lender-specific settings.
	get := func(k string) chairside.LenderConfig {
		p, err := Get(k)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	if p := get(ADS); !p.SupportsFullAppMode || p.CreditType != CreditRevolving {
		t.Error("ads")
	}
	if p := get(AFF); p.MaxDownPaymentCents != 5000 || !p.ShowPaymentPlanDetails || p.CreditType != CreditLoan {
		t.Error("aff")
	}
	if p := get(CoveredCare); p.MinPaymentCalculatorCents != 50000 {
		t.Error("covered care")
	}
	if p := get(HFD); !slices.Equal(p.ShowDownPaymentAcknowledgeByLenderRoles, []string{"highline_secondary"}) || !p.ShowBankCardErrorModal {
		t.Error("hfd")
	}
	if p := get(LendingClub); !p.SelectPaymentPlanOnReviewScreen {
		t.Error("lendingclub")
	}
	if p := get(Proceed); !p.PaymentCalculatorButtonsHidden || len(p.SubLenders) == 0 || !p.PaymentCalculatorRecalculatingModal {
		t.Error("proceed")
	}
	for _, p := range All() {
		if p.PaymentCalculatorRecalculatingModal != (p.Key == Proceed) {
			t.Errorf("%s: paymentCalculatorRecalculatingModal %v: only Proceed asks for the dialog", p.Key, p.PaymentCalculatorRecalculatingModal)
		}
	}
	if p := get(Synchrony); !p.SupportsFullAppMode || !slices.Equal(p.PaymentPlanFilterOverrides["credit_card"], []string{"deferred_interest", "fixed_rate"}) {
		t.Error("synchrony")
	}
}

func TestAllIsACopy(t *testing.T) {
	a := All()
	a[0].Name = "changed"
	for i := range a {
		if a[i].Key == Synchrony {
			a[i].PaymentPlanFilterOverrides["credit_card"][0] = "changed"
		}
	}
	if p, _ := Get(a[0].Key); p.Name == "changed" {
		t.Error("All shares the catalogue")
	}
	if p, _ := Get(Synchrony); p.PaymentPlanFilterOverrides["credit_card"][0] == "changed" {
		t.Error("All shares the filter overrides")
	}
}

func TestGetAndParseKey(t *testing.T) {
	p, err := Get("hfd_standard:role=highline_secondary:autoSubmit")
	if err != nil || p.Key != HFD {
		t.Fatalf("Get with modifiers: %v %v", p.Key, err)
	}
	if _, err := Get("nope_standard"); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("unknown key: %v", err)
	}
	if _, err := Get(""); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("empty key: %v", err)
	}
	base, mods := ParseKey("hfd_standard:role=highline_secondary:autoSubmit")
	if base != HFD || mods["role"] != "highline_secondary" || len(mods) != 2 {
		t.Errorf("ParseKey: %q %v", base, mods)
	}
	if v, ok := mods["autoSubmit"]; !ok || v != "" {
		t.Errorf("bare modifier: %q %v", v, ok)
	}
	if base, mods := ParseKey("snap_standard"); base != Snap || mods != nil {
		t.Errorf("no modifiers: %q %v", base, mods)
	}
}

func TestFields(t *testing.T) {
	for _, p := range All() {
		pre, preGroups, err := Fields(p.Key, chairside.ModePrequalify)
		if err != nil {
			t.Fatal(err)
		}
		full, fullGroups, err := Fields(p.Key+":role=primary", chairside.ModeFull)
		if err != nil {
			t.Fatal(err)
		}
		if len(full) <= len(pre) || len(fullGroups) < len(preGroups) {
			t.Errorf("%s: full asks no more than prequalify", p.Key)
		}
		ids := map[string]bool{}
		for _, d := range full {
			if ids[d.ID] {
				t.Errorf("%s: %s twice", p.Key, d.ID)
			}
			ids[d.ID] = true
			if d.Label == "" || d.Type == "" || d.Group == "" || d.Path != d.ID || d.Name != d.ID || d.Rules == nil {
				t.Errorf("%s: incomplete definition %+v", p.Key, d)
			}
			switch d.Type {
			case chairside.FieldSelect, chairside.FieldRadio, chairside.FieldState:
				if len(d.Rules[chairside.RuleValidOptions].Options) == 0 {
					t.Errorf("%s: %s has no options", p.Key, d.ID)
				}
			}
		}
		for _, id := range []string{"firstName", "lastName", "dateOfBirth", "ssn", "addressLine1", "addressZipCode", "email", "mobilePhone", "homePhone", "annualGrossIncome", "housingStatus", "employerName"} {
			if !ids[id] {
				t.Errorf("%s full: no %s", p.Key, id)
			}
		}
		if ids["payFrequency"] != (p.Key == Snap || p.Key == AFF || p.Key == HFD) {
			t.Errorf("%s: payFrequency %v", p.Key, ids["payFrequency"])
		}
	}
	if _, _, err := Fields(Snap, "bogus"); chairside.ErrorCode(err) != chairside.EBADREQUEST {
		t.Errorf("bad mode: %v", err)
	}
	if _, _, err := Fields("bogus", chairside.ModeFull); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Errorf("bad key: %v", err)
	}
	// Callers get fresh definitions.
	a, _, _ := Fields(Snap, chairside.ModeFull)
	a[0].Rules["x"] = chairside.Rule{}
	b, _, _ := Fields(Snap, chairside.ModeFull)
	if _, ok := b[0].Rules["x"]; ok {
		t.Error("Fields shares rule maps")
	}
	if len(States) != 51 {
		t.Errorf("%d states", len(States))
	}
}

// Every logo the catalogue names, sub-lenders' and footers' included, is a
// file the web app serves: a missing one would show a broken image beside
// an offer.
func TestCatalogueLogosExist(t *testing.T) {
	for _, p := range All() {
		logos := []string{p.Logo}
		if p.FooterLogo != "" {
			logos = append(logos, p.FooterLogo)
		}
		for _, s := range p.SubLenders {
			if s.LenderID == "" || s.Name == "" {
				t.Errorf("%s: sub-lender without id or name: %+v", p.Key, s)
			}
			logos = append(logos, s.Logo)
		}
		for _, l := range logos {
			if !strings.HasPrefix(l, "/logos/") {
				t.Errorf("%s: logo %q is not under /logos/", p.Key, l)
				continue
			}
			if _, err := os.Stat(filepath.Join("..", "web", "public", l)); err != nil {
				t.Errorf("%s: logo %q: %v", p.Key, l, err)
			}
		}
		// The logo beside an offer names the lender the words beside it
		// name (a patient read "Alliance Dental" beside "ADS Health").
		names := map[string]string{p.Logo: p.Name}
		for _, s := range p.SubLenders {
			names[s.Logo] = s.Name
		}
		for l, name := range names {
			svg, err := os.ReadFile(filepath.Join("..", "web", "public", l))
			if err != nil {
				continue // reported above
			}
			label := regexp.MustCompile(`aria-label="([^"]*)"`).FindSubmatch(svg)
			if label == nil || !strings.HasPrefix(string(label[1]), name) {
				t.Errorf("%s: logo %s is labelled %q, not after %q", p.Key, l, label, name)
			}
		}
	}
}

// EffectiveRole: a role= modifier of a waterfall step's key wins over the
// step's role; without one the step's role stands. The down-payment
// acknowledgement follows the effective role.
func TestEffectiveRole(t *testing.T) {
	for _, tc := range []struct{ key, role, want string }{
		{"hfd_standard", chairside.RoleHighlineSecondary, chairside.RoleHighlineSecondary},
		{"hfd_standard:role=highline_secondary", chairside.RolePrimary, chairside.RoleHighlineSecondary},
		{"hfd_standard:autoSubmit:role=highline_secondary", chairside.RoleSecondary, chairside.RoleHighlineSecondary},
		{"hfd_standard:role=", chairside.RoleTertiary, chairside.RoleTertiary},
		{"hfd_standard:autoSubmit", chairside.RolePrimary, chairside.RolePrimary},
	} {
		if got := EffectiveRole(chairside.WaterfallStep{LenderKey: tc.key, Role: tc.role}); got != tc.want {
			t.Errorf("%s as %s: %s, want %s", tc.key, tc.role, got, tc.want)
		}
	}
	hfd, _ := Get(HFD)
	aff, _ := Get(AFF)
	if !AcknowledgesDownPayment(hfd, chairside.RoleHighlineSecondary) || AcknowledgesDownPayment(hfd, chairside.RolePrimary) ||
		AcknowledgesDownPayment(aff, chairside.RoleHighlineSecondary) || AcknowledgesDownPayment(hfd, "") {
		t.Error("the acknowledgement is for HFD as highline_secondary only")
	}
}

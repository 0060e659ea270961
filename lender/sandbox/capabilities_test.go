package sandbox

import (
	"slices"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	lenderops "github.com/chairside/chairside/lender"
)

// mustStep answers l's optional step S, failing the test when l has not
// got it.
func mustStep[S any](t *testing.T, l chairside.Lender) S {
	t.Helper()
	s, ok := l.(S)
	if !ok {
		t.Fatalf("%T has not got the step %T", l, (*S)(nil))
	}
	return s
}

// mustAllSteps is the lender of key with every step (Sandbox.AllSteps), for
// tests of a step's rules whatever the product.
func mustAllSteps(t *testing.T, s *Sandbox, key string) lenderops.AllSteps {
	t.Helper()
	l, err := s.AllSteps(key)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// hasStep reports whether l has the optional step S.
func hasStep[S any](l chairside.Lender) bool {
	_, ok := l.(S)
	return ok
}

// stepsOf names the optional steps l has.
func stepsOf(l chairside.Lender) []string {
	var out []string
	for name, has := range map[string]bool{
		"BankAccounts": hasStep[chairside.BankAccounts](l),
		"Cards":        hasStep[chairside.Cards](l),
		"DownPayments": hasStep[chairside.DownPayments](l),
		"Contacts":     hasStep[chairside.Contacts](l),
		"Consents":     hasStep[chairside.Consents](l),
		"Spouses":      hasStep[chairside.Spouses](l),
		"Quizzes":      hasStep[chairside.Quizzes](l),
		"Patches":      hasStep[chairside.Patches](l),
		"Stipulations": hasStep[chairside.Stipulations](l),
		"CreditLimits": hasStep[chairside.CreditLimits](l),
	} {
		if has {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// catalogueSteps names the optional steps the catalogue says p's lender
// asks for: one per step of its journey, the credit limit change of a
// revolving card, and what every sandbox lender may be asked by a test
// case (a pending decision's patch and stipulations).
func catalogueSteps(p chairside.LenderConfig) []string {
	need := map[string]bool{"Patches": true, "Stipulations": true}
	for _, step := range slices.Concat(p.StepsBeforeSigning, p.StepsAfterSigning) {
		switch step {
		case chairside.JourneyQuiz:
			need["Quizzes"] = true
		case chairside.JourneyBankAccount:
			need["BankAccounts"] = true
		case chairside.JourneyLoanPayment: // a checking account or a card
			need["BankAccounts"], need["Cards"] = true, true
		case chairside.JourneyDownPayment:
			need["DownPayments"] = true
		case chairside.JourneyAdditionalContact:
			need["Contacts"] = true
		case chairside.JourneyAgreement, chairside.JourneyCalifornia, chairside.JourneyCompleteAgreement:
			need["Consents"] = true
		case chairside.JourneyWisconsin:
			need["Spouses"] = true
		default:
			panic("a journey step this test does not know: " + step)
		}
	}
	if p.CreditType == catalogue.CreditRevolving && p.MaxCreditLimitCents > 0 {
		need["CreditLimits"] = true
	}
	var out []string
	for name := range need {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}

// TestStepsFollowTheCatalogue: the lender Sandbox.Lender answers for each
// lender, with or without a role, has exactly the optional steps its
// product's journey needs, no more; the lender of AllSteps has every one.
func TestStepsFollowTheCatalogue(t *testing.T) {
	s := New(Options{})
	every := []string{"BankAccounts", "Cards", "Consents", "Contacts", "CreditLimits", "DownPayments", "Patches", "Quizzes", "Spouses", "Stipulations"}
	for _, p := range catalogue.All() {
		want := catalogueSteps(p)
		for _, key := range []string{p.Key, p.Key + ":role=secondary"} {
			if got := stepsOf(mustLender(t, s, key)); !slices.Equal(got, want) {
				t.Errorf("%s has the steps %v, its product %v", key, got, want)
			}
		}
		if got := stepsOf(mustAllSteps(t, s, p.Key)); !slices.Equal(got, every) {
			t.Errorf("%s with every step has %v", p.Key, got)
		}
	}
	// The catalogue's steps spelled out, so that a change to either shows.
	for key, want := range map[string][]string{
		catalogue.Snap:      {"BankAccounts", "Consents", "Patches", "Quizzes", "Stipulations"},
		catalogue.HFD:       {"BankAccounts", "Cards", "Contacts", "DownPayments", "Patches", "Quizzes", "Stipulations"},
		catalogue.AFF:       {"Consents", "Patches", "Quizzes", "Spouses", "Stipulations"},
		catalogue.Fortiva:   {"Consents", "CreditLimits", "Patches", "Quizzes", "Stipulations"},
		catalogue.Synchrony: {"CreditLimits", "Patches", "Quizzes", "Stipulations"},
		catalogue.Proceed:   {"Patches", "Quizzes", "Stipulations"},
	} {
		if got := stepsOf(mustLender(t, s, key)); !slices.Equal(got, want) {
			t.Errorf("%s has the steps %v, want %v", key, got, want)
		}
	}
}

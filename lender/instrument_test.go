package lender_test

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
	"github.com/chairside/chairside/lender"
	"github.com/chairside/chairside/lender/sandbox"
	"github.com/chairside/chairside/metrics"
)

// has reports whether l has the optional step S, asked as the flow service
// asks (chairside.StepOf).
func has[S any](l chairside.Lender) bool {
	_, ok := chairside.StepOf[S](l)
	return ok
}

// steps lists, in a fixed order, which optional steps l has.
func steps(l chairside.Lender) [10]bool {
	return [10]bool{
		has[chairside.BankAccounts](l), has[chairside.Cards](l), has[chairside.DownPayments](l), has[chairside.Contacts](l),
		has[chairside.Consents](l), has[chairside.Spouses](l), has[chairside.Quizzes](l), has[chairside.Patches](l),
		has[chairside.Stipulations](l), has[chairside.CreditLimits](l),
	}
}

// TestCountedKeepsTheSteps: the metrics' decorator has exactly the optional
// steps of the lender it wraps, and counts their calls like the core's.
func TestCountedKeepsTheSteps(t *testing.T) {
	sb := sandbox.New(sandbox.Options{})
	m := metrics.New()
	counted := lender.Instrument(sb, m)
	for _, p := range catalogue.All() {
		bare, err := sb.Lender(p.Key)
		if err != nil {
			t.Fatal(err)
		}
		l, err := counted.Lender(p.Key)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := steps(l), steps(bare); got != want {
			t.Errorf("%s: counted has the steps %v, the lender %v", p.Key, got, want)
		}
	}
	snap, _ := counted.Lender(catalogue.Snap)
	if has[chairside.Cards](snap) || !has[chairside.BankAccounts](snap) {
		t.Fatalf("Snap counted: %v", steps(snap))
	}

	hfd, _ := counted.Lender(catalogue.HFD)
	cards, ok := chairside.StepOf[chairside.Cards](hfd)
	if !ok {
		t.Fatal("HFD counted has no card step")
	}
	err := cards.AddCard(context.Background(), &chairside.BankCardRequest{LenderKey: catalogue.HFD, LenderRef: "nope"})
	if chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Fatalf("a card for no application: %v", err)
	}
	mfs, err := m.Registry().Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, mf := range mfs {
		if mf.GetName() != "chairside_lender_calls_total" {
			continue
		}
		for _, c := range mf.GetMetric() {
			labels := map[string]string{}
			for _, lp := range c.GetLabel() {
				labels[lp.GetName()] = lp.GetValue()
			}
			if labels["lender"] == catalogue.HFD && labels["op"] == lender.OpBankCard && labels["result"] == lender.KindNotFound && c.GetCounter().GetValue() == 1 {
				return
			}
		}
	}
	t.Fatal("the card call was not counted")
}

package flow_test

import (
	"context"
	"sync"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/money"
	"github.com/chairside/chairside/store/storetest"
)

// TestInconsistentPlanIsNotShown: a lender's plan whose total is not what
// its payments add up to (the sandbox's inconsistent-plan case) is left out
// of the plans answered and saved, and counted; the lender's other plans
// are shown, each with a schedule that adds up.
func TestInconsistentPlanIsNotShown(t *testing.T) {
	var mu sync.Mutex
	refused := map[string]int{}
	f := newFixture(t, storetest.SQLite(t), flow.Options{PlanRefused: func(key, reason string) {
		mu.Lock()
		defer mu.Unlock()
		refused[key+" "+reason]++
	}})
	ctx := context.Background()
	c, d := pendingJourney(t, f, "inconsistent-plan")
	if !chairside.Positive(d.ResponseCode) {
		t.Fatalf("inconsistent-plan answered %q", d.ResponseCode)
	}
	got, err := f.svc.Plans(ctx, c, "synchrony_standard", 450_000)
	if err != nil {
		t.Fatal(err)
	}
	if refused["synchrony_standard "+money.ReasonSchedule] != 1 || len(refused) != 1 {
		t.Fatalf("refused %v", refused)
	}
	if len(got.PaymentPlans) == 0 {
		t.Fatal("no plan shown")
	}
	for _, p := range got.PaymentPlans {
		if p.LenderPlanCode == "SYN-DI-06" {
			t.Errorf("the plan that does not add up was shown: %+v", p)
		}
		if p.TotalOfPaymentsCents != p.MonthlyAmountCents*int64(p.PaymentCount-1)+p.FinalPaymentCents || p.TotalCostCents != p.TotalOfPaymentsCents+p.DownPaymentCents {
			t.Errorf("%s does not add up: %+v", p.LenderPlanCode, p)
		}
	}
	// Nor can it be chosen: only the plans shown were saved.
	if _, err := f.svc.SelectPlan(ctx, c, "synchrony_standard", "SYN-DI-06"); chairside.ErrorCode(err) != chairside.ENOTFOUND {
		t.Fatalf("selecting the refused plan: %v", err)
	}
}

// TestEveryPlanAddsUp: the plans of an ordinary approval all pass, and
// none is refused.
func TestEveryPlanAddsUp(t *testing.T) {
	refusals := 0
	f := newFixture(t, storetest.SQLite(t), flow.Options{PlanRefused: func(string, string) { refusals++ }})
	c, _ := pendingJourney(t, f, "all-approve")
	got, err := f.svc.Plans(context.Background(), c, "synchrony_standard", 450_000)
	if err != nil || len(got.PaymentPlans) != 8 || refusals != 0 {
		t.Fatalf("plans %d, refused %d, %v", len(got.PaymentPlans), refusals, err)
	}
}

package sandbox

import (
	"context"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// A down payment is paid today and taken off the treatment: the plan
// finances the rest, and its total is the down payment plus the payments
// (docs/behaviour.md, "Plans and offers").
func TestDownPaymentIsDeducted(t *testing.T) {
	ctx := context.Background()
	l := mustLender(t, New(Options{}), catalogue.HFD)
	d, err := l.Decide(ctx, request(catalogue.HFD, "apply", "down", "Approve"))
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("%+v %v", d, err)
	}
	// A tenth of the $4,500 treatment, not of the $5,000 approval.
	if d.DownPaymentCents != 45_000 || d.ApprovedAmountCents != 500_000 {
		t.Fatalf("HFD down payment %d on an approval of %d, want $450 on $5,000", d.DownPaymentCents, d.ApprovedAmountCents)
	}
	plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: catalogue.HFD, LenderRef: d.LenderRef,
		AmountCents: 450_000, ApprovedAmountCents: d.ApprovedAmountCents, Now: now})
	if err != nil || len(plans) == 0 {
		t.Fatal(plans, err)
	}
	sawZero := false
	for _, pl := range plans {
		if pl.DownPaymentCents != 45_000 || pl.AmountFinancedCents != 405_000 {
			t.Errorf("%s: down %d financed %d, want $450 and $4,050", pl.LenderPlanCode, pl.DownPaymentCents, pl.AmountFinancedCents)
		}
		paid := pl.MonthlyAmountCents*int64(pl.PaymentCount-1) + pl.FinalPaymentCents
		if pl.TotalCostCents != 45_000+paid || pl.TotalOfPaymentsCents != paid {
			t.Errorf("%s: total %d, want $450 + payments %d", pl.LenderPlanCode, pl.TotalCostCents, paid)
		}
		if pl.APR == 0 {
			sawZero = true
			// 0 %: the patient pays the treatment, not a cent more.
			if pl.TotalCostCents != 450_000 {
				t.Errorf("%s: 0%% plan totals %d for a $4,500 treatment", pl.LenderPlanCode, pl.TotalCostCents)
			}
		}
	}
	if !sawZero {
		t.Error("HFD offers no 0% plan")
	}

	// A down payment larger than the amount leaves nothing financed, never
	// less than nothing.
	small, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: catalogue.HFD, LenderRef: d.LenderRef,
		AmountCents: 30_000, ApprovedAmountCents: d.ApprovedAmountCents, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	for _, pl := range small {
		if pl.DownPaymentCents != 30_000 || pl.AmountFinancedCents != 0 || pl.TotalCostCents != 30_000 {
			t.Errorf("%s: %+v", pl.LenderPlanCode, pl)
		}
	}
}

// HFD's down payment is a tenth of the treatment (at least $100), whatever
// the approval: a $600 treatment under a $5,000 approval asks $100 down and
// finances $500, which its plans cover. Before, it asked a tenth of the
// approval, $500, and left $100 that no plan would finance.
func TestDownPaymentFollowsTheTreatment(t *testing.T) {
	ctx := context.Background()
	l := mustLender(t, New(Options{}), catalogue.HFD)
	req := request(catalogue.HFD, "apply", "down-600", "Approve")
	req.PurchaseAmountCents = 60_000
	d, err := l.Decide(ctx, req)
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("%+v %v", d, err)
	}
	if d.DownPaymentCents != 10_000 {
		t.Fatalf("HFD down payment %d on a $600 treatment, want $100", d.DownPaymentCents)
	}
	plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: catalogue.HFD, LenderRef: d.LenderRef,
		AmountCents: 60_000, ApprovedAmountCents: d.ApprovedAmountCents, Now: now})
	if err != nil || len(plans) == 0 {
		t.Fatalf("no plan for a $600 treatment: %v %v", plans, err)
	}
	for _, pl := range plans {
		if pl.DownPaymentCents != 10_000 || pl.AmountFinancedCents != 50_000 {
			t.Errorf("%s: down %d financed %d, want $100 and $500", pl.LenderPlanCode, pl.DownPaymentCents, pl.AmountFinancedCents)
		}
	}
}

// Snap's plans are leases: no APR, no deferred-interest promotion; the
// early purchase option costs the cash price, the lease costs more.
func TestSnapPlansAreLeases(t *testing.T) {
	ctx := context.Background()
	l := mustLender(t, New(Options{}), catalogue.Snap)
	d, err := l.Decide(ctx, request(catalogue.Snap, "apply", "lease", "Approve"))
	if err != nil || !chairside.Positive(d.ResponseCode) {
		t.Fatalf("%+v %v", d, err)
	}
	plans, err := l.Plans(ctx, &chairside.PlansRequest{LenderKey: catalogue.Snap, LenderRef: d.LenderRef,
		AmountCents: 200_000, ApprovedAmountCents: d.ApprovedAmountCents, Now: now})
	if err != nil || len(plans) != 2 {
		t.Fatal(plans, err)
	}
	for _, pl := range plans {
		if pl.ProductType != chairside.ProductLease || pl.APR != 0 || pl.PromoAPR != 0 || pl.TypeID == chairside.PlanDeferredInterest {
			t.Errorf("%s: not a lease: %+v", pl.LenderPlanCode, pl)
		}
		paid := pl.TotalCostCents - pl.DownPaymentCents
		switch pl.LenderPlanCode {
		case "SNP-SAC-101":
			if paid != pl.AmountFinancedCents {
				t.Errorf("early purchase option costs %d for %d", paid, pl.AmountFinancedCents)
			}
		case "SNP-LTO-12":
			if pl.PaymentCount != 12 || paid != pl.MonthlyAmountCents*11+pl.FinalPaymentCents || paid <= pl.AmountFinancedCents {
				t.Errorf("lease cost of ownership %d for %d", paid, pl.AmountFinancedCents)
			}
		}
	}
}

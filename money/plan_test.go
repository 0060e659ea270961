package money_test

import (
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/money"
)

// stated is a plan as a lender states it over the protocol: the regular
// payment, the term and the total cost, and no schedule.
func stated(monthly, total int64, months int, apr float64) chairside.PaymentPlan {
	return chairside.PaymentPlan{
		TypeID: chairside.PlanFixedRate, LenderPlanCode: "SYN-FR-24", DurationMonths: months, APR: apr,
		MonthlyAmountCents: monthly, TotalCostCents: total, AmountFinancedCents: 450_000,
	}
}

// The figures of the report that opened issue 27 — $225.00 a month, 24
// months, $5,383.98 in total, 17.90 % on $4,500.00 — are a true schedule
// only as 23 payments of $225.00 and a final one of $208.98, which is what
// the patient is shown.
func TestSettleFindsTheFinalPayment(t *testing.T) {
	p := stated(22_500, 538_398, 24, 17.90)
	if r := money.Settle(&p, money.Bounds{ApprovedCents: 500_000, RequestedCents: 450_000}); r != nil {
		t.Fatal(r)
	}
	if p.PaymentCount != 24 || p.FinalPaymentCents != 20_898 || p.TotalOfPaymentsCents != 538_398 || p.FinanceChargeCents != 88_398 {
		t.Fatalf("settled %+v", p)
	}
}

// A deferred-interest promotion stated by its suggested payment: as many
// payments as pay the amount off, the last one what is left.
func TestSettlePromotion(t *testing.T) {
	p := chairside.PaymentPlan{TypeID: chairside.PlanDeferredInterest, LenderPlanCode: "DI", DurationMonths: 6, APR: 29.99,
		MonthlyAmountCents: 3_000, TotalCostCents: 10_000, AmountFinancedCents: 10_000}
	if r := money.Settle(&p, money.Bounds{}); r != nil {
		t.Fatal(r)
	}
	if p.PaymentCount != 4 || p.FinalPaymentCents != 1_000 || p.FinanceChargeCents != 0 {
		t.Fatalf("settled %+v", p)
	}
}

func TestSettleRefuses(t *testing.T) {
	level := money.Level(450_000, 17.90, 24)
	withSchedule := func(edit func(*chairside.PaymentPlan)) chairside.PaymentPlan {
		p := stated(level.Payment, level.Total(), 24, 17.90)
		p.PaymentCount, p.FinalPaymentCents = level.Count, level.Final
		edit(&p)
		return p
	}
	cases := []struct {
		name   string
		plan   chairside.PaymentPlan
		bounds money.Bounds
		reason string
	}{
		{"24 × 225 is not 5,383.98", withSchedule(func(p *chairside.PaymentPlan) {
			p.MonthlyAmountCents, p.FinalPaymentCents, p.TotalCostCents = 22_500, 22_500, 538_398
		}), money.Bounds{}, money.ReasonSchedule},
		{"a rate the schedule does not have", withSchedule(func(p *chairside.PaymentPlan) { p.APR = 9.99 }), money.Bounds{}, money.ReasonAPR},
		{"an eighth of a point is allowed, not more", withSchedule(func(p *chairside.PaymentPlan) { p.APR = 17.90 + 0.13 }), money.Bounds{}, money.ReasonAPR},
		{"a balloon", stated(10_000, 10_000*23+30_000, 24, 17.90), money.Bounds{}, money.ReasonBalloon},
		{"more payments than the term", withSchedule(func(p *chairside.PaymentPlan) { p.DurationMonths = 12 }), money.Bounds{}, money.ReasonTerm},
		{"above the approval", withSchedule(func(*chairside.PaymentPlan) {}), money.Bounds{ApprovedCents: 400_000}, money.ReasonAmount},
		{"above the amount asked", withSchedule(func(*chairside.PaymentPlan) {}), money.Bounds{RequestedCents: 300_000}, money.ReasonAmount},
		{"a negative figure", withSchedule(func(p *chairside.PaymentPlan) { p.DownPaymentCents = -1 }), money.Bounds{}, money.ReasonMissing},
		{"no payments", stated(0, 0, 24, 0), money.Bounds{}, money.ReasonMissing},
		{"less back than lent", withSchedule(func(p *chairside.PaymentPlan) {
			p.APR, p.MonthlyAmountCents, p.FinalPaymentCents, p.TotalCostCents = 0, 18_000, 18_000, 18_000*24
		}), money.Bounds{}, money.ReasonAPR},
		{"a lease with a rate", withSchedule(func(p *chairside.PaymentPlan) { p.ProductType = chairside.ProductLease }), money.Bounds{}, money.ReasonLease},
		{"a lease below its cash price", withSchedule(func(p *chairside.PaymentPlan) {
			p.ProductType, p.APR, p.MonthlyAmountCents, p.FinalPaymentCents, p.TotalCostCents = chairside.ProductLease, 0, 18_000, 18_000, 18_000*24
		}), money.Bounds{}, money.ReasonLease},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := c.plan
			r := money.Settle(&p, c.bounds)
			if r == nil || r.Reason != c.reason {
				t.Fatalf("Settle = %v; want %s", r, c.reason)
			}
		})
	}
	// And the plan all of these were made from passes.
	ok := withSchedule(func(*chairside.PaymentPlan) {})
	if r := money.Settle(&ok, money.Bounds{ApprovedCents: 450_000, RequestedCents: 450_000}); r != nil {
		t.Fatal(r)
	}
}

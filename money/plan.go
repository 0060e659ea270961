package money

import (
	"fmt"
	"math"

	"github.com/chairside/chairside"
)

// Reasons a plan is refused, the label of its count on /metrics
// (docs/operations.md) and the first word of its log line.
const (
	ReasonMissing  = "missing"  // a figure negative, or a schedule with no payment
	ReasonSchedule = "schedule" // the payments do not add up to the total stated
	ReasonBalloon  = "balloon"  // a final payment over twice the others
	ReasonTerm     = "term"     // more payments than the plan's term
	ReasonAPR      = "apr"      // the rate stated is not the schedule's
	ReasonLease    = "lease"    // a lease stating a rate, or paid for below its cash price
	ReasonAmount   = "amount"   // lending above the approval or the amount asked
)

// Refusal is why a plan cannot be shown: one of the Reason constants and
// what was wrong, with figures but nothing about the patient.
type Refusal struct {
	Reason string
	Detail string
}

func (r *Refusal) Error() string { return r.Reason + ": " + r.Detail }

func refuse(reason, format string, args ...any) *Refusal {
	return &Refusal{Reason: reason, Detail: fmt.Sprintf(format, args...)}
}

// Bounds are what a plan must stay within: the amount the lender approved
// and the amount the patient asked plans for (0: no bound).
type Bounds struct {
	ApprovedCents  int64
	RequestedCents int64
}

// Settle completes a lender's plan and checks it: a plan whose figures do
// not agree is refused, and is never shown. A lender may state only the
// regular payment, the term and the total cost (down payment included);
// the schedule then has one payment a month of the term — or, for a
// deferred-interest promotion, as many suggested payments as pay it off —
// and its final payment is what the total leaves for it. The totals of the
// settled plan are the schedule's (PaymentPlan.Tally).
func Settle(p *chairside.PaymentPlan, b Bounds) *Refusal {
	if r := negative(p); r != nil {
		return r
	}
	stated := p.TotalCostCents
	complete(p, stated)
	if p.PaymentCount < 1 || p.MonthlyAmountCents < 1 || p.FinalPaymentCents < 1 || p.AmountFinancedCents < 1 {
		return refuse(ReasonMissing, "%d payments of %d, final %d, financing %d", p.PaymentCount,
			p.MonthlyAmountCents, p.FinalPaymentCents, p.AmountFinancedCents)
	}
	p.Tally()
	if p.TotalCostCents != stated {
		return refuse(ReasonSchedule, "%d payments of %d and a final %d with %d down make %d, not the %d stated",
			p.PaymentCount, p.MonthlyAmountCents, p.FinalPaymentCents, p.DownPaymentCents, p.TotalCostCents, stated)
	}
	return Check(p, b)
}

// complete fills the schedule a lender left out, from the total it stated.
func complete(p *chairside.PaymentPlan, stated int64) {
	owed := stated - p.DownPaymentCents
	if p.PaymentCount == 0 {
		p.PaymentCount = p.DurationMonths
		if p.TypeID == chairside.PlanDeferredInterest && p.MonthlyAmountCents > 0 {
			p.PaymentCount = int((owed + p.MonthlyAmountCents - 1) / p.MonthlyAmountCents)
		}
	}
	if p.FinalPaymentCents == 0 && p.PaymentCount > 0 {
		p.FinalPaymentCents = owed - p.MonthlyAmountCents*int64(p.PaymentCount-1)
	}
}

// negative refuses a plan with any figure below zero.
func negative(p *chairside.PaymentPlan) *Refusal {
	for _, c := range []int64{p.MonthlyAmountCents, p.FinalPaymentCents, p.TotalCostCents, p.AmountFinancedCents,
		p.DownPaymentCents, p.MinAmountCents, p.MaxAmountCents, int64(p.PaymentCount), int64(p.DurationMonths)} {
		if c < 0 {
			return refuse(ReasonMissing, "a negative figure (%d)", c)
		}
	}
	if p.APR < 0 || p.PromoAPR < 0 || math.IsNaN(p.APR) || math.IsNaN(p.PromoAPR) {
		return refuse(ReasonMissing, "a negative rate")
	}
	return nil
}

// Check is what every plan shown must satisfy, once its schedule is known
// (a settled plan, or one the sandbox built): the schedule adds up, ends
// within the term and has no balloon; a credit plan's stated rate is the
// schedule's, within APRTolerance; a lease states none and costs at least
// its cash price; and it lends within the bounds.
func Check(p *chairside.PaymentPlan, b Bounds) *Refusal {
	s := Schedule{Count: p.PaymentCount, Payment: p.MonthlyAmountCents, Final: p.FinalPaymentCents}
	if r := negative(p); r != nil {
		return r
	}
	if s.Count < 1 || s.Payment < 1 || s.Final < 1 || p.AmountFinancedCents < 1 {
		return refuse(ReasonMissing, "no schedule")
	}
	if s.Total() != p.TotalOfPaymentsCents || p.DownPaymentCents+s.Total() != p.TotalCostCents {
		return refuse(ReasonSchedule, "the payments make %d, the totals say %d and %d", s.Total(),
			p.TotalOfPaymentsCents, p.TotalCostCents)
	}
	if s.Count > 1 && s.Final > 2*s.Payment {
		return refuse(ReasonBalloon, "a final payment of %d after payments of %d", s.Final, s.Payment)
	}
	if s.Count > p.DurationMonths {
		return refuse(ReasonTerm, "%d payments in a %d-month term", s.Count, p.DurationMonths)
	}
	if r := checkRate(p, s); r != nil {
		return r
	}
	if b.ApprovedCents > 0 && p.AmountFinancedCents > b.ApprovedCents {
		return refuse(ReasonAmount, "financing %d of an approval of %d", p.AmountFinancedCents, b.ApprovedCents)
	}
	if b.RequestedCents > 0 && p.AmountFinancedCents+p.DownPaymentCents > b.RequestedCents {
		return refuse(ReasonAmount, "financing %d with %d down for %d asked", p.AmountFinancedCents, p.DownPaymentCents, b.RequestedCents)
	}
	return nil
}

// checkRate: a lease states no rate and is paid for at no less than its
// cash price; a credit plan's stated rate — a promotion's own rate for a
// deferred-interest plan, whose APR is the one charged if it is not paid
// in time — is the rate of its schedule.
func checkRate(p *chairside.PaymentPlan, s Schedule) *Refusal {
	if p.ProductType == chairside.ProductLease {
		if p.APR != 0 || p.PromoAPR != 0 {
			return refuse(ReasonLease, "a lease stating a rate")
		}
		if s.Total() < p.AmountFinancedCents {
			return refuse(ReasonLease, "payments of %d below the cash price %d", s.Total(), p.AmountFinancedCents)
		}
		return nil
	}
	stated := p.APR
	if p.TypeID == chairside.PlanDeferredInterest {
		stated = p.PromoAPR
	}
	got, ok := APR(p.AmountFinancedCents, s)
	if !ok {
		return refuse(ReasonAPR, "payments of %d repay less than the %d financed", s.Total(), p.AmountFinancedCents)
	}
	if math.Abs(got-stated) > APRTolerance {
		return refuse(ReasonAPR, "%.2f%% stated, %.3f%% from the schedule", stated, got)
	}
	return nil
}

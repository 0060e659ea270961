package sandbox

// The sandbox's maths: the terms a product offers and the plan each gives
// for an amount, worked out by the money engine (package money).

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/money"
)

// Payment calculations of a term.
const (
	calcDeferred = iota // max(amount/months, $30 or floor), no interest if paid in time
	calcLevel           // equal payments at the APR, the last one adjusted
	calcPercent         // a percent of the highest balance or a floor, until paid
	calcLease           // lease: cost of leasing spread over the months
)

// term is one payment plan a product offers.
type term struct {
	code        string
	typeID      string
	months      int
	apr         float64 // percent
	promoAPR    float64
	calc        int
	minCents    int64
	floorCents  int64   // calcDeferred, calcPercent: the smallest monthly payment
	percent     float64 // calcPercent: of the highest balance; calcLease: cost ratio
	productType string
	subLender   string
	description words // what the plan is, in the patient's words
}

// fixedRateAPRs are the card's fixed-rate plans' rates by term. The
// learn-how drawer's multipliers (docs/decisions.md, "Lenders") are the
// level-payment factors at these rates, so its estimate and the plan's
// own payment agree to about a cent.
var fixedRateAPRs = map[int]float64{24: 17.90, 36: 18.90, 48: 19.90, 60: 20.90}

// loanAPR is the APR of an installment loan by simulated score.
func loanAPR(score int) float64 {
	switch {
	case score >= 760:
		return 7.99
	case score >= 720:
		return 11.99
	case score >= 680:
		return 15.99
	case score >= 640:
		return 21.99
	case score >= 600:
		return 27.99
	}
	return 35.99
}

func deferred(abbr string, months int, apr float64, minCents int64) term {
	return term{
		code: fmt.Sprintf("%s-DI-%02d", abbr, months), typeID: chairside.PlanDeferredInterest, months: months,
		apr: apr, calc: calcDeferred, minCents: minCents, floorCents: 3000, productType: "bankloan",
		description: words{
			en: fmt.Sprintf("No interest if paid in full within %d months. If the full amount is not paid "+
				"by then, interest at %.2f%% APR is charged from the purchase date on the whole amount.", months, apr),
			es: fmt.Sprintf("Sin intereses si paga el total en %d meses. Si no paga el total para entonces, "+
				"se cobran intereses con una APR de %.2f%% sobre todo el monto desde la fecha de compra.", months, apr),
		},
	}
}

func fixedRate(abbr string, months int, minCents int64) term {
	apr := fixedRateAPRs[months]
	return term{
		code: fmt.Sprintf("%s-FR-%02d", abbr, months), typeID: chairside.PlanFixedRate, months: months,
		apr: apr, calc: calcLevel, minCents: minCents, productType: "bankloan",
		description: fixedRateWords(apr, months),
	}
}

func revolvingFixed(abbr string, months int, apr float64, minCents int64) term {
	return term{
		code: fmt.Sprintf("%s-FR-%02d", abbr, months), typeID: chairside.PlanFixedRate, months: months,
		apr: apr, calc: calcLevel, minCents: minCents, productType: "bankloan",
		description: fixedRateWords(apr, months),
	}
}

// fixedRateWords describes a fixed-rate plan.
func fixedRateWords(apr float64, months int) words {
	return words{
		en: fmt.Sprintf("Fixed rate of %.2f%% APR with equal monthly payments for %d months.", apr, months),
		es: fmt.Sprintf("Tasa fija con una APR de %.2f%% y pagos mensuales iguales durante %d meses.", apr, months),
	}
}

func installments(abbr string, months []int, apr float64, minCents int64, productType string) []term {
	var ts []term
	for _, m := range months {
		ts = append(ts, term{
			code: fmt.Sprintf("%s-IL-%02d", abbr, m), typeID: chairside.PlanFixedInstallmentLoan, months: m,
			apr: apr, calc: calcLevel, minCents: minCents, productType: productType,
			description: words{
				en: fmt.Sprintf("Fixed monthly payments for %d months at %.2f%% APR. No penalty for paying early.", m, apr),
				es: fmt.Sprintf("Pagos mensuales fijos durante %d meses con una APR de %.2f%%. Sin penalidad por pagar antes.", m, apr),
			},
		})
	}
	return ts
}

// Plans lists the plans of a positive decision for an amount: every plan of
// the product, each computed for the smaller of the amount and the approved
// amount, so the browser can flag those that do not cover the amount. The
// approved amount, down payment and score come from the lenderApplicationId;
// the request's ApprovedAmountCents can only lower the approval.
func (l *lender) Plans(ctx context.Context, req *chairside.PlansRequest) ([]chairside.PaymentPlan, error) {
	if err := l.begin(ctx, OpPlans, ""); err != nil {
		return nil, err
	}
	r, err := l.find(req.LenderRef)
	if err != nil {
		return nil, err
	}
	lang := language(req.Language)
	d := l.answer(lang, req.LenderRef, r, true)
	if !chairside.Positive(d.ResponseCode) {
		return nil, chairside.Errorf(chairside.ECONFLICT, "There is no offer to choose a plan for.")
	}
	// The lender's own approval bounds the plans, whatever the caller says.
	approved := d.ApprovedAmountCents
	if req.ApprovedAmountCents > 0 {
		approved = min(approved, req.ApprovedAmountCents)
	}
	financed := approved
	if req.AmountCents > 0 {
		financed = min(req.AmountCents, approved)
	}
	now := req.Now
	if now.IsZero() {
		now = time.Now()
	}
	expires := now.AddDate(0, 0, l.p.PreauthExpireDays)

	// The down payment is paid today and comes off the treatment: the plan
	// finances the rest (never below zero), its payments are worked out on
	// that, and its total is everything the patient pays — down payment
	// plus payments.
	down := min(d.DownPaymentCents, financed)
	var plans []chairside.PaymentPlan
	for _, t := range l.prod.terms(r.score) {
		plan := t.compute(financed - down)
		plan.Description = t.description.in(lang)
		plan.LenderKey = l.p.Key
		plan.ExpireDateTime = expires
		plan.MaxAmountCents = approved
		plan.DownPaymentCents = down
		plan.Tally()
		plans = append(plans, plan)
	}
	if r.outcome == OutcomeBadPlan && len(plans) > 0 {
		plans[0].TotalCostCents += 1_000 // the figures no longer agree
	}
	return plans, nil
}

// compute works out a term's schedule for an amount with the money
// engine (docs/money.md), described in English (Plans puts in the words of
// the call's language).
func (t term) compute(amount int64) chairside.PaymentPlan {
	plan := chairside.PaymentPlan{
		TypeID: t.typeID, LenderPlanCode: t.code, DurationMonths: t.months, APR: t.apr, PromoAPR: t.promoAPR,
		Description: t.description.en, MinAmountCents: t.minCents, AmountFinancedCents: amount,
		ProductType: t.productType, SubLenderID: t.subLender,
	}
	var s money.Schedule
	switch t.calc {
	case calcDeferred:
		// The suggested payment clears the balance within the promotion,
		// and no sooner than it must: the last payment is what is left.
		suggested := max(ceilDiv(amount, int64(t.months)), t.floorCents)
		if t.percent > 0 {
			suggested = max(suggested, ceilDiv(amount*int64(t.percent*100), 10_000))
		}
		s = money.PayDown(amount, 0, suggested)
	case calcLevel:
		s = money.Level(amount, t.apr, t.months)
	case calcPercent:
		// A revolving account paid at its minimum until paid off: the
		// plan's term is how long that takes.
		s = money.PayDown(amount, t.apr, max(ceilDiv(amount*int64(t.percent*100), 10_000), t.floorCents))
		plan.DurationMonths = s.Count
	case calcLease:
		// The cost of ownership spread evenly; a lease states no APR.
		s = money.Spread(int64(math.Ceil(float64(amount)*t.percent)), t.months)
	}
	plan.PaymentCount, plan.MonthlyAmountCents, plan.FinalPaymentCents = s.Count, s.Payment, s.Final
	plan.Tally()
	return plan
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

func roundUp100(cents int64) int64 { return ceilDiv(cents, 10_000) * 10_000 }

func clamp(v, lo, hi int64) int64 { return max(lo, min(v, hi)) }

package sandbox

import (
	"context"
	"fmt"
	"math"
	"sync"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/locale"
	"github.com/chairside/chairside/money"
	"github.com/chairside/chairside/provider"
)

// product is how one sandbox lender decides and what it offers. Amounts are
// integer cents; floats appear only in rate maths, rounded explicitly.
type product struct {
	abbr     string // in application ids and plan codes
	minScore int    // lowest simulated score it approves
	minCents int64  // smallest line or loan it grants
	maxCents int64  // largest
	// loan products lend the purchase amount (up to capacity); cards grant
	// a credit line from income and score alone.
	loan           bool
	minIncomeCents int64
	pendingReasons []string
	// downPayment returns the down payment required for a score and an
	// amount, 0 when none.
	downPayment func(score int, amountCents int64) int64
	// offered names the sub-lender whose offer this is, "" for the
	// provider's own.
	offered func(score int) string
	terms   func(score int) []term

	codesOnce sync.Once
	codes     []string
}

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

// products are the eleven sandbox lenders, by provider key.
var products = map[string]*product{
	provider.Synchrony: {
		abbr: "SYN", minScore: 680, minCents: 50_000, maxCents: 2_500_000,
		pendingReasons: []string{"identity_verification"},
		terms: func(int) []term {
			return []term{
				deferred("SYN", 6, 29.99, 20_000), deferred("SYN", 12, 29.99, 40_000),
				deferred("SYN", 18, 29.99, 100_000), deferred("SYN", 24, 29.99, 150_000),
				fixedRate("SYN", 24, 100_000), fixedRate("SYN", 36, 150_000),
				fixedRate("SYN", 48, 200_000), fixedRate("SYN", 60, 250_000),
			}
		},
	},
	provider.ADS: {
		abbr: "ADS", minScore: 680, minCents: 50_000, maxCents: 2_500_000,
		pendingReasons: []string{"identity_verification"},
		terms: func(int) []term {
			return []term{
				deferred("ADS", 6, 26.99, 20_000), deferred("ADS", 12, 26.99, 40_000),
				deferred("ADS", 18, 26.99, 100_000), deferred("ADS", 24, 26.99, 150_000),
				fixedRate("ADS", 24, 100_000), fixedRate("ADS", 36, 150_000),
				fixedRate("ADS", 48, 200_000), fixedRate("ADS", 60, 250_000),
			}
		},
	},
	provider.Fortiva: {
		abbr: "FOR", minScore: 580, minCents: 30_000, maxCents: 1_000_000,
		pendingReasons: []string{"identity_verification"},
		terms: func(int) []term {
			return []term{
				revolvingFixed("FOR", 12, 27.99, 30_000),
				revolvingFixed("FOR", 18, 29.99, 60_000),
				revolvingFixed("FOR", 30, 31.99, 100_000),
			}
		},
	},
	provider.Genesis: {
		abbr: "GEN", minScore: 580, minCents: 30_000, maxCents: 1_000_000,
		pendingReasons: []string{"identity_verification"},
		terms: func(int) []term {
			return []term{
				deferred("GEN", 6, 32.99, 20_000), deferred("GEN", 12, 32.99, 40_000),
				revolvingFixed("GEN", 18, 29.99, 60_000),
			}
		},
	},
	provider.Vive: {
		abbr: "VIV", minScore: 580, minCents: 30_000, maxCents: 1_000_000,
		pendingReasons: []string{"identity_verification"},
		terms: func(int) []term {
			// Minimums keep amount/months above the $25 floor, so the
			// suggested payment clears the balance in the promotion.
			di := func(months int, minCents int64) term {
				t := deferred("VIV", months, 29.99, minCents)
				t.floorCents, t.percent = 2500, 4
				return t
			}
			return []term{
				di(6, 20_000), di(12, 30_000),
				{code: "VIV-REV", typeID: chairside.PlanFixedRate, apr: 29.99, calc: calcPercent, minCents: 30_000,
					floorCents: 2500, percent: 4, productType: "bankloan",
					description: words{
						en: "Pay 4% of your highest balance or $25 a month, whichever is greater, at 29.99% APR " +
							"until paid off. Paying more saves interest.",
						es: "Pague el 4% de su saldo más alto o $25 al mes, lo que sea mayor, con una APR de 29.99% " +
							"hasta terminar de pagar. Si paga más, paga menos intereses.",
					}},
			}
		},
	},
	provider.AFF: {
		abbr: "AFF", minScore: 550, minCents: 30_000, maxCents: 500_000, loan: true,
		pendingReasons: []string{"identity_verification"},
		downPayment: func(score int, _ int64) int64 {
			if score < 640 {
				return 5000 // $50, the provider's maximum
			}
			return 0
		},
		terms: func(score int) []term {
			apr := 29.99
			if score >= 700 {
				apr = 9.99
			} else if score >= 640 {
				apr = 19.99
			}
			return installments("AFF", []int{12, 18, 24, 36}, apr, 30_000, "ric")
		},
	},
	provider.Snap: {
		abbr: "SNP", minScore: 520, minCents: 30_000, maxCents: 500_000, loan: true, minIncomeCents: 1_200_000,
		pendingReasons: []string{"bank_verification"},
		downPayment: func(score int, _ int64) int64 {
			if score < 600 {
				return 4900 // the lease's initial payment
			}
			return 0
		},
		terms: func(int) []term {
			// A lease is not credit: it carries no APR and no "no interest"
			// promotion. Its price is the cost of ownership (the total of its
			// payments), and the early purchase option lets the patient buy
			// for the cash price within 101 days.
			lease := term{code: "SNP-LTO-12", typeID: chairside.PlanFixedInstallmentLoan, months: 12, calc: calcLease,
				percent: 1.85, minCents: 30_000, productType: chairside.ProductLease,
				description: words{
					en: "Lease-to-own over 12 months, paid from your checking account on your paydays. " +
						"The cost of ownership is more than the cash price; use the early purchase option to pay less.",
					es: "Arrendamiento con opción a compra durante 12 meses, pagado desde su cuenta de cheques en sus días de pago. " +
						"El costo de propiedad es mayor que el precio de contado; use la opción de compra anticipada para pagar menos.",
				}}
			sac := term{code: "SNP-SAC-101", typeID: chairside.PlanFixedInstallmentLoan, months: 3, calc: calcDeferred,
				minCents: 30_000, productType: chairside.ProductLease,
				description: words{
					en: "Early purchase option: pay the cash price within 101 days and own it with nothing more to pay. " +
						"After 101 days the lease's full cost of ownership applies. Payments come from your checking account.",
					es: "Opción de compra anticipada: pague el precio de contado dentro de 101 días y el tratamiento será suyo, sin nada más que pagar. " +
						"Después de 101 días se aplica el costo de propiedad completo del arrendamiento. Los pagos se hacen desde su cuenta de cheques.",
				}}
			return []term{sac, lease}
		},
	},
	provider.HFD: {
		abbr: "HFD", minScore: 560, minCents: 50_000, maxCents: 1_000_000, loan: true,
		pendingReasons: []string{"additional_documents_needed"},
		downPayment: func(_ int, amount int64) int64 {
			// 10% of the amount, in whole $10, at least $100.
			return max(10_000, ceilDiv(amount, 10*1000)*1000)
		},
		terms: func(score int) []term {
			apr := 16.99
			if score < 620 {
				apr = 22.99
			}
			ts := installments("HFD", []int{6, 12}, 0, 50_000, "risa")
			for i := range ts {
				ts[i].description = words{
					en: fmt.Sprintf("No interest: %d equal monthly payments after your down payment.", ts[i].months),
					es: fmt.Sprintf("Sin intereses: %d pagos mensuales iguales después de su pago inicial.", ts[i].months),
				}
			}
			return append(ts, installments("HFD", []int{18, 24, 36}, apr, 100_000, "risa")...)
		},
	},
	provider.Proceed: {
		abbr: "PRO", minScore: 600, minCents: 100_000, maxCents: 5_000_000, loan: true,
		pendingReasons: []string{"esign"},
		offered: func(score int) string {
			if score < 680 {
				return "cedarline"
			}
			return ""
		},
		terms: func(score int) []term {
			ts := installments("PRO", []int{12, 24, 36, 48, 60, 84}, loanAPR(score), 100_000, "bankloan")
			return append(ts,
				term{code: "PRO-HAR-NI-12", typeID: chairside.PlanSubLenderNoInterest, months: 12, calc: calcLevel,
					minCents: 100_000, productType: "bankloan", subLender: "harbor",
					description: words{
						en: "No interest: 12 equal monthly payments, from Harbor Community Bank.",
						es: "Sin intereses: 12 pagos mensuales iguales, con Harbor Community Bank.",
					}},
				term{code: "PRO-CED-PR-24", typeID: chairside.PlanSubLenderPromotionalRate, months: 24, apr: 5.99,
					calc: calcLevel, minCents: 150_000, productType: "bankloan", subLender: "cedarline",
					description: words{
						en: "Promotional rate of 5.99% APR for 24 months, from Cedarline Credit Union.",
						es: "Tasa promocional con una APR de 5.99% durante 24 meses, con Cedarline Credit Union.",
					}},
			)
		},
	},
	provider.LendingClub: {
		abbr: "LC", minScore: 640, minCents: 100_000, maxCents: 5_000_000, loan: true,
		pendingReasons: []string{"verify_email"},
		terms: func(score int) []term {
			return installments("LC", []int{12, 24, 36, 48, 60, 72, 84}, loanAPR(score), 100_000, "bankloan")
		},
	},
	provider.CoveredCare: {
		abbr: "CC", minScore: 600, minCents: 50_000, maxCents: 2_500_000, loan: true,
		pendingReasons: []string{"identity_verification"},
		terms: func(score int) []term {
			apr := loanAPR(score) - 2 // a little below the banks: payments come from the practice's partner
			return installments("CC", []int{12, 24, 36, 48, 60}, math.Round(apr*100)/100, 50_000, "fixed_installment_loan")
		},
	},
}

// positiveCode is the positive response of an operation.
func (p *product) positiveCode(op string) string {
	if op == "apply" {
		return chairside.ResponseApproved
	}
	return chairside.ResponsePrequalified
}

// planCodes lists every plan code the product can offer.
func (p *product) planCodes() []string {
	p.codesOnce.Do(func() {
		for _, score := range []int{500, 850} {
			for _, t := range p.terms(score) {
				p.codes = append(p.codes, t.code)
			}
		}
	})
	return p.codes
}

// decide works out an application: a forced outcome, or one from the
// profile. It returns the outcome as an id records it (one of idOutcomes;
// a simulated positive decision is OutcomeApproved, which answers
// prequalified in a prequalify or prescreen), the amount approved (for
// pending-then-approved, the amount the approval will carry) and the down
// payment required, 0 for none.
func (p *product) decide(outcome string, prof profile, purchase int64) (result string, amountCents, downCents int64) {
	// A down payment is a share of the treatment the patient is buying, not
	// of the approval: a $5,000 approval for a $600 treatment asks a tenth
	// of $600. Without a treatment amount, the approval stands in for it.
	down := func(amount int64) int64 {
		if p.downPayment == nil {
			return 0
		}
		if purchase > 0 {
			amount = purchase
		}
		return max(0, p.downPayment(prof.score, amount))
	}
	// A forced approval covers the purchase, at least $5,000, within bounds.
	forced := clamp(roundUp100(max(purchase, 500_000)), p.minCents, p.maxCents)

	switch outcome {
	case OutcomeApproved, chairside.ResponsePrequalified, chairside.ResponsePreapproved, OutcomeExisting, OutcomeExpired, OutcomeBadPlan:
		return outcome, forced, down(forced)
	case OutcomeExistingLowLimit:
		return outcome, LowLimitCents, down(LowLimitCents)
	case OutcomeDeclined, OutcomeNoOffer, OutcomeError, OutcomePending, OutcomeUnderReview, OutcomePendingReview:
		return outcome, 0, 0
	case OutcomePendingThenApproved, OutcomePendingIncome:
		// Keep the amount the approval will carry.
		return outcome, forced, 0
	}

	// The simulated credit decision.
	if purchase > 0 && purchase < p.minCents && p.loan {
		return OutcomeNoOffer, 0, 0 // too small to finance
	}
	if prof.score < p.minScore || prof.incomeCents < p.minIncomeCents {
		return OutcomeDeclined, 0, 0
	}
	capacity := prof.incomeCents * int64(capacityPercent(prof.score)) / 100
	amount := min(capacity, p.maxCents)
	if p.loan && purchase > 0 {
		amount = min(amount, roundUp100(purchase))
	}
	amount = amount / 10_000 * 10_000 // whole $100
	if amount < p.minCents {
		return OutcomeDeclined, 0, 0
	}
	return OutcomeApproved, amount, down(amount)
}

// answer fills a decision's outcome from an application record (see
// lender.answer): the response code, amounts, stipulations and pending
// reasons, all derived from the record and the product; what the
// stipulations ask is in lang.
func (p *product) answer(d *chairside.Decision, r record, settled bool, lang locale.Language) {
	switch r.outcome {
	case OutcomeApproved, chairside.ResponsePrequalified, chairside.ResponsePreapproved, OutcomeExisting, OutcomeExpired, OutcomeExistingLowLimit,
		OutcomeBadPlan:
		d.ResponseCode = p.positiveCode(d.Operation)
		d.ApprovedAmountCents = r.approvedCents
		if r.downCents > 0 {
			d.DownPaymentRequired, d.DownPaymentCents = true, r.downCents
		}
		if p.offered != nil {
			d.OfferedProviderID = p.offered(r.score)
		}
		if p == products[provider.Snap] {
			d.Stipulations = append(d.Stipulations, chairside.Stipulation{
				ID: "STIP-SNP-BANK", Type: "bank_account", Status: "open",
				Description: stipulationWords["bank_account"].in(lang),
			})
		}
		switch r.outcome {
		case chairside.ResponsePrequalified, chairside.ResponsePreapproved:
			d.ResponseCode = r.outcome
		case OutcomeExisting, OutcomeExistingLowLimit:
			d.ResponseCode = chairside.ResponseApproved
			d.ExistingAccount = true
		}
	case OutcomePendingThenApproved:
		d.ApprovedAmountCents = r.approvedCents
		if settled {
			d.ResponseCode = p.positiveCode(d.Operation)
			return
		}
		p.pending(d, lang)
	case OutcomePending:
		p.pending(d, lang)
	case OutcomePendingIncome:
		// The amount the approval will carry once the income is in.
		d.ApprovedAmountCents = r.approvedCents
		pendingFor(d, p.abbr, lang, ReasonIncome)
	case OutcomeUnderReview:
		pendingFor(d, p.abbr, lang, ReasonRedFlag)
	case OutcomePendingReview:
		pendingFor(d, p.abbr, lang, "identity_verification")
	default: // declined, nooffer, error
		d.ResponseCode = r.outcome
	}
}

// pending makes a decision pending for the product's reasons.
func (p *product) pending(d *chairside.Decision, lang locale.Language) {
	pendingFor(d, p.abbr, lang, p.pendingReasons...)
}

// Pending reasons of the outcomes that do not follow the product's own.
const (
	// ReasonIncome asks for the patient's verified income: its stipulation
	// has the type of the patch that answers it (chairside.PatchIncome).
	ReasonIncome = "income_verification"
	// ReasonRedFlag: the lender's fraud and identity team is reviewing the
	// application. Nothing is asked of the patient, so no stipulation.
	ReasonRedFlag = "red_flag"
)

// pendingFor makes a decision pending for reasons, each but red_flag with
// the stipulation that says, in lang, what the lender waits for.
func pendingFor(d *chairside.Decision, abbr string, lang locale.Language, reasons ...string) {
	d.ResponseCode = chairside.ResponsePending
	for _, r := range reasons {
		d.PendingReasons = append(d.PendingReasons, r)
		if r == ReasonRedFlag {
			continue
		}
		typ := r
		if r == ReasonIncome {
			typ = chairside.PatchIncome
		}
		d.Stipulations = append(d.Stipulations, chairside.Stipulation{
			ID: "STIP-" + abbr + "-" + r, Type: typ, Status: "pending", Description: stipulationWords[r].in(lang),
		})
	}
}

// capacityPercent is the share of yearly income a lender will lend by score.
func capacityPercent(score int) int {
	switch {
	case score >= 760:
		return 25
	case score >= 720:
		return 20
	case score >= 680:
		return 15
	case score >= 640:
		return 12
	case score >= 600:
		return 10
	}
	return 8
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
	r, err := l.find(req.LenderApplicationID)
	if err != nil {
		return nil, err
	}
	lang := language(ctx)
	d := l.answer(lang, req.LenderApplicationID, r, true)
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
		plan.ProviderKey = l.p.Key
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
		TypeID: t.typeID, ProviderPlanCode: t.code, DurationMonths: t.months, APR: t.apr, PromoAPR: t.promoAPR,
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

package sandbox

// The sandbox's data: each of its eleven lenders as a product — what it
// approves, how much, and the plans it offers. How a product decides is in
// rules.go; how a plan's payments are worked out, in plans.go.

import (
	"fmt"
	"math"
	"sync"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
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
	// lender's own.
	offered func(score int) string
	terms   func(score int) []term

	codesOnce sync.Once
	codes     []string
}

// products are the eleven sandbox lenders, by lender key.
var products = map[string]*product{
	catalogue.Synchrony: {
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
	catalogue.ADS: {
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
	catalogue.Fortiva: {
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
	catalogue.Genesis: {
		abbr: "GEN", minScore: 580, minCents: 30_000, maxCents: 1_000_000,
		pendingReasons: []string{"identity_verification"},
		terms: func(int) []term {
			return []term{
				deferred("GEN", 6, 32.99, 20_000), deferred("GEN", 12, 32.99, 40_000),
				revolvingFixed("GEN", 18, 29.99, 60_000),
			}
		},
	},
	catalogue.Vive: {
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
	catalogue.AFF: {
		abbr: "AFF", minScore: 550, minCents: 30_000, maxCents: 500_000, loan: true,
		pendingReasons: []string{"identity_verification"},
		downPayment: func(score int, _ int64) int64 {
			if score < 640 {
				return 5000 // $50, the lender's maximum
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
	catalogue.Snap: {
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
	catalogue.HFD: {
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
	catalogue.Proceed: {
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
	catalogue.LendingClub: {
		abbr: "LC", minScore: 640, minCents: 100_000, maxCents: 5_000_000, loan: true,
		pendingReasons: []string{"verify_email"},
		terms: func(score int) []term {
			return installments("LC", []int{12, 24, 36, 48, 60, 72, 84}, loanAPR(score), 100_000, "bankloan")
		},
	},
	catalogue.CoveredCare: {
		abbr: "CC", minScore: 600, minCents: 50_000, maxCents: 2_500_000, loan: true,
		pendingReasons: []string{"identity_verification"},
		terms: func(score int) []term {
			apr := loanAPR(score) - 2 // a little below the banks: payments come from the practice's partner
			return installments("CC", []int{12, 24, 36, 48, 60}, math.Round(apr*100)/100, 50_000, "fixed_installment_loan")
		},
	},
}

// positiveCode is the positive response of an operation.

package chairside

import "time"

// Plan types (docs/behaviour.md, "Plans and offers").
const (
	PlanFixedRate                = "fixed_rate"
	PlanDeferredInterest         = "deferred_interest"
	PlanFixedInstallmentLoan     = "fixed_installment_loan"
	PlanSubLenderNoInterest      = "sub_lender_no_interest"
	PlanSubLenderPromotionalRate = "sub_lender_promotional_rate"

	// ProductLease marks a lease-to-own plan (PaymentPlan.ProductType): not
	// credit, so shown by its cost of ownership and early purchase option,
	// never by an APR.
	ProductLease = "lease"
)

// PaymentPlan is one way to pay an approved amount back. A plan's numbers
// come from the lender only: the browser can pick a plan by code, never set
// its terms. Before a patient sees one, the money package checks that its
// figures agree (docs/money.md).
//
// The schedule is PaymentCount payments: MonthlyAmountCents each, except
// the last, FinalPaymentCents, which carries the rounding. Its sum is
// TotalOfPaymentsCents; TotalCostCents adds the down payment paid today.
type PaymentPlan struct {
	LenderKey      string `json:"providerKey"`
	TypeID         string `json:"typeId"`
	LenderPlanCode string `json:"providerPlanCode"`
	// DurationMonths is the plan's term: for a deferred-interest promotion,
	// the promotional period, which the suggested payments may end before.
	DurationMonths       int   `json:"durationMonths"`
	MonthlyAmountCents   int64 `json:"monthlyAmountCents"`
	PaymentCount         int   `json:"paymentCount"`
	FinalPaymentCents    int64 `json:"finalPaymentCents"`
	TotalOfPaymentsCents int64 `json:"totalOfPaymentsCents"`
	// FinanceChargeCents is the cost of the credit in dollars; 0 for a lease.
	FinanceChargeCents int64 `json:"financeChargeCents"`
	TotalCostCents     int64 `json:"totalCostCents"`
	// APR is the annual percentage rate in percent (26.99), shown with two
	// decimals. For deferred-interest promotions it is the rate charged if
	// the promotion is not paid off in time.
	APR            float64   `json:"apr"`
	PromoAPR       float64   `json:"promoApr"`
	Description    string    `json:"description"`
	ExpireDateTime time.Time `json:"expireDateTime"`
	MinAmountCents int64     `json:"minAmountCents"`
	MaxAmountCents int64     `json:"maxAmountCents"`
	// AmountFinancedCents is what the plan lends, the down payment taken
	// off; for a lease, the cash price of what is leased.
	AmountFinancedCents int64  `json:"amountFinancedCents"`
	DownPaymentCents    int64  `json:"downPaymentCents"`
	ProductType         string `json:"productType,omitempty"` // bankloan, ric, risa, fixed_installment_loan, lease
	SubLenderID         string `json:"subLenderId,omitempty"`
}

// Tally fills the figures that follow from the schedule: the total of
// payments, the finance charge (none for a lease) and the total cost.
func (p *PaymentPlan) Tally() {
	p.TotalOfPaymentsCents = 0
	if p.PaymentCount > 0 {
		p.TotalOfPaymentsCents = p.MonthlyAmountCents*int64(p.PaymentCount-1) + p.FinalPaymentCents
	}
	p.FinanceChargeCents = 0
	if p.ProductType != ProductLease {
		p.FinanceChargeCents = p.TotalOfPaymentsCents - p.AmountFinancedCents
	}
	p.TotalCostCents = p.DownPaymentCents + p.TotalOfPaymentsCents
}

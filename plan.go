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
// its terms.
type PaymentPlan struct {
	ProviderKey        string `json:"providerKey"`
	TypeID             string `json:"typeId"`
	ProviderPlanCode   string `json:"providerPlanCode"`
	DurationMonths     int    `json:"durationMonths"`
	MonthlyAmountCents int64  `json:"monthlyAmountCents"`
	TotalCostCents     int64  `json:"totalCostCents"`
	// APR is the annual percentage rate in percent (26.99), shown with two
	// decimals. For deferred-interest promotions it is the rate charged if
	// the promotion is not paid off in time.
	APR                 float64   `json:"apr"`
	PromoAPR            float64   `json:"promoApr"`
	Description         string    `json:"description"`
	ExpireDateTime      time.Time `json:"expireDateTime"`
	MinAmountCents      int64     `json:"minAmountCents"`
	MaxAmountCents      int64     `json:"maxAmountCents"`
	AmountFinancedCents int64     `json:"amountFinancedCents"`
	DownPaymentCents    int64     `json:"downPaymentCents"`
	ProductType         string    `json:"productType,omitempty"` // bankloan, ric, risa, fixed_installment_loan, lease
	SubLenderID         string    `json:"subLenderId,omitempty"`
}

package chairside

import "time"

// Decision response codes (spec §4.1).
const (
	ResponseApproved     = "approved"
	ResponseDeclined     = "declined"
	ResponseError        = "error"
	ResponseNoOffer      = "nooffer"
	ResponsePending      = "pending"
	ResponsePreapproved  = "preapproved"
	ResponsePrequalified = "prequalified"
)

// Positive reports whether a response code is an offer the patient can take.
func Positive(responseCode string) bool {
	return responseCode == ResponseApproved || responseCode == ResponsePreapproved || responseCode == ResponsePrequalified
}

// Cascades reports whether a response code sends the patient on to the next
// lender of the waterfall.
func Cascades(responseCode string) bool {
	return responseCode == ResponseDeclined || responseCode == ResponseNoOffer || responseCode == ResponseError
}

// Provider application statuses: where one lender's part of an application
// stands. Steps run in this order; the store refuses a change made from a
// stale version, so two parallel requests cannot both move a step. A status
// that a lender step proves (decided, offer_accepted, signed, completed) is
// written only in the transaction that records the proof.
const (
	StatusStarted       = "started"        // fields sent, nothing submitted
	StatusDecided       = "decided"        // a decision is recorded
	StatusPlanSelected  = "plan_selected"  // the patient picked a plan
	StatusPlanConfirmed = "plan_confirmed" // the patient confirmed it
	StatusOfferAccepted = "offer_accepted" // acceptOffer went through
	StatusSigned        = "signed"         // e-consent and signature recorded
	StatusCompleted     = "completed"      // the lender completed the account
)

// ProviderApplication is one lender's part of an application.
type ProviderApplication struct {
	ID                  string `json:"-"`
	ApplicationID       string `json:"-"`
	ProviderKey         string `json:"providerKey"`
	Role                string `json:"role"`
	ApplyMode           string `json:"applyMode"`
	Status              string `json:"status"`
	LenderApplicationID string `json:"lenderApplicationId,omitempty"`
	// Decision is the latest decision, if any.
	Decision *Decision `json:"decision,omitempty"`
	// SelectedPlanCode is the providerPlanCode of the chosen plan.
	SelectedPlanCode string `json:"selectedPlanCode,omitempty"`
	// InFlight names the lender step being asked right now (a Step…
	// constant), "" when none: while it is set no other step may start.
	InFlight string `json:"-"`
	// Version increases with every update; updates from a stale version fail
	// with ECONFLICT.
	Version   int       `json:"-"`
	CreatedAt time.Time `json:"-"`
	UpdatedAt time.Time `json:"-"`
}

// Decision is a lender's answer to a prequalify, prescreen or apply.
type Decision struct {
	ID                    string        `json:"-"`
	ProviderApplicationID string        `json:"-"`
	ProviderKey           string        `json:"providerKey"`
	Operation             string        `json:"operation"` // prequalify, prescreen, apply
	ResponseCode          string        `json:"responseCode"`
	ApprovedAmountCents   int64         `json:"approvedAmountCents"`
	Stipulations          []Stipulation `json:"stipulations"`
	PendingReasons        []string      `json:"pendingReasons"`
	DownPaymentRequired   bool          `json:"downPaymentRequired"`
	DownPaymentCents      int64         `json:"downPaymentCents,omitempty"`
	ExistingAccount       bool          `json:"existingAccount"`
	LenderApplicationID   string        `json:"lenderApplicationId,omitempty"`
	// OfferedProviderID names a sub-lender when the offer is not the
	// provider's own (proceed's partners).
	OfferedProviderID string     `json:"offeredProviderId,omitempty"`
	ExpiresAt         *time.Time `json:"expiresAt,omitempty"`
	CreatedAt         time.Time  `json:"-"`
}

// Stipulation is something a lender needs before it funds (an ID check, a
// verified email …).
type Stipulation struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Status      string `json:"status"`
}

// Plan types (spec §3).
const (
	PlanFixedRate                = "fixed_rate"
	PlanDeferredInterest         = "deferred_interest"
	PlanFixedInstallmentLoan     = "fixed_installment_loan"
	PlanSubLenderNoInterest      = "sub_lender_no_interest"
	PlanSubLenderPromotionalRate = "sub_lender_promotional_rate"
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
	ProductType         string    `json:"productType,omitempty"` // bankloan, ric, risa, fixed_installment_loan
	SubLenderID         string    `json:"subLenderId,omitempty"`
}

// Document is something shown to a patient: disclosures, an agreement, the
// e-sign consent. SHA256 is the hash of exactly Content, recorded with every
// consent so the record proves what was shown even after a template changes.
type Document struct {
	ID          string `json:"id"`
	Version     string `json:"version"`
	Title       string `json:"title"`
	ContentType string `json:"contentType"` // text/html or text/plain
	Content     string `json:"content"`
	SHA256      string `json:"sha256"`
	URL         string `json:"url,omitempty"`
}

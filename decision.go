package chairside

import "time"

// Decision response codes (docs/behaviour.md, "Decision routing").
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

// Decision is a lender's answer to a prequalify, prescreen or apply.
type Decision struct {
	ID                  string        `json:"-"`
	LenderApplicationID string        `json:"-"`
	LenderKey           string        `json:"providerKey"`
	Operation           string        `json:"operation"` // prequalify, prescreen, apply
	ResponseCode        string        `json:"responseCode"`
	ApprovedAmountCents int64         `json:"approvedAmountCents"`
	Stipulations        []Stipulation `json:"stipulations"`
	PendingReasons      []string      `json:"pendingReasons"`
	DownPaymentRequired bool          `json:"downPaymentRequired"`
	DownPaymentCents    int64         `json:"downPaymentCents,omitempty"`
	ExistingAccount     bool          `json:"existingAccount"`
	LenderRef           string        `json:"lenderApplicationId,omitempty"`
	// OfferedLenderID names a sub-lender when the offer is not the
	// lender's own (proceed's partners).
	OfferedLenderID string     `json:"offeredProviderId,omitempty"`
	ExpiresAt       *time.Time `json:"expiresAt,omitempty"`
	CreatedAt       time.Time  `json:"-"`
}

// Stipulation is something a lender needs before it funds (an ID check, a
// verified email …).
type Stipulation struct {
	ID          string `json:"id"`
	Type        string `json:"type"`
	Description string `json:"description"`
	Status      string `json:"status"`
	// State is Status in the patient's terms — waiting (for the patient),
	// received or done — set by the server from the lender's word
	// (flow/stipulation.go).
	State string `json:"state,omitempty"`
}

package chairside

import "time"

// FlowTokenTTL is how long an office-issued flow token stays usable.
const FlowTokenTTL = 24 * time.Hour

// FlowToken is a single-use, expiring invitation for one patient at one
// location, encoded in the QR code shown in the office as
// /start/tokens/{token}. Only a hash of the token is stored.
type FlowToken struct {
	// Hash is the hex SHA-256 of the token; the token itself is never stored.
	Hash                   string     `json:"-"`
	LocationID             string     `json:"locationId"`
	PurchaseAmountCents    int64      `json:"purchaseAmountCents"`
	InsuranceBenefitsCents int64      `json:"insuranceBenefitsCents"`
	FirstName              string     `json:"firstName,omitempty"`
	LastName               string     `json:"lastName,omitempty"`
	ExperienceType         string     `json:"experienceType"`
	ExpiresAt              time.Time  `json:"expiresAt"`
	UsedAt                 *time.Time `json:"usedAt,omitempty"`
	CreatedAt              time.Time  `json:"createdAt"`
}

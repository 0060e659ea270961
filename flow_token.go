package chairside

import "time"

// FlowTokenTTL is how long an office-issued flow token stays usable.
const FlowTokenTTL = 24 * time.Hour

// FlowToken is a single-use, expiring invitation for one patient at one
// location, encoded in the QR code shown in the office as
// /start/tokens/{token}. Only a hash of the token is stored.
//
// Tokens made from the office screen are the office's invitations
// (docs/behaviour.md, "The office side"): they have an ID to address them
// by, the staff member who made them, and may be canceled, which spends
// them exactly as a use does.
type FlowToken struct {
	// Hash is the hex SHA-256 of the token; the token itself is never stored.
	Hash string `json:"-"`
	// ID names an office invitation; "" for tokens made on the command line.
	ID                     string `json:"-"`
	StaffID                string `json:"-"`
	LocationID             string `json:"locationId"`
	PurchaseAmountCents    int64  `json:"purchaseAmountCents"`
	InsuranceBenefitsCents int64  `json:"insuranceBenefitsCents"`
	// The patient's name and where the office sent the link: personal
	// data, sealed at rest.
	FirstName      string `json:"firstName,omitempty"`
	LastName       string `json:"lastName,omitempty"`
	MobilePhone    string `json:"-"`
	Email          string `json:"-"`
	ExperienceType string `json:"experienceType"`
	// Language is the invitation's language ("en", "es"): its text and
	// email are in it, and the patient's form opens in it.
	Language string `json:"language,omitempty"`
	// TextConsent records that the patient gave the office the mobile
	// number to be texted this link (the desk ticked it); the audit trail
	// keeps it too.
	TextConsent bool `json:"-"`
	// Link is the invitation's one-time link, sealed with the name, so
	// that the office can send it again; useless once the link is used.
	Link string `json:"-"`
	// Record is what the office's own system holds of the patient, when
	// the invitation was made from it (docs/practice-records.md): sealed
	// with the name, prefilled for the patient to confirm.
	Record    *RecordPrefill `json:"-"`
	ExpiresAt time.Time      `json:"expiresAt"`
	UsedAt    *time.Time     `json:"usedAt,omitempty"`
	// CanceledAt is set (with UsedAt) when the office canceled the
	// invitation before the patient opened it.
	CanceledAt *time.Time `json:"-"`
	CreatedAt  time.Time  `json:"createdAt"`
}

// RecordPrefill is what an invitation made from the office's own records
// carries to the patient's form: the patient's id there, their date of
// birth (yyyy-mm-dd) and address. Never an SSN.
type RecordPrefill struct {
	PatientID string `json:"patientId"`
	Birthdate string `json:"birthdate,omitempty"`
	Address1  string `json:"address1,omitempty"`
	Address2  string `json:"address2,omitempty"`
	City      string `json:"city,omitempty"`
	State     string `json:"state,omitempty"`
	ZIP       string `json:"zip,omitempty"`
}

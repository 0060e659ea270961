package chairside

import "time"

// Consent kinds. Soft-pull and hard-pull authorisations are separate records
// (FCRA §604): no lender call happens without the matching one.
const (
	ConsentSoftPull = "soft_pull" // prequalify / prescreen
	ConsentHardPull = "hard_pull" // full application
	ConsentESign    = "esign"     // E-SIGN disclosure and consent
	ConsentTerms    = "terms"     // the signed agreement
	// ConsentCaliforniaNotice acknowledges the California notice on credit
	// for dental treatment; ConsentCardholder agrees to a card's cardholder
	// agreement before the account is opened.
	ConsentCaliforniaNotice = "california_notice"
	ConsentCardholder       = "cardholder_agreement"
)

// Consent is an append-only record of what a patient agreed to: which
// document (id, version, SHA-256 of exactly what was shown), when, from
// where, and the signature image when there is one. It is what a lender
// needs to prove an e-signature later, and it outlives the purge of personal
// data.
type Consent struct {
	ID              string `json:"id"`
	SessionID       string `json:"-"`
	ApplicationID   string `json:"-"`
	LenderKey       string `json:"providerKey"`
	Kind            string `json:"kind"`
	DocumentID      string `json:"documentId"`
	DocumentVersion string `json:"documentVersion"`
	DocumentSHA256  string `json:"documentSha256"`
	// DocumentLanguage is the language of the document shown ("en", "es"):
	// a lender may give a document in English only (docs/languages.md).
	DocumentLanguage string     `json:"documentLanguage"`
	ConsentText      string     `json:"consentText"`
	LenderPlanCode   string     `json:"providerPlanCode,omitempty"`
	ShownAt          time.Time  `json:"shownAt"`
	ConsentedAt      time.Time  `json:"consentedAt"`
	SignedAt         *time.Time `json:"signedAt,omitempty"`
	IP               string     `json:"-"`
	UserAgent        string     `json:"-"`
	// SignaturePNG is the black-and-white PNG of the signature, if signed.
	SignaturePNG []byte `json:"-"`
	// SignatureMethod says how a signed consent's signature was made:
	// SignatureDrawn or SignatureTyped; empty when unsigned.
	SignatureMethod string `json:"signatureMethod,omitempty"`
}

// Signature methods (Consent.SignatureMethod): drawn on the pad with a
// finger, stylus or mouse, or the patient's full name typed and adopted as
// their signature, for a patient who cannot draw one.
const (
	SignatureDrawn = "drawn"
	SignatureTyped = "typed"
)

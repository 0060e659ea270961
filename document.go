package chairside

import "time"

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
	// Language is the language of Content ("en", "es"): the one asked for
	// when the lender has it, else the lender's own (docs/languages.md).
	Language string `json:"language"`
	URL      string `json:"url,omitempty"`
	// FreshFor is how long the lender says this document stays current
	// (its answer's Cache-Control max-age): Chairside may show and check
	// consents against it that long without asking again. Zero when the
	// lender does not say; negative when it asks not to be held.
	FreshFor time.Duration `json:"-"`
}

// Lender document kinds of the documents pages (docs/content.md): each is
// asked of the lender with Lender.Document. DocKindAccountTerms is the
// terms of an existing account, shown before a credit limit change;
// DocKindRates is the lender's rates sheet, served as a PDF.
const (
	DocKindArbitration            = "arbitration"
	DocKindArbitrationProvision   = "arbitration_provision"
	DocKindPrequalificationTerms  = "prequalification_tandc"
	DocKindCreditReport           = "credit_report"
	DocKindParticipatingCreditors = "participating_creditors"
	DocKindElectronicDisclosures  = "electronic_disclosures"
	DocKindAccountTerms           = "account_terms"
	DocKindRates                  = "rates"
)

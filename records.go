package chairside

import "time"

// RecordsConnection is an office's connection to its practice-management
// system (docs/practice-records.md): which system, where, the customer
// key the practice made for Chairside (sealed at rest, never answered),
// when the financing is posted to the patient's ledger, and how the
// connection last answered.
type RecordsConnection struct {
	LocationID  string
	System      string // RecordsOpenDental
	BaseURL     string
	CustomerKey string
	// PostOn is when a case's payment is posted: RecordsPostSigned or
	// RecordsPostFunded.
	PostOn string
	// State is how the system last answered: RecordsConnected,
	// RecordsRefused (the key was refused) or RecordsUnavailable; Detail
	// says more, in staff's words.
	State     string
	Detail    string
	CheckedAt time.Time
	CreatedAt time.Time
}

// Practice-management systems, when payments are posted, and how a
// connection last answered.
const (
	RecordsOpenDental = "opendental"

	RecordsPostSigned = "signed"
	RecordsPostFunded = "funded"

	RecordsConnected   = "connected"
	RecordsRefused     = "refused"
	RecordsUnavailable = "unavailable"
)

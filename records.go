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

// RecordsPost is one post to a patient's ledger in the office's system: a
// payment when the case reached the moment the office chose, or a
// negative one for a refund or a cancellation (docs/practice-records.md).
// MoneyEntryID, the money fact it follows, makes it once.
type RecordsPost struct {
	ID            string
	MoneyEntryID  string
	LocationID    string
	ApplicationID string
	Kind          string // RecordsPayment or RecordsRefund
	PatientID     string
	AmountCents   int64 // negative for a refund
	PayDate       string
	Reference     string
	Note          string
	State         string
	Attempts      int
	NextAt        time.Time
	// FirstTryOn is the day (yyyy-mm-dd, the server's) the post was first
	// sent: where a retry looks for it first.
	FirstTryOn string
	RemoteID   string
	LastError  string
	CreatedAt  time.Time
	PostedAt   time.Time
}

// Kinds and states of a post.
const (
	RecordsPayment = "payment"
	RecordsRefund  = "refund"

	RecordsDue     = "due"     // waiting for its turn
	RecordsPosting = "posting" // claimed until NextAt
	RecordsPosted  = "posted"
	RecordsWaiting = "waiting" // the system refused the key: tried again once it works
	RecordsFailed  = "failed"  // the system refused the post itself: the office retries it
)

// RecordsCandidate is a money fact that calls for a post and has none yet:
// the office's chosen moment (signed or funded) of a case made from the
// office's records, or a refund or cancellation of one already posted.
type RecordsCandidate struct {
	MoneyEntryID string
	Kind         string // the money fact's kind (chairside.MoneySigned …)
	// AmountCents is the fact's amount; for a cancellation, the payment
	// posted for the case.
	AmountCents   int64
	OnAt          time.Time
	ApplicationID string
	LocationID    string
	State         string // the office's state, for its day
	PatientID     string
	LenderKey     string
	// LenderApplicationID and SelectedPlanCode find the plan the patient
	// chose, for the payment's note.
	LenderApplicationID string
	SelectedPlanCode    string
}

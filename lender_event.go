package chairside

import "time"

// Results of a lender's webhook event, as recorded and counted
// (docs/lender-protocol.md, "Webhooks").
const (
	EventApplied            = "applied"             // the application moved on
	EventIgnored            = "ignored"             // nothing to change (already decided, not pending)
	EventDuplicate          = "duplicate"           // this event id was already received
	EventUnknownApplication = "unknown_application" // no application of ours has this lender id
)

// LenderEvent is a webhook event received from a lender, kept by its id so
// that a repeated delivery is applied once.
type LenderEvent struct {
	LenderKey  string
	EventID    string
	Type       string
	LenderRef  string
	Result     string
	ReceivedAt time.Time
}

// LenderApplicationRef locates a lender application known to its
// lender, with the session it was made in: what news from the lender
// (a webhook, a status poll) needs to find and record it.
type LenderApplicationRef struct {
	LenderApplicationID string
	ApplicationID       string
	SessionID           string
	LenderKey           string // as stored, waterfall modifiers included
	LenderRef           string
}

// PendingPoll is a lender application waiting on its lender's decision,
// as the reconciler claims it to ask the lender for its status.
type PendingPoll struct {
	LenderApplicationRef
	// Polls counts the claims so far, this one included.
	Polls int
	// Since is when the application became pending.
	Since time.Time
}

// PendingFirstPoll is how long after a pending decision the reconciler
// first asks the lender for its status: the patient's own screen asks
// sooner while it is open, and a webhook usually comes first.
const PendingFirstPoll = 30 * time.Second

package chairside

import "time"

// Event is one line of the append-only audit log: what happened, to which
// session and application, never with personal data in Data.
type Event struct {
	ID            string         `json:"id"`
	SessionID     string         `json:"-"`
	ApplicationID string         `json:"-"`
	LenderKey     string         `json:"providerKey,omitempty"`
	Type          string         `json:"type"` // e.g. flow.started, decision.recorded, offer.accepted
	Data          map[string]any `json:"data,omitempty"`
	CreatedAt     time.Time      `json:"createdAt"`
}

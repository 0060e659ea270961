package chairside

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"time"
)

// Experience types (a tablet in the office, or the patient's own device at
// home) and flow types.
const (
	ExperienceInStore = "in_store"
	ExperienceAtHome  = "at_home"
	FlowApply         = "apply"
)

// Session timing defaults (docs/behaviour.md, "Time-outs").
const (
	DefaultTimeoutAfter  = 600000 * time.Millisecond
	DefaultWarnCountdown = 30000 * time.Millisecond
	// SessionIdleMargin is added on the server to the browser's timeout and
	// countdown before a session is considered idle, so the browser's own
	// warning always comes first.
	SessionIdleMargin = 60 * time.Second
	// SessionMaxAge bounds a session however active it is.
	SessionMaxAge = 4 * time.Hour
)

// Finish outcomes (docs/behaviour.md, "Finishing"). A finish asked as
// completed when no lender completed an application, but every lender
// tried has answered, is recorded as what happened: OutcomeDeclined (a
// lender declined), OutcomeOfferExpired (the only offers were past their
// date), OutcomeNoOffer (no lender made an offer: no offer, no answer) or
// OutcomeNoFinancing (an offer the patient did not take; sessions finished
// before the others existed carry it for any of these).
const (
	OutcomeCompleted    = "completed"
	OutcomeCancel       = "cancel"
	OutcomePending      = "pending"
	OutcomeTimeout      = "timeout"
	OutcomeNoFinancing  = "no_financing"
	OutcomeDeclined     = "declined"
	OutcomeNoOffer      = "no_offer"
	OutcomeOfferExpired = "offer_expired"
)

// Session is one patient's web session: created by a flow start, carried as
// X-Web-Session-Id on every call, ended by a finish or by idleness.
type Session struct {
	// ID is the hex SHA-256 of the webSessionId the browser holds. The raw
	// id (at least 128 random bits) is returned once, at start, and is never
	// stored or logged.
	ID                  string `json:"-"`
	LocationID          string `json:"-"`
	ApplicationID       string `json:"-"`
	Env                 string `json:"env"`
	GroupID             string `json:"groupId"`
	ExperienceType      string `json:"experienceType"`
	FlowType            string `json:"flowType"`
	WarnCountdownMillis int64  `json:"warnCountdownMillis"`
	TimeoutAfterMillis  int64  `json:"timeoutAfterMillis"`
	// DynamicLenderKey is the lender the flow starts with: the first step
	// of the location's waterfall.
	DynamicLenderKey string `json:"dynamicProviderKey"`

	CreatedAt  time.Time  `json:"-"`
	LastSeenAt time.Time  `json:"-"`
	FinishedAt *time.Time `json:"-"`
	Outcome    string     `json:"-"`
}

// IdleLimit is how long the server lets a session sit unused: the browser's
// timeout and countdown plus a margin, so the browser always warns first.
func (s *Session) IdleLimit() time.Duration {
	return time.Duration(s.TimeoutAfterMillis+s.WarnCountdownMillis)*time.Millisecond + SessionIdleMargin
}

// Live reports whether the session may still be used at now: not finished,
// not idle past IdleLimit and not older than SessionMaxAge.
func (s *Session) Live(now time.Time) bool {
	return s.FinishedAt == nil &&
		now.Sub(s.LastSeenAt) <= s.IdleLimit() &&
		now.Sub(s.CreatedAt) <= SessionMaxAge
}

// HashSecret returns the hex SHA-256 of a bearer secret (a web session id or
// a flow token). Only this hash is stored or compared, so a copy of the
// database cannot be used to take over a session or redeem a token.
func HashSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// NewSecret returns n random bytes from crypto/rand as unpadded base64url:
// web session ids and flow tokens (n ≥ 16, so at least 128 bits).
func NewSecret(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("chairside: crypto/rand failed: " + err.Error()) // the OS has no entropy; nothing is safe
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

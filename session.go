package chairside

import "time"

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
	// DynamicProviderKey is the provider the flow starts with: the first step
	// of the location's waterfall.
	DynamicProviderKey string `json:"dynamicProviderKey"`

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

package flow

import "time"

// The patient's time zone (docs/decisions.md, "Dates"). Ages and the
// date rules count from the calendar day where the patient is, which the
// browser names on every call (the X-Time-Zone header): at seven in the
// evening in California it is already tomorrow in UTC, and a patient whose
// eighteenth birthday is tomorrow is seventeen where they are. A call that
// names no zone, or one we do not know, counts from the server's own day.

// patientNow answers the service's clock in the caller's time zone, or in
// the server's when the call named none (c.Zone nil).
func (s *Service) patientNow(c *Caller) time.Time {
	now := s.now()
	if c != nil && c.Zone != nil {
		return now.In(c.Zone)
	}
	return now
}

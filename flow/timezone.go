package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
)

// The patient's time zone (docs/decisions.md, "Dates"). Ages and the
// date rules count from the calendar day where the patient is, which the
// browser names on every call (the X-Time-Zone header): at seven in the
// evening in California it is already tomorrow in UTC, and a patient whose
// eighteenth birthday is tomorrow is seventeen where they are. A call that
// names no zone, or one we do not know, counts from the server's own day.

type zoneKey struct{}

// WithTimeZone answers ctx carrying the patient's time zone, named as the
// IANA database names it (America/Chicago, read by chairside.TimeZone); a
// name that is not such a zone leaves ctx as it is.
func WithTimeZone(ctx context.Context, name string) context.Context {
	loc := chairside.TimeZone(name)
	if loc == nil {
		return ctx
	}
	return context.WithValue(ctx, zoneKey{}, loc)
}

// patientNow answers the service's clock in the patient's time zone, or in
// the server's when the call named none.
func (s *Service) patientNow(ctx context.Context) time.Time {
	now := s.now()
	if loc, ok := ctx.Value(zoneKey{}).(*time.Location); ok {
		return now.In(loc)
	}
	return now
}

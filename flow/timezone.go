package flow

import (
	"context"
	"sync"
	"time"
)

// The patient's time zone (docs/decisions.md, "Dates"). Ages and the
// date rules count from the calendar day where the patient is, which the
// browser names on every call (the X-Time-Zone header): at seven in the
// evening in California it is already tomorrow in UTC, and a patient whose
// eighteenth birthday is tomorrow is seventeen where they are. A call that
// names no zone, or one we do not know, counts from the server's own day.

type zoneKey struct{}

// WithTimeZone answers ctx carrying the patient's time zone, named as the
// IANA database names it (America/Chicago); a name that is not such a zone
// leaves ctx as it is.
func WithTimeZone(ctx context.Context, name string) context.Context {
	loc := zoneNamed(name)
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

// zones keeps the zones already loaded by name: loading reads the zone
// database, and every call of a session names the same zone.
var zones sync.Map

// zoneNamed answers the zone of an IANA name, or nil: the name must look
// like one (letters, digits and _ + - / only, as the database's names do)
// before the database is asked, and "Local", the server's own zone, is no
// patient's.
func zoneNamed(name string) *time.Location {
	if name == "" || len(name) > 64 || name == "Local" {
		return nil
	}
	for _, r := range name {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '+' || r == '-' || r == '/') {
			return nil
		}
	}
	if loc, ok := zones.Load(name); ok {
		return loc.(*time.Location)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil
	}
	zones.Store(name, loc)
	return loc
}

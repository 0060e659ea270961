package chairside

import (
	"sync"
	"time"
	_ "time/tzdata" // the zone database goes with the binary: a machine without one still knows every zone
)

// TimeZone answers the zone an IANA name names (America/Chicago), or nil:
// the patient's zone a browser sends (flow/timezone.go) and the zone an
// office's screen asks its day in (office/filter.go) are read here alike.
// The name must look like one of the database's (letters, digits and
// _ + - / only) before the database is asked, and "Local", the server's
// own zone, is nobody's. Zones are kept once loaded: every call of a
// session names the same one.
func TimeZone(name string) *time.Location {
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

var zones sync.Map // name → *time.Location

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

// stateZones are the zone most of each state's people live in, for the
// date a practice's own books give a day (a payment's date in its
// practice-management system, docs/practice-records.md).
var stateZones = map[string]string{
	"AL": "America/Chicago", "AK": "America/Anchorage", "AZ": "America/Phoenix", "AR": "America/Chicago", "CA": "America/Los_Angeles",
	"CO": "America/Denver", "CT": "America/New_York", "DE": "America/New_York", "DC": "America/New_York", "FL": "America/New_York",
	"GA": "America/New_York", "HI": "Pacific/Honolulu", "ID": "America/Boise", "IL": "America/Chicago", "IN": "America/Indiana/Indianapolis",
	"IA": "America/Chicago", "KS": "America/Chicago", "KY": "America/New_York", "LA": "America/Chicago", "ME": "America/New_York",
	"MD": "America/New_York", "MA": "America/New_York", "MI": "America/Detroit", "MN": "America/Chicago", "MS": "America/Chicago",
	"MO": "America/Chicago", "MT": "America/Denver", "NE": "America/Chicago", "NV": "America/Los_Angeles", "NH": "America/New_York",
	"NJ": "America/New_York", "NM": "America/Denver", "NY": "America/New_York", "NC": "America/New_York", "ND": "America/Chicago",
	"OH": "America/New_York", "OK": "America/Chicago", "OR": "America/Los_Angeles", "PA": "America/New_York", "RI": "America/New_York",
	"SC": "America/New_York", "SD": "America/Chicago", "TN": "America/Chicago", "TX": "America/Chicago", "UT": "America/Denver",
	"VT": "America/New_York", "VA": "America/New_York", "WA": "America/Los_Angeles", "WV": "America/New_York", "WI": "America/Chicago",
	"WY": "America/Denver",
}

// StateTimeZone is the zone of a US state (two letters), UTC for one it
// does not know.
func StateTimeZone(state string) *time.Location {
	if loc := TimeZone(stateZones[state]); loc != nil {
		return loc
	}
	return time.UTC
}

package chairside_test

import (
	"testing"

	"github.com/chairside/chairside"
)

// TestTimeZone: the zones of the database by their names, kept once
// loaded; nothing for a name that is not one, nor for the server's own.
func TestTimeZone(t *testing.T) {
	for _, name := range []string{"America/Chicago", "UTC", "Etc/GMT+5", "America/Port-au-Prince"} {
		loc := chairside.TimeZone(name)
		if loc == nil || loc.String() != name {
			t.Fatalf("%q: %v", name, loc)
		}
		if again := chairside.TimeZone(name); again != loc {
			t.Errorf("%q loaded twice", name)
		}
	}
	for _, name := range []string{"", "Local", "Mars/Olympus", "../../etc/passwd", "America/Chicago\x00", "America Chicago", string(make([]byte, 65))} {
		if loc := chairside.TimeZone(name); loc != nil {
			t.Errorf("%q answered %v", name, loc)
		}
	}
}

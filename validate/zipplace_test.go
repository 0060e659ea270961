package validate

import (
	"testing"
)

func TestZipPlace(t *testing.T) {
	for zip, want := range map[string]Place{
		"60601":      {"60601", "Chicago", "IL"},
		"92101":      {"92101", "San Diego", "CA"},
		"90210-1234": {"90210", "Beverly Hills", "CA"},
		"00501":      {"00501", "Holtsville", "NY"}, // the first line of the list
		"20001":      {"20001", "Washington", "DC"},
		"99950":      {"99950", "Ketchikan", "AK"}, // the last
	} {
		if got, ok := ZipPlace(zip); !ok || got != want {
			t.Errorf("ZipPlace(%q) = %+v, %v; want %+v", zip, got, ok, want)
		}
	}
	for _, zip := range []string{"", "6060", "606011", "abcde", "00000", "09001", "00601"} { // 09001 military, 00601 Puerto Rico
		if p, ok := ZipPlace(zip); ok {
			t.Errorf("ZipPlace(%q) = %+v, want none", zip, p)
		}
	}
	if n := len(zips().zips); n < 40000 {
		t.Errorf("the ZIP list has %d ZIPs: is it cut short?", n)
	}
}

// TestZipForStateUsesTheList: where the list knows a ZIP, its state decides,
// even against the prefix ranges (Texhoma, TX has an Oklahoma prefix); a
// ZIP the list lacks falls back to the ranges.
func TestZipForStateUsesTheList(t *testing.T) {
	for _, c := range []struct {
		zip, state string
		want       bool
	}{
		{"73960", "TX", true}, {"73960", "OK", false},
		{"60601", "IL", true}, {"60601", "WI", false},
		{"60698", "IL", true}, // not in the list: by its prefix
	} {
		if _, known := ZipPlace(c.zip); c.zip == "60698" && known {
			t.Fatalf("%s is in the list; pick a ZIP that is not", c.zip)
		}
		if got := ZipForState(c.zip, c.state); got != c.want {
			t.Errorf("ZipForState(%s, %s) = %v, want %v", c.zip, c.state, got, c.want)
		}
	}
}

func BenchmarkZipPlace(b *testing.B) {
	zips()
	for i := 0; i < b.N; i++ {
		ZipPlace("92101")
	}
}

package opendental

import "testing"

// TestParseCents: amounts as Open Dental writes them, exactly to the
// cent, rounded half away from zero beyond it; anything else refused.
func TestParseCents(t *testing.T) {
	for in, want := range map[string]int64{"339": 33900, "339.5": 33950, "339.00": 33900, "0.07": 7, "-12.345": -1235, "1,234.56": 123456,
		".5": 50, "162.5": 16250, "0": 0, "2480.004": 248000} {
		if got, err := parseCents(in); err != nil || got != want {
			t.Errorf("parseCents(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"abc", "1.2.3", "12e3", "", "-", "99999999999999"} {
		if _, err := parseCents(in); err == nil {
			t.Errorf("parseCents(%q) took it", in)
		}
	}
	for v, want := range map[int64]string{248000: "2480.00", -186750: "-1867.50", 7: "0.07", 0: "0.00"} {
		if got := formatCents(v); got != want {
			t.Errorf("formatCents(%d) = %q, want %q", v, got, want)
		}
	}
}

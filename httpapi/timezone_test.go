package httpapi_test

import (
	"testing"
	"time"

	"github.com/chairside/chairside/testkit"
)

// TestTimeZoneHeaderCountsAges: the X-Time-Zone the browser sends reaches
// the age check (flow/timezone.go). At 19:00 on 25 November in Los Angeles
// (already the 26th in UTC) an applicant born on 26 November 2008 is
// seventeen there: refused when the call names Los Angeles, accepted when
// it names no zone (the server's day, UTC here).
func TestTimeZoneHeaderCountsAges(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		h.clock.mu.Lock()
		h.clock.t = time.Date(2026, 11, 26, 3, 0, 0, 0, time.UTC)
		h.clock.mu.Unlock()
		sid := h.start(t)
		a := testkit.Applicant("Approve", "123450031")
		a.DateOfBirth = "2008-11-26"
		check := func(zone string) string {
			t.Helper()
			q := req{method: "POST", path: "/validate", session: sid, body: map[string]any{
				"providerKey": "synchrony_standard", "mode": "prequalify",
				"applicationData": map[string]any{"primary": a}, "fieldIds": []string{"dateOfBirth"},
			}}
			if zone != "" {
				q.header = map[string]string{"X-Time-Zone": zone}
			}
			var v struct {
				FieldErrors []struct{ Field, Message string } `json:"fieldErrors"`
			}
			res := h.do(t, q)
			want(t, res, 200, "")
			res.into(t, &v)
			for _, fe := range v.FieldErrors {
				if fe.Field == "primary.dateOfBirth" {
					return fe.Message
				}
			}
			return ""
		}
		if got := check("America/Los_Angeles"); got != "Must be at least 18 years old" {
			t.Errorf("from Los Angeles: %q", got)
		}
		if got := check(""); got != "" {
			t.Errorf("no zone named: %q", got)
		}
	})
}

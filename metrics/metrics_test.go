package metrics_test

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/chairside/chairside/metrics"
)

// TestPlansRefusedAreCounted: each refused lender plan counts once under
// its lender and reason on /metrics.
func TestPlansRefusedAreCounted(t *testing.T) {
	m := metrics.New()
	m.PlanRefused("synchrony_standard", "schedule")
	m.PlanRefused("synchrony_standard", "schedule")
	m.PlanRefused("snap_standard", "lease")
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, line := range []string{
		`chairside_lender_plans_refused_total{lender="synchrony_standard",reason="schedule"} 2`,
		`chairside_lender_plans_refused_total{lender="snap_standard",reason="lease"} 1`,
	} {
		if !strings.Contains(rec.Body.String(), line) {
			t.Errorf("missing %s", line)
		}
	}
}

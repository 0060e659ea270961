package metrics_test

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"

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

// TestMessagesAndOutbox: /metrics shows the messages by channel and
// state, a state without messages as 0, and the outbox's backlog.
func TestMessagesAndOutbox(t *testing.T) {
	m := metrics.New()
	m.Messages([]string{"sms", "email"}, []string{"delivered", "undelivered"}, map[[2]string]int{{"sms", "delivered"}: 4, {"email", "undelivered"}: 1})
	m.Outbox(3, 1, 90*time.Second)
	rec := httptest.NewRecorder()
	m.Handler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	for _, line := range []string{
		`chairside_messages{channel="sms",state="delivered"} 4`,
		`chairside_messages{channel="sms",state="undelivered"} 0`,
		`chairside_messages{channel="email",state="undelivered"} 1`,
		`chairside_outbox{measure="waiting"} 3`,
		`chairside_outbox{measure="retrying"} 1`,
		`chairside_outbox{measure="oldest_seconds"} 90`,
	} {
		if !strings.Contains(rec.Body.String(), line) {
			t.Errorf("missing %s", line)
		}
	}
}

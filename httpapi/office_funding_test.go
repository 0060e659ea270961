package httpapi_test

import (
	"context"
	"encoding/csv"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
)

// TestOfficeFundingScreen: two cases one lender funded the same day are
// one deposit; the funding screen of its day, week and month shows it with
// both cases and sums that are theirs; the CSV has the deposit's row and
// one per case, and the cases' nets add up to the deposit's to the cent.
// Before the deposit is sent it is expected; a period that is not day,
// week or month is refused.
func TestOfficeFundingScreen(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const ek = "1000990200000000"
		first := completeAt(t, h, "synchrony_standard", ek, "123450901")
		completeAt(t, h, "synchrony_standard", ek, "123450902")
		h.addStaffAs(t, ek, "desk@deposits.example", staffPassword, chairside.StaffFrontDesk)
		// Reconciler rounds an hour apart until the first case's line has
		// reached kind.
		until := func(kind string) {
			t.Helper()
			for range 24 * 10 {
				h.clock.Advance(time.Hour)
				if _, err := h.svc.ReconcileFunding(context.Background(), 10); err != nil {
					t.Fatal(err)
				}
				line, err := h.db.MoneyLine(context.Background(), first)
				if err != nil {
					t.Fatal(err)
				}
				if line[len(line)-1].Kind == kind {
					return
				}
			}
			t.Fatalf("never %s", kind)
		}
		until(chairside.MoneyFunded)
		month := fundingOf(t, h, ek, "month")
		deps := month["deposits"].([]any)
		if len(deps) != 1 || deps[0].(map[string]any)["sent"] != false || month["expected"].(map[string]any)["cases"] != float64(2) {
			t.Fatalf("once funded: %v", month)
		}
		until(chairside.MoneyDeposited)
		dep := fundingOf(t, h, ek, "month")["deposits"].([]any)[0].(map[string]any)
		cases := dep["cases"].([]any)
		if dep["sent"] != true || len(cases) != 2 {
			t.Fatalf("the deposit: %v", dep)
		}
		var net float64
		for _, c := range cases {
			net += c.(map[string]any)["netCents"].(float64)
		}
		if net != dep["netCents"].(float64) || dep["grossCents"].(float64) != dep["feeCents"].(float64)+net {
			t.Fatalf("deposit sums %v, cases' net %v", dep, net)
		}
		day := dep["on"].(string)[:10]
		s := h.staffSignIn(t, "desk@deposits.example", staffPassword)
		for _, period := range []string{"day", "week", "month"} {
			got := want(t, h.do(t, req{method: "GET", path: "/office/funding?tz=UTC&day=" + day + "&period=" + period, header: s.headers(false)}), 200, "")
			if sent := got["sent"].(map[string]any); sent["deposits"] != float64(1) || sent["cases"] != float64(2) || sent["netCents"] != dep["netCents"] {
				t.Errorf("%s totals: %v", period, got["sent"])
			}
		}
		want(t, h.do(t, req{method: "GET", path: "/office/funding?period=year", header: s.headers(false)}), 400, chairside.EBADREQUEST)

		res := h.do(t, req{method: "GET", path: "/office/funding.csv?tz=UTC&day=" + day, header: s.headers(false)})
		if res.status != 200 {
			t.Fatalf("CSV: %d %s", res.status, res.body)
		}
		rows, err := csv.NewReader(strings.NewReader(string(res.body))).ReadAll()
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) != 4 || rows[1][0] != "deposit" || rows[2][0] != "case" || rows[3][0] != "case" {
			t.Fatalf("CSV rows: %v", rows)
		}
		last := len(rows[0]) - 1
		var caseNets int64
		for _, r := range rows[2:] {
			caseNets += centsOf(t, r[last])
		}
		if deposit := centsOf(t, rows[1][last]); caseNets != deposit || float64(deposit) != dep["netCents"] {
			t.Fatalf("CSV: the cases' nets %d, the deposit's %d, the screen's %v", caseNets, deposit, dep["netCents"])
		}
	})
}

// fundingOf reads the funding screen of the office with entityKey through
// a fresh sign-in (the harness's clock moves by days between reads).
func fundingOf(t *testing.T, h *harness, entityKey, period string) map[string]any {
	t.Helper()
	s := h.staffSignIn(t, "desk@deposits.example", staffPassword)
	return want(t, h.do(t, req{method: "GET", path: "/office/funding?tz=UTC&period=" + period, header: s.headers(false)}), 200, "")
}

// centsOf reads a CSV amount such as 3120.00 in cents.
func centsOf(t *testing.T, s string) int64 {
	t.Helper()
	whole, frac, ok := strings.Cut(s, ".")
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if !ok || err1 != nil || err2 != nil || len(frac) != 2 {
		t.Fatalf("amount %q", s)
	}
	return w*100 + f
}

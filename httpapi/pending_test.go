package httpapi_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/testkit"
)

// TestPatchIncomeAPI: the income patch through the API — field error for a
// bad income, the lender's new decision, a replay with the same
// Idempotency-Key, 422 for another income, 404 for an unknown patch type
// and for another session's application.
func TestPatchIncomeAPI(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/patch-income", session: sid}), 200, "")
		d := want(t, h.prequalify(t, sid, key, testkit.Applicant("Patchwork", "123450061")), 200, "")
		if d["responseCode"] != chairside.ResponsePending {
			t.Fatalf("patch-income: %v", d)
		}
		path := "/providers/" + key + "/patch/income"
		bad := want(t, h.do(t, req{method: "POST", path: path, session: sid, body: map[string]any{"annualGrossIncome": -5}}), 400, chairside.EINVALID)
		if got := fmt.Sprint(bad["fieldErrors"]); !strings.Contains(got, "annualGrossIncome") {
			t.Errorf("field errors: %s", got)
		}
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/patch/shoe-size", session: sid, body: map[string]any{"annualGrossIncome": 6_500_000}}), 404, chairside.ENOTFOUND)

		other := h.start(t)
		want(t, h.do(t, req{method: "POST", path: path, session: other, body: map[string]any{"annualGrossIncome": 6_500_000}}), 404, chairside.ENOTFOUND)

		tap := map[string]string{"Idempotency-Key": "patch-tap-1"}
		first := want(t, h.do(t, req{method: "POST", path: path, session: sid, header: tap, body: map[string]any{"annualGrossIncome": 6_500_000}}), 200, "")
		dec, _ := first["decision"].(map[string]any)
		if dec == nil || !chairside.Positive(fmt.Sprint(dec["responseCode"])) {
			t.Fatalf("after the patch: %v", first)
		}
		again := want(t, h.do(t, req{method: "POST", path: path, session: sid, header: tap, body: map[string]any{"annualGrossIncome": 6_500_000}}), 200, "")
		if again["lenderApplicationId"] != first["lenderApplicationId"] {
			t.Errorf("replay: %v, first %v", again, first)
		}
		want(t, h.do(t, req{method: "POST", path: path, session: sid, header: tap, body: map[string]any{"annualGrossIncome": 7_000_000}}), 422, chairside.EIDEMPOTENCY)
		// The approval has plans.
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/payment/plans", session: sid, body: map[string]any{"amountCents": 200000}}), 200, "")
	})
}

// TestApplicationStatusAPI: a pending-then-approved application is approved
// at its first status check; another session cannot check it.
func TestApplicationStatusAPI(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/pending-then-approved", session: sid}), 200, "")
		d := want(t, h.prequalify(t, sid, key, testkit.Applicant("Waiting", "123450062")), 200, "")
		if d["responseCode"] != chairside.ResponsePending {
			t.Fatalf("pending-then-approved: %v", d)
		}
		other := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/application-status", session: other}), 404, chairside.ENOTFOUND)
		st := want(t, h.do(t, req{method: "POST", path: "/providers/" + key + "/application-status", session: sid}), 200, "")
		dec, _ := st["decision"].(map[string]any)
		if dec == nil || !chairside.Positive(fmt.Sprint(dec["responseCode"])) {
			t.Fatalf("status: %v", st)
		}
	})
}

// TestStipulationsAPI: a stipulation's status and refresh through the API;
// a bad id and another session's application are JSON 404s.
func TestStipulationsAPI(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const key = "synchrony_standard"
		sid := h.start(t)
		want(t, h.do(t, req{method: "POST", path: "/test-cases/apply/primary-pending", session: sid}), 200, "")
		d := want(t, h.prequalify(t, sid, key, testkit.Applicant("Waiting", "123450063")), 200, "")
		stips, _ := d["stipulations"].([]any)
		if len(stips) != 1 {
			t.Fatalf("stipulations: %v", d)
		}
		id := fmt.Sprint(stips[0].(map[string]any)["id"])
		base := "/providers/" + key + "/application/stipulations/"
		if st := want(t, h.do(t, req{method: "GET", path: base + id + "/status", session: sid}), 200, ""); st["state"] != "waiting" {
			t.Fatalf("status: %v", st)
		}
		want(t, h.do(t, req{method: "GET", path: base + "STIP-nope/status", session: sid}), 404, chairside.ENOTFOUND)
		other := h.start(t)
		want(t, h.do(t, req{method: "GET", path: base + id + "/status", session: other}), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: base + "refresh", session: other}), 404, chairside.ENOTFOUND)
		want(t, h.do(t, req{method: "POST", path: base + "refresh", session: sid, body: map[string]any{"stipulationIds": []string{"STIP-nope"}}}), 404, chairside.ENOTFOUND)
		got := want(t, h.do(t, req{method: "POST", path: base + "refresh", session: sid, body: map[string]any{"stipulationIds": []string{id}}}), 200, "")
		if list, _ := got["stipulations"].([]any); len(list) != 1 || list[0].(map[string]any)["state"] != "received" {
			t.Fatalf("refresh: %v", got)
		}
		if st := want(t, h.do(t, req{method: "GET", path: base + id + "/status", session: sid}), 200, ""); st["state"] != "received" {
			t.Fatalf("status after the refresh: %v", st)
		}
	})
}

package httpapi_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
)

// managerAndDesk adds a manager (manager@{domain}.example) and a front
// desk (desk@{domain}.example) to the office ek and signs both in.
func managerAndDesk(t *testing.T, h *harness, ek, domain string) (mgr, desk staffSession) {
	t.Helper()
	h.addStaff(t, ek, "manager@"+domain+".example", "the manager's long password")
	h.addStaffAs(t, ek, "desk@"+domain+".example", staffPassword, chairside.StaffFrontDesk)
	return h.staffSignIn(t, "manager@"+domain+".example", "the manager's long password"), h.staffSignIn(t, "desk@"+domain+".example", staffPassword)
}

// with sets a request's Idempotency-Key.
func with(hd map[string]string, key string) map[string]string {
	hd["Idempotency-Key"] = key
	return hd
}

// TestOfficeChanges: a manager cancels a completed case before funding
// and refunds a funded one in part, each previewed first and made once per
// Idempotency-Key; the front desk can do neither; a change without a key,
// without a reason or of another office's case is refused; each change is
// in the audit log with its reason, and on the case's money line.
func TestOfficeChanges(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const ek = "1000990100000000"
		voidID := completeAt(t, h, "synchrony_standard", ek, "123450801")
		const boss, bossPW = "manager@changes.example", "the manager's long password"
		mgr, desk := managerAndDesk(t, h, ek, "changes")
		path := "/office/applications/" + voidID + "/changes"
		void := map[string]any{"kind": "void", "reason": "The patient chose another treatment."}

		want(t, h.do(t, req{method: "POST", path: path + "/preview", header: desk.headers(true), body: void}), 403, chairside.EFORBIDDEN)
		want(t, h.do(t, req{method: "POST", path: path, header: with(desk.headers(true), "d-1"), body: void}), 403, chairside.EFORBIDDEN)
		plan := want(t, h.do(t, req{method: "POST", path: path + "/preview", header: mgr.headers(true), body: void}), 200, "")
		if plan["lenderName"] == "" || plan["amountCents"] != plan["financedCents"] {
			t.Fatalf("preview: %v", plan)
		}
		want(t, h.do(t, req{method: "POST", path: path, header: mgr.headers(true), body: void}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "v-0"), body: map[string]any{"kind": "void", "reason": ""}}), 400, chairside.EINVALID)
		want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "v-0"), body: map[string]any{"kind": "void", "reason": "x", "tip": 1}}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: "/office/applications/nope/changes", header: with(mgr.headers(true), "v-0"), body: void}), 404, chairside.ENOTFOUND)
		done := want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "v-1"), body: void}), 200, "")
		if done["status"] != chairside.ChangeDone || done["reference"] == "" {
			t.Fatalf("void: %v", done)
		}
		again := want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "v-1"), body: void}), 200, "")
		if again["reference"] != done["reference"] {
			t.Fatalf("the same void again: %v", again)
		}
		want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "v-2"), body: void}), 409, chairside.ECONFLICT)

		// A second case, funded, refunded in part.
		refundID := completeAt(t, h, "synchrony_standard", "1000990100000001", "123450802")
		h.clock.Advance(10 * 24 * time.Hour)
		if _, err := h.svc.ReconcileFunding(context.Background(), 10); err != nil {
			t.Fatal(err)
		}
		// Its office is another: this manager (signed in again, ten days
		// on) cannot touch it.
		mgr = h.staffSignIn(t, boss, bossPW)
		want(t, h.do(t, req{method: "POST", path: "/office/applications/" + refundID + "/changes/preview", header: mgr.headers(true),
			body: map[string]any{"kind": "refund", "reason": "Not ours."}}), 404, chairside.ENOTFOUND)
		h.addStaff(t, "1000990100000001", "boss@other.example", bossPW)
		other := h.staffSignIn(t, "boss@other.example", bossPW)
		rpath := "/office/applications/" + refundID + "/changes"
		big := want(t, h.do(t, req{method: "POST", path: rpath + "/preview", header: other.headers(true),
			body: map[string]any{"kind": "refund", "amountCents": 10_000_000, "reason": "Too much."}}), 400, chairside.EINVALID)
		if !strings.Contains(strings.ToLower(big["message"].(string)), "amount") {
			t.Errorf("too much: %v", big)
		}
		refund := map[string]any{"kind": "refund", "amountCents": 25_000, "reason": "One filling was not needed."}
		got := want(t, h.do(t, req{method: "POST", path: rpath, header: with(other.headers(true), "r-1"), body: refund}), 200, "")
		if got["status"] != chairside.ChangeDone || got["amountCents"] != float64(25_000) {
			t.Fatalf("refund: %v", got)
		}
		fd := want(t, h.do(t, req{method: "GET", path: "/office/funding?tz=UTC&period=month", header: other.headers(false)}), 200, "")
		if changes := fd["changes"].([]any); len(changes) != 1 || changes[0].(map[string]any)["kind"] != chairside.MoneyRefunded ||
			changes[0].(map[string]any)["amountCents"] != float64(25_000) {
			t.Fatalf("the funding screen's changes: %v", fd["changes"])
		}
		csvRes := h.do(t, req{method: "GET", path: "/office/funding.csv?tz=UTC&period=month", header: other.headers(false)})
		if !strings.Contains(string(csvRes.body), "\nrefund,Synchrony,") || !strings.Contains(string(csvRes.body), ",250.00,-") {
			t.Fatalf("the funding CSV has no refund row: %s", csvRes.body)
		}
		detail := want(t, h.do(t, req{method: "GET", path: "/office/applications/" + refundID, header: other.headers(false)}), 200, "")
		if money := detail["money"].(map[string]any); money["refundedCents"] != float64(25_000) {
			t.Errorf("the row's money after a refund: %v", money)
		}
		for id, action := range map[string]string{voidID: chairside.AuditCaseVoid, refundID: chairside.AuditCaseRefund} {
			a, err := h.db.FindApplication(context.Background(), id)
			if err != nil {
				t.Fatal(err)
			}
			rows, err := h.db.ListOfficeAudit(context.Background(), a.LocationID)
			if err != nil {
				t.Fatal(err)
			}
			found := 0
			for _, r := range rows {
				if r.Action == action && strings.Contains(r.Details, "reason: ") && strings.Contains(r.Details, id) {
					found++
				}
			}
			if found == 0 {
				t.Errorf("%s of %s is not in the audit log with its reason: %+v", action, id, rows)
			}
		}
	})
}

// TestOfficeAmountChange: a manager changes the treatment amount of a
// case whose patient accepted an offer and has not signed: previewed
// first, made once per Idempotency-Key, in the audit log once with its
// reason; the front desk can do neither. The patient's browser, still on
// the old amount, is told amount_changed and reads the new one.
func TestOfficeAmountChange(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		const ek, key = "1000990100000002", "synchrony_standard"
		sid, _, _ := acceptAt(t, h, key, ek, "123450803")
		sess, err := h.svc.Authenticate(context.Background(), sid)
		if err != nil {
			t.Fatal(err)
		}
		id := sess.ApplicationID
		mgr, desk := managerAndDesk(t, h, ek, "amount")
		path := "/office/applications/" + id + "/amount"
		change := map[string]any{"fromCents": 450_000, "amountCents": 380_000, "reason": "One crown less in the plan."}

		want(t, h.do(t, req{method: "POST", path: path + "/preview", header: desk.headers(true), body: change}), 403, chairside.EFORBIDDEN)
		want(t, h.do(t, req{method: "POST", path: path, header: with(desk.headers(true), "d-1"), body: change}), 403, chairside.EFORBIDDEN)
		plan := want(t, h.do(t, req{method: "POST", path: path + "/preview", header: mgr.headers(true), body: change}), 200, "")
		if lenders := plan["lenders"].([]any); len(lenders) != 1 || lenders[0].(map[string]any)["accepted"] != true {
			t.Fatalf("preview: %v", plan)
		}
		want(t, h.do(t, req{method: "POST", path: path, header: mgr.headers(true), body: change}), 400, chairside.EBADREQUEST)
		want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "a-0"),
			body: map[string]any{"fromCents": 450_000, "amountCents": 380_000, "reason": ""}}), 400, chairside.EINVALID)
		done := want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "a-1"), body: change}), 200, "")
		if done["status"] != chairside.ChangeDone || done["reference"] == "" || done["toCents"] != float64(380_000) {
			t.Fatalf("change: %v", done)
		}
		again := want(t, h.do(t, req{method: "POST", path: path, header: with(mgr.headers(true), "a-1"), body: change}), 200, "")
		if again["reference"] != done["reference"] {
			t.Fatalf("the same change again: %v", again)
		}

		// The patient's browser.
		p := "/providers/" + key
		want(t, h.do(t, req{method: "POST", path: p + "/payment/plans", session: sid,
			body: map[string]any{"amountCents": 200_000, "purchaseAmountCents": 450_000}}), 409, chairside.EAMOUNT)
		if a := want(t, h.do(t, req{method: "GET", path: "/application/amounts", session: sid}), 200, ""); a["purchaseAmountCents"] != float64(380_000) {
			t.Fatalf("amounts: %v", a)
		}
		want(t, h.do(t, req{method: "POST", path: p + "/payment/plans", session: sid,
			body: map[string]any{"amountCents": 200_000, "purchaseAmountCents": 380_000}}), 200, "")

		detail := want(t, h.do(t, req{method: "GET", path: "/office/applications/" + id, header: mgr.headers(false)}), 200, "")
		if detail["purchaseAmountCents"] != float64(380_000) {
			t.Errorf("the case's amount: %v", detail["purchaseAmountCents"])
		}
		a, err := h.db.FindApplication(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		rows, err := h.db.ListOfficeAudit(context.Background(), a.LocationID)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, r := range rows {
			if r.Action == chairside.AuditCaseAmount && strings.Contains(r.Details, "reason: One crown less") && strings.Contains(r.Details, "$3,800.00") {
				found++
			}
		}
		if found != 1 {
			t.Errorf("the change is in the audit log %d times: %+v", found, rows)
		}
	})
}

package httpapi_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/flow"
	"github.com/chairside/chairside/pms"
	"github.com/chairside/chairside/pms/opendental"
	"github.com/chairside/chairside/pms/opendental/odsim"
)

// Keys of the Open Dental stand-in of these tests.
const devKey, custKey = "DEVKEY0123456789", "CUSTKEYabcdefghi"

// withOpenDental gives the harness's offices an Open Dental stand-in to
// connect, and answers it.
func withOpenDental(t *testing.T, h *harness) *odsim.Sim {
	t.Helper()
	sim := odsim.New(devKey, custKey)
	srv := httptest.NewServer(sim)
	t.Cleanup(srv.Close)
	h.office.Bridge = func(conn *chairside.RecordsConnection) pms.Bridge {
		return &opendental.Client{BaseURL: srv.URL, DeveloperKey: devKey, CustomerKey: conn.CustomerKey}
	}
	return sim
}

// TestOfficeRecords: a manager connects the office's Open Dental with the
// practice's customer key, checked first (a refused key is a field error,
// and not kept); the front desk cannot connect, but finds the patient it
// invites by name or chart number and reads their saved treatment plans
// with what each leaves the patient to pay. A key Open Dental later
// refuses shows on the connection; a system that does not answer is a
// 502 in staff's words. Every read is in the audit log, and the key is in
// no answer and no log line.
func TestOfficeRecords(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		sim := withOpenDental(t, h)
		mgr, desk := managerAndDesk(t, h, EntityKey, "records")

		if got := want(t, h.do(t, req{method: "GET", path: "/office/records", header: desk.headers(false)}), 200, ""); got["connected"] != false || got["available"] != true {
			t.Fatalf("before: %v", got)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/records/patients?lastName=lopez", header: desk.headers(false)}), 409, chairside.ECONFLICT)
		connect := map[string]any{"customerKey": custKey, "postOn": "signed"}
		want(t, h.do(t, req{method: "PUT", path: "/office/records", header: desk.headers(true), body: connect}), 403, chairside.EFORBIDDEN)
		bad := want(t, h.do(t, req{method: "PUT", path: "/office/records", header: mgr.headers(true),
			body: map[string]any{"customerKey": "NOTTHEKEY", "postOn": "signed"}}), 400, chairside.EINVALID)
		if fe := fmt.Sprint(bad["fieldErrors"]); !strings.Contains(fe, "customerKey") || !strings.Contains(fe, "Open Dental refused this key") {
			t.Errorf("a refused key: %v", bad)
		}
		want(t, h.do(t, req{method: "PUT", path: "/office/records", header: mgr.headers(true), body: map[string]any{"customerKey": custKey, "postOn": "someday"}}),
			400, chairside.EINVALID)
		got := want(t, h.do(t, req{method: "PUT", path: "/office/records", header: mgr.headers(true), body: connect}), 200, "")
		if got["connected"] != true || got["keyEnd"] != "fghi" || got["postOn"] != "signed" || got["state"] != "connected" {
			t.Fatalf("connected: %v", got)
		}

		found := want(t, h.do(t, req{method: "GET", path: "/office/records/patients?lastName=lo&firstName=mar", header: desk.headers(false)}), 200, "")
		patients := found["patients"].([]any)
		if len(patients) != 1 || patients[0].(map[string]any)["id"] != "15" || patients[0].(map[string]any)["language"] != "es" {
			t.Fatalf("found %v", found)
		}
		byChart := want(t, h.do(t, req{method: "GET", path: "/office/records/patients?chart=16", header: desk.headers(false)}), 200, "")
		if p := byChart["patients"].([]any); len(p) != 1 || p[0].(map[string]any)["lastName"] != "Okafor" {
			t.Errorf("by chart number: %v", byChart)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/records/patients?lastName=l", header: desk.headers(false)}), 400, chairside.EINVALID)
		detail := want(t, h.do(t, req{method: "GET", path: "/office/records/patients/15", header: desk.headers(false)}), 200, "")
		plans := detail["plans"].([]any)
		totals := plans[0].(map[string]any)["totals"].(map[string]any)
		if len(plans) != 2 || totals["patientCents"] != float64(186750) || totals["feeCents"] != float64(337500) || totals["insuranceCents"] != float64(148750) {
			t.Fatalf("the plans: %v", detail)
		}
		want(t, h.do(t, req{method: "GET", path: "/office/records/patients/999", header: desk.headers(false)}), 404, chairside.ENOTFOUND)

		// An invitation made from the record: the patient's form starts with
		// the date of birth and address read again from Open Dental, never an
		// SSN, and the application remembers the chart number.
		inv := h.invite(t, desk, map[string]any{"purchaseAmountCents": 186750, "firstName": "Maria", "lastName": "Lopez", "recordPatientId": "15"})
		start := want(t, h.do(t, req{method: "POST", path: "/flow/start/tokens/" + tokenOf(t, inv["link"].(string))}), 200, "")
		primary := start["application"].(map[string]any)["primary"].(map[string]any)
		if primary["dateOfBirth"] != "1984-03-09" || primary["addressLine1"] != "1200 Maple Street" || primary["zip"] != "97205" || primary["ssn"] != nil {
			t.Fatalf("the prefilled form: %v", primary)
		}
		want(t, h.do(t, req{method: "POST", path: "/office/invites", header: desk.headers(true),
			body: map[string]any{"purchaseAmountCents": 100000, "recordPatientId": "999"}}), 404, chairside.ENOTFOUND)
		loc, err := h.db.FindLocationByEntityKey(context.Background(), EntityKey)
		if err != nil {
			t.Fatal(err)
		}
		sessions, err := h.db.ListLocationSessions(context.Background(), loc.ID, h.clock.Now().Add(-time.Hour), h.clock.Now().Add(time.Hour))
		if err != nil || len(sessions) != 1 {
			t.Fatalf("sessions: %v %v", sessions, err)
		}
		if app, err := h.db.FindApplication(context.Background(), sessions[0].ApplicationID); err != nil || app.RecordPatientID != "15" {
			t.Fatalf("the application's chart number: %+v %v", app, err)
		}

		sim.Fail(1)
		want(t, h.do(t, req{method: "GET", path: "/office/records/patients/15", header: desk.headers(false)}), 502, chairside.ELENDER)
		sim.Revoke()
		want(t, h.do(t, req{method: "GET", path: "/office/records/patients?lastName=lopez", header: desk.headers(false)}), 409, chairside.ECONFLICT)
		if got := want(t, h.do(t, req{method: "GET", path: "/office/records", header: mgr.headers(false)}), 200, ""); got["state"] != "refused" {
			t.Errorf("after a refusal: %v", got)
		}
		sim.Restore()

		audit := want(t, h.do(t, req{method: "GET", path: "/office/audit?tz=UTC", header: mgr.headers(false)}), 200, "")
		if a := fmt.Sprint(audit); !strings.Contains(a, "records_connected") || !strings.Contains(a, "records_searched") || !strings.Contains(a, "records_viewed") {
			t.Errorf("the audit log: %v", audit)
		}
		want(t, h.do(t, req{method: "DELETE", path: "/office/records", header: mgr.headers(true)}), 204, "")
		if got := want(t, h.do(t, req{method: "GET", path: "/office/records", header: mgr.headers(false)}), 200, ""); got["connected"] != false {
			t.Errorf("after disconnecting: %v", got)
		}
		if strings.Contains(h.logs.String(), custKey) || strings.Contains(h.logs.String(), devKey) {
			t.Error("a key is in the log")
		}
	})
}

// recordsCase connects the office of desk's manager to the stand-in,
// posting when postOn says, invites Maria Lopez (chart 15) from her record
// and takes her to a completed case; it answers the case's id and the
// plan she chose.
func recordsCase(t *testing.T, h *harness, mgr, desk staffSession, postOn string) (string, chairside.PaymentPlan) {
	t.Helper()
	want(t, h.do(t, req{method: "PUT", path: "/office/records", header: mgr.headers(true), body: map[string]any{"customerKey": custKey, "postOn": postOn}}), 200, "")
	inv := h.invite(t, desk, map[string]any{"purchaseAmountCents": 186750, "firstName": "Maria", "lastName": "Lopez", "recordPatientId": "15"})
	var s flow.StartResponse
	res := h.do(t, req{method: "POST", path: "/flow/start/tokens/" + tokenOf(t, inv["link"].(string))})
	want(t, res, 200, "")
	res.into(t, &s)
	key := s.Session.DynamicLenderKey
	plan, answer := acceptIn(t, h, key, s.Session.WebSessionID, "123450901")
	return completeAccepted(t, h, key, s.Session.WebSessionID, plan, answer), plan
}

// recordsRow answers what the office's list says of the case's posts to
// Open Dental.
func recordsRow(t *testing.T, h *harness, desk staffSession, appID string) map[string]any {
	t.Helper()
	list := want(t, h.do(t, req{method: "GET", path: "/office/applications?tz=UTC", header: desk.headers(false)}), 200, "")
	for _, r := range list["applications"].([]any) {
		if r.(map[string]any)["id"] == appID {
			rec, _ := r.(map[string]any)["records"].(map[string]any)
			return rec
		}
	}
	t.Fatalf("no row for %s", appID)
	return nil
}

// planNoteWords is how the payment's note names the plan the patient
// chose (office/records_post.go, planNote).
func planNoteWords(p chairside.PaymentPlan) string {
	switch {
	case p.ProductType == chairside.ProductLease:
		return fmt.Sprintf("lease-to-own over %d months", p.DurationMonths)
	case p.TypeID == chairside.PlanDeferredInterest:
		return fmt.Sprintf("no interest if paid in full in %d months (%.2f%% APR after)", p.DurationMonths, p.APR)
	}
	return fmt.Sprintf("%d months at %.2f%% APR", p.DurationMonths, p.APR)
}

// TestPostToOpenDental: a case made from the office's records is posted
// to the patient's ledger once when the patient signs (the office's
// choice), its note naming the lender, the plan chosen and the case. A
// post whose answer was lost is found by its reference before it is sent
// again, so the ledger holds one payment; the list says it is posted.
// Canceling the case posts the matching negative payment, which waits
// while Open Dental refuses the key and goes by itself once it works
// again, with nothing pressed.
func TestPostToOpenDental(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		ctx := context.Background()
		sim := withOpenDental(t, h)
		mgr, desk := managerAndDesk(t, h, EntityKey, "posting")
		appID, plan := recordsCase(t, h, mgr, desk, "signed")

		// The answer is lost once: the retry finds the payment instead of
		// sending it again.
		sim.LoseAnswers(1)
		if n, err := h.office.PostRecords(ctx); err != nil || n != 0 {
			t.Fatalf("a lost answer: %d posted, %v", n, err)
		}
		h.clock.Advance(time.Minute)
		if n, err := h.office.PostRecords(ctx); err != nil || n != 1 {
			t.Fatalf("after a lost answer: %d posted, %v", n, err)
		}
		ledger := sim.Payments(15)
		note := "Chairside: financed by Synchrony, " + planNoteWords(plan) + ", case " + chairside.ApplicationReference(appID)
		if len(ledger) != 1 || !strings.HasPrefix(ledger[0].CheckNum, "CS ") || ledger[0].PayNote != note {
			t.Fatalf("the ledger: %+v, want the note %q", ledger, note)
		}
		if sim.Calls("POST /payments") != 1 {
			t.Errorf("%d payment posts, want 1", sim.Calls("POST /payments"))
		}
		if n, _ := h.office.PostRecords(ctx); n != 0 || len(sim.Payments(15)) != 1 {
			t.Fatalf("posted again: %+v", sim.Payments(15))
		}
		if rec := recordsRow(t, h, desk, appID); rec["state"] != "posted" || rec["posted"] != float64(1) || rec["kind"] != "payment" {
			t.Fatalf("the row: %v", rec)
		}
		want(t, h.do(t, req{method: "POST", path: "/office/applications/" + appID + "/records/retry", header: desk.headers(true)}), 409, chairside.ECONFLICT)
		detail := want(t, h.do(t, req{method: "GET", path: "/office/applications/" + appID, header: desk.headers(false)}), 200, "")
		if rec := detail["records"].(map[string]any); rec["state"] != "posted" {
			t.Fatalf("the case's page: %v", rec)
		}

		// Canceled: a negative payment, which waits for a refused key and is
		// tried again a minute on (office/records_post.go, postWaitRefused).
		want(t, h.do(t, req{method: "POST", path: "/office/applications/" + appID + "/changes", header: with(mgr.headers(true), "void-1"),
			body: map[string]any{"kind": "void", "reason": "The patient chose another treatment."}}), 200, "")
		sim.Revoke()
		if _, err := h.office.PostRecords(ctx); err != nil {
			t.Fatal(err)
		}
		if rec := recordsRow(t, h, desk, appID); rec["state"] != "waiting" || !strings.Contains(rec["error"].(string), "refused") {
			t.Fatalf("while the key is refused: %v", rec)
		}
		sim.Restore()
		h.clock.Advance(30 * time.Second)
		if n, err := h.office.PostRecords(ctx); err != nil || n != 0 || len(sim.Payments(15)) != 1 {
			t.Fatalf("before its wait is over: %d posted, %v", n, err)
		}
		h.clock.Advance(31 * time.Second)
		if n, err := h.office.PostRecords(ctx); err != nil || n != 1 {
			t.Fatalf("once the key works: %d %v", n, err)
		}
		ledger = sim.Payments(15)
		if len(ledger) != 2 || ledger[1].PayAmt != "-"+ledger[0].PayAmt {
			t.Fatalf("the ledger after the cancellation: %+v", ledger)
		}
		if n, _ := h.office.PostRecords(ctx); n != 0 || len(sim.Payments(15)) != 2 {
			t.Fatalf("posted again after the cancellation: %+v", sim.Payments(15))
		}
		if rec := recordsRow(t, h, desk, appID); rec["state"] != "posted" || rec["posted"] != float64(2) || rec["kind"] != "refund" {
			t.Fatalf("the row after the cancellation: %v", rec)
		}
	})
}

// TestPostRefundToOpenDental: an office that posts when the lender funds
// gets the gross amount funded on the patient's ledger, and a partial
// refund as one negative payment of the amount refunded, never before
// the payment it takes back: made while the payment waits for a refused
// key, the refund waits for it. "Retry posting" sends the waiting payment
// once the key works, the refund follows, and a further round posts
// nothing.
func TestPostRefundToOpenDental(t *testing.T) {
	t.Parallel()
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		ctx := context.Background()
		sim := withOpenDental(t, h)
		mgr, desk := managerAndDesk(t, h, EntityKey, "refunds")
		appID, _ := recordsCase(t, h, mgr, desk, "funded")
		// The case's page: ten days on, the case is no longer on the day's
		// list.
		records := func() map[string]any {
			t.Helper()
			detail := want(t, h.do(t, req{method: "GET", path: "/office/applications/" + appID, header: desk.headers(false)}), 200, "")
			rec, _ := detail["records"].(map[string]any)
			return rec
		}
		if n, err := h.office.PostRecords(ctx); err != nil || n != 0 || len(sim.Payments(15)) != 0 {
			t.Fatalf("before the funding: %d posted, %v, ledger %+v", n, err, sim.Payments(15))
		}
		h.clock.Advance(10 * 24 * time.Hour)
		if _, err := h.svc.ReconcileFunding(ctx, 10); err != nil {
			t.Fatal(err)
		}
		var gross int64
		line, err := h.db.MoneyLine(ctx, appID)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range line {
			if e.Kind == chairside.MoneyFunded {
				gross = e.AmountCents
			}
		}
		if gross == 0 {
			t.Fatalf("not funded: %+v", line)
		}

		// The key is refused: the payment waits, and the refund made
		// meanwhile is not posted before it.
		sim.Revoke()
		if n, err := h.office.PostRecords(ctx); err != nil || n != 0 {
			t.Fatalf("a refused key: %d posted, %v", n, err)
		}
		mgr = h.staffSignIn(t, "manager@refunds.example", "the manager's long password") // ten days on
		desk = h.staffSignIn(t, "desk@refunds.example", staffPassword)
		want(t, h.do(t, req{method: "POST", path: "/office/applications/" + appID + "/changes", header: with(mgr.headers(true), "refund-1"),
			body: map[string]any{"kind": "refund", "amountCents": 25_000, "reason": "One filling was not needed."}}), 200, "")
		h.clock.Advance(2 * time.Minute)
		if n, err := h.office.PostRecords(ctx); err != nil || n != 0 {
			t.Fatalf("a refused key, refunded: %d posted, %v", n, err)
		}
		if rec := records(); rec["state"] != "waiting" || rec["kind"] != "payment" || rec["posted"] != float64(0) {
			t.Fatalf("while the payment waits: %v", rec)
		}

		sim.Restore()
		want(t, h.do(t, req{method: "POST", path: "/office/applications/" + appID + "/records/retry", header: desk.headers(true)}), 204, "")
		if n, err := h.office.PostRecords(ctx); err != nil || n != 1 {
			t.Fatalf("the payment once the key works: %d %v", n, err)
		}
		if n, err := h.office.PostRecords(ctx); err != nil || n != 1 {
			t.Fatalf("the refund: %d %v", n, err)
		}
		ledger := sim.Payments(15)
		if len(ledger) != 2 || ledger[0].PayAmt != fmt.Sprintf("%d.%02d", gross/100, gross%100) || ledger[1].PayAmt != "-250.00" ||
			!strings.HasPrefix(ledger[1].CheckNum, ledger[0].CheckNum+" R") || !strings.Contains(ledger[1].PayNote, "refund") {
			t.Fatalf("the ledger after the refund: %+v (funded %d)", ledger, gross)
		}
		h.clock.Advance(5 * time.Minute) // past every wait of a post, within the desk's session
		if n, err := h.office.PostRecords(ctx); err != nil || n != 0 || len(sim.Payments(15)) != 2 {
			t.Fatalf("a further round: %d posted, %v, ledger %+v", n, err, sim.Payments(15))
		}
		if rec := records(); rec["state"] != "posted" || rec["posted"] != float64(2) || rec["kind"] != "refund" ||
			rec["amountCents"] != float64(-25_000) {
			t.Fatalf("the row after the refund: %v", rec)
		}
	})
}

package httpapi_test

import (
	"bufio"
	"context"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/testkit"
)

// recordingNotifier keeps what the outbox dispatcher sent.
type recordingNotifier struct {
	mu   sync.Mutex
	sent []chairside.OutboxMessage
	fail bool
}

func (n *recordingNotifier) Send(_ context.Context, m *chairside.OutboxMessage) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.fail {
		return chairside.Errorf(chairside.ELENDER, "gateway down")
	}
	n.sent = append(n.sent, *m)
	return nil
}

// invite creates an invitation and answers its body. With a mobile
// number, the desk confirms the patient agreed to be texted unless body
// says otherwise.
func (h *harness) invite(t testing.TB, s staffSession, body map[string]any) map[string]any {
	t.Helper()
	if _, ok := body["textConsent"]; !ok && body["mobilePhone"] != nil {
		body["textConsent"] = true
	}
	return want(t, h.do(t, req{method: "POST", path: "/office/invites", header: s.headers(true), body: body}), 201, "")
}

// tokenOf is the token in an invitation's link.
func tokenOf(t testing.TB, link string) string {
	t.Helper()
	u, err := url.Parse(link)
	if err != nil || !strings.HasPrefix(u.Path, "/start/tokens/") {
		t.Fatalf("link %q", link)
	}
	return strings.TrimPrefix(u.Path, "/start/tokens/")
}

// TestOfficeInvite: an invitation from the office screen is a one-time
// link with its QR code; the patient starts with the office's name and
// amount; a canceled invitation's link answers like a used one; the text
// and the email go out through the outbox, and every action is audited.
func TestOfficeInvite(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		st := h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		body := map[string]any{"purchaseAmountCents": 320000, "firstName": "Maria", "lastName": "Approve",
			"mobilePhone": "(415) 555-0134", "email": "maria.lopez@example.com", "experienceType": "at_home"}

		want(t, h.do(t, req{method: "POST", path: "/office/invites", header: s.headers(false), body: body}), 403, chairside.ECSRF)
		bad := want(t, h.do(t, req{method: "POST", path: "/office/invites", header: s.headers(true), body: map[string]any{
			"purchaseAmountCents": 0, "mobilePhone": "555-0134", "email": "maria@", "firstName": "M@ria"}}), 400, chairside.EINVALID)
		fields := map[string]bool{}
		for _, fe := range bad["fieldErrors"].([]any) {
			fields[fe.(map[string]any)["field"].(string)] = true
		}
		for _, f := range []string{"purchaseAmountCents", "mobilePhone", "email", "firstName"} {
			if !fields[f] {
				t.Errorf("no field error for %s: %v", f, bad)
			}
		}

		inv := h.invite(t, s, body)
		qr := inv["qr"].(map[string]any)
		rows := qr["rows"].([]any)
		if int(qr["size"].(float64)) != len(rows) || len(rows) < 21 || len(rows[0].(string)) != len(rows) {
			t.Fatalf("qr: %v", qr)
		}
		sent := inv["sentTo"].([]any)
		if len(sent) != 2 || sent[0].(map[string]any)["to"] != "(•••) •••-0134" || sent[1].(map[string]any)["to"] != "m•••@example.com" {
			t.Fatalf("sentTo %v", sent)
		}
		exp, _ := time.Parse(time.RFC3339, inv["expiresAt"].(string))
		if d := exp.Sub(h.clock.Now()); d < 23*time.Hour || d > 25*time.Hour {
			t.Fatalf("expires in %v", d)
		}

		// The outbox sends both messages once, with the link.
		n := &recordingNotifier{}
		if sentN, err := h.office.Dispatcher(n).DispatchOnce(context.Background()); err != nil || sentN != 2 {
			t.Fatalf("dispatch: %d, %v", sentN, err)
		}
		if sentN, _ := h.office.Dispatcher(n).DispatchOnce(context.Background()); sentN != 0 {
			t.Fatalf("dispatched again: %d", sentN)
		}
		// The text is one message: the practice, the link, how to stop; the
		// email has room for the amount too.
		short := "/i/" + tokenOf(t, inv["link"].(string))
		if !strings.Contains(n.sent[0].Body, short) || !strings.Contains(n.sent[1].Body, inv["link"].(string)) {
			t.Fatalf("the text %q lacks the short link, the email %q the link", n.sent[0].Body, n.sent[1].Body)
		}
		for _, m := range n.sent {
			if !strings.Contains(m.Body, "Bright Smiles") {
				t.Fatalf("message %q lacks the practice", m.Body)
			}
		}
		if !strings.Contains(n.sent[0].Body, "STOP") || !strings.Contains(n.sent[1].Body, "$3,200.00") {
			t.Fatalf("the text %q says how to stop, the email %q the amount", n.sent[0].Body, n.sent[1].Body)
		}
		if n.sent[0].Recipient != "4155550134" || n.sent[1].Recipient != "maria.lopez@example.com" {
			t.Fatalf("recipients %q %q", n.sent[0].Recipient, n.sent[1].Recipient)
		}

		// The patient opens the link: the office's name and amount are there.
		var start struct {
			Application struct {
				PurchaseAmountCents int64
				Primary             struct{ FirstName, LastName string }
			}
			Session struct{ WebSessionID, ExperienceType string }
		}
		res := h.do(t, req{method: "POST", path: "/flow/start/tokens/" + tokenOf(t, inv["link"].(string))})
		want(t, res, 200, "")
		res.into(t, &start)
		if start.Application.PurchaseAmountCents != 320000 || start.Application.Primary.FirstName != "Maria" || start.Session.ExperienceType != "at_home" {
			t.Fatalf("start: %+v", start)
		}
		// An opened invitation cannot be canceled.
		want(t, h.do(t, req{method: "DELETE", path: "/office/invites/" + inv["id"].(string), header: s.headers(true)}), 409, chairside.ECONFLICT)

		// A canceled invitation's link answers as a used one.
		second := h.invite(t, s, map[string]any{"purchaseAmountCents": 150000})
		if len(second["sentTo"].([]any)) != 0 || second["experienceType"] != "in_store" {
			t.Fatalf("second: %v", second)
		}
		id := second["id"].(string)
		want(t, h.do(t, req{method: "DELETE", path: "/office/invites/" + id, header: s.headers(false)}), 403, chairside.ECSRF)
		want(t, h.do(t, req{method: "DELETE", path: "/office/invites/" + id, header: s.headers(true)}), 204, "")
		want(t, h.do(t, req{method: "DELETE", path: "/office/invites/" + id, header: s.headers(true)}), 409, chairside.ECONFLICT)
		want(t, h.do(t, req{method: "POST", path: "/flow/start/tokens/" + tokenOf(t, second["link"].(string))}), 404, chairside.ENOTFOUND)

		// Another office cannot see or cancel this office's invitation.
		other := &chairside.Location{EntityKey: "9999888877776666", Name: "Other Dental", State: "CA", GroupID: "g2"}
		if err := h.eng.DB.CreateLocation(context.Background(), other); err != nil {
			t.Fatal(err)
		}
		h.addStaff(t, other.EntityKey, "desk@other.example", staffPassword)
		theirs := h.staffSignIn(t, "desk@other.example", staffPassword)
		third := h.invite(t, s, map[string]any{"purchaseAmountCents": 99900})
		want(t, h.do(t, req{method: "DELETE", path: "/office/invites/" + third["id"].(string), header: theirs.headers(true)}), 404, chairside.ENOTFOUND)
		list := want(t, h.do(t, req{method: "GET", path: "/office/applications", header: theirs.headers(false)}), 200, "")
		if n := len(list["applications"].([]any)); n != 0 {
			t.Fatalf("another office sees %d rows", n)
		}

		actions := strings.Join(h.audit(t, st.LocationID), ",")
		for _, a := range []string{chairside.AuditInviteCreated, chairside.AuditInviteCanceled} {
			if !strings.Contains(actions, a) {
				t.Errorf("audit log %s lacks %s", actions, a)
			}
		}
		if logs := h.logs.String(); strings.Contains(logs, "4155550134") || strings.Contains(logs, "maria.lopez") {
			t.Fatal("the patient's phone or email reached the log")
		}
	})
}

// TestOfficeOutboxRetries: a failed send is tried again later and given up
// after the last attempt, its content erased.
func TestOfficeOutboxRetries(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		st := h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		h.invite(t, s, map[string]any{"purchaseAmountCents": 320000, "mobilePhone": "4155550134"})
		n := &recordingNotifier{fail: true}
		d := h.office.Dispatcher(n)
		for i := range 5 {
			if _, err := d.DispatchOnce(context.Background()); err != nil {
				t.Fatal(err)
			}
			h.clock.Advance(time.Hour)
			msgs, _ := h.eng.DB.ListOutbox(context.Background(), st.LocationID)
			want := chairside.OutboxQueued
			if i == 4 {
				want = chairside.OutboxFailed
			}
			if len(msgs) != 1 || msgs[0].State != want || msgs[0].Attempts != i+1 {
				t.Fatalf("after attempt %d: %+v", i+1, msgs[0])
			}
		}
		n.fail = false
		if sent, _ := d.DispatchOnce(context.Background()); sent != 0 {
			t.Fatal("a given-up message was sent")
		}
	})
}

// TestOfficeList: the office's day list follows a patient from the
// invitation to the approval and the plan, filters by status and day,
// shows what went idle as timed out, and exports the day as CSV.
func TestOfficeList(t *testing.T) {
	eachEngine(t, config{}, func(t *testing.T, h *harness) {
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		list := func(query string) []map[string]any {
			t.Helper()
			m := want(t, h.do(t, req{method: "GET", path: "/office/applications" + query, header: s.headers(false)}), 200, "")
			var out []map[string]any
			for _, r := range m["applications"].([]any) {
				out = append(out, r.(map[string]any))
			}
			return out
		}
		inv := h.invite(t, s, map[string]any{"purchaseAmountCents": 320000, "firstName": "Maria", "lastName": "Approve"})
		if rows := list(""); len(rows) != 1 || rows[0]["kind"] != "invite" || rows[0]["status"] != "invited" || rows[0]["lastName"] != "Approve" {
			t.Fatalf("rows after invite: %v", rows)
		}
		h.clock.Advance(time.Second)
		var start struct{ Session struct{ WebSessionID string } }
		res := h.do(t, req{method: "POST", path: "/flow/start/tokens/" + tokenOf(t, inv["link"].(string))})
		want(t, res, 200, "")
		res.into(t, &start)
		sid := start.Session.WebSessionID
		rows := list("")
		if len(rows) != 1 || rows[0]["kind"] != "application" || rows[0]["status"] != "in_progress" || rows[0]["firstName"] != "Maria" {
			t.Fatalf("rows after start: %v", rows)
		}

		want(t, h.prequalify(t, sid, "synchrony_standard", testkit.Applicant("Approve", "123450901")), 200, "")
		res = h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans", session: sid, body: map[string]any{"amountCents": 320000}})
		var plans struct {
			PaymentPlans []struct {
				LenderPlanCode       string `json:"providerPlanCode"`
				MonthlyAmountCents   int64
				DurationMonths       int
				PaymentCount         int
				FinalPaymentCents    int64
				TotalOfPaymentsCents int64
			}
		}
		want(t, res, 200, "")
		res.into(t, &plans)
		plan := plans.PaymentPlans[0]
		want(t, h.do(t, req{method: "POST", path: "/providers/synchrony_standard/payment/plans/" + plan.LenderPlanCode + "/select", session: sid}), 200, "")

		rows = list("")
		r := rows[0]
		p, _ := r["plan"].(map[string]any)
		lenders := r["lenders"].([]any)
		if r["status"] != "approved" || r["approvedAmountCents"].(float64) <= 0 || p == nil ||
			int64(p["monthlyAmountCents"].(float64)) != plan.MonthlyAmountCents || int(p["durationMonths"].(float64)) != plan.DurationMonths ||
			int(p["paymentCount"].(float64)) != plan.PaymentCount || int64(p["finalPaymentCents"].(float64)) != plan.FinalPaymentCents ||
			int64(p["totalOfPaymentsCents"].(float64)) != plan.TotalOfPaymentsCents || plan.PaymentCount == 0 ||
			len(lenders) != 1 || lenders[0].(map[string]any)["lenderName"] != "Synchrony" {
			t.Fatalf("approved row: %v", r)
		}
		// A patient who only reads a screen (the session's last call moves)
		// changes nothing the office sees: the live list has nothing to push.
		before := h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}).body
		h.clock.Advance(10 * time.Second)
		want(t, h.do(t, req{method: "GET", path: "/locations/current", session: sid}), 200, "")
		if after := h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}).body; string(after) != string(before) {
			t.Fatalf("a read changed the list:\n%s\n%s", before, after)
		}
		body := strings.ToLower(string(h.do(t, req{method: "GET", path: "/office/applications", header: s.headers(false)}).body))
		for _, secret := range []string{"123450901", "ssn", "dateofbirth", "income", "address"} {
			if strings.Contains(body, secret) {
				t.Fatalf("the list shows %s", secret)
			}
		}
		if got := list("?status=approved"); len(got) != 1 {
			t.Fatalf("status=approved: %v", got)
		}
		if got := list("?status=declined"); len(got) != 0 {
			t.Fatalf("status=declined: %v", got)
		}
		yesterday := h.clock.Now().AddDate(0, 0, -1).Format("2006-01-02")
		if got := list("?day=" + yesterday); len(got) != 0 {
			t.Fatalf("yesterday: %v", got)
		}
		for _, q := range []string{"?day=2026-13-01", "?tz=Mars/Olympus", "?status=happy"} {
			want(t, h.do(t, req{method: "GET", path: "/office/applications" + q, header: s.headers(false)}), 400, chairside.EBADREQUEST)
		}

		// The detail view has the history.
		d := want(t, h.do(t, req{method: "GET", path: "/office/applications/" + r["id"].(string), header: s.headers(false)}), 200, "")
		var types []string
		for _, e := range d["events"].([]any) {
			types = append(types, e.(map[string]any)["type"].(string))
		}
		if got := strings.Join(types, ","); !strings.Contains(got, "flow.started") || !strings.Contains(got, "decision.recorded") || !strings.Contains(got, "plan.selected") {
			t.Fatalf("events: %s", got)
		}

		// The CSV export of the day.
		res = h.do(t, req{method: "GET", path: "/office/applications.csv?tz=America/Chicago", header: s.headers(false)})
		if ct := res.header.Get("Content-Type"); res.status != 200 || ct != "text/csv; charset=utf-8" ||
			!strings.Contains(res.header.Get("Content-Disposition"), "attachment; filename=chairside-"+EntityKey+"-") {
			t.Fatalf("csv headers %v", res.header)
		}
		lines := strings.Split(strings.TrimSpace(string(res.body)), "\n")
		if len(lines) != 2 || !strings.HasPrefix(lines[0], "Started,") || !strings.Contains(lines[1], "Maria,Approve,approved") ||
			!strings.Contains(lines[1], "Synchrony: ") || strings.Contains(string(res.body), "123450901") {
			t.Fatalf("csv:\n%s", res.body)
		}

		// Left idle, the session shows as timed out.
		h.clock.Advance(15 * time.Minute)
		if rows := list(""); rows[0]["status"] != "timed_out" {
			t.Fatalf("idle row: %v", rows[0])
		}
	})
}

// TestOfficeStream: the live list sends the list at once and again when a
// patient's application moves, and ends when the staff member signs out.
func TestOfficeStream(t *testing.T) {
	sqliteOnly(t, config{}, func(t *testing.T, h *harness) {
		h.office.StreamEvery = 20 * time.Millisecond
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		hr, _ := http.NewRequest("GET", h.srv.URL+"/api/v1/office/applications/stream", nil)
		hr.Header.Set("Cookie", s.cookie.Name+"="+s.cookie.Value)
		resp, err := h.srv.Client().Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
			t.Fatalf("stream: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		events := make(chan string, 16)
		go func() {
			defer close(events)
			sc := bufio.NewScanner(resp.Body)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				if line := sc.Text(); strings.HasPrefix(line, "data: ") {
					events <- strings.TrimPrefix(line, "data: ")
				} else if line == "event: signed_out" {
					events <- line
				}
			}
		}()
		next := func() string {
			t.Helper()
			select {
			case e, ok := <-events:
				if !ok {
					t.Fatal("the stream ended")
				}
				return e
			case <-time.After(10 * time.Second):
				t.Fatal("no event")
			}
			return ""
		}
		if first := next(); !strings.Contains(first, `"applications":[]`) {
			t.Fatalf("first event %s", first)
		}
		sid := h.start(t)
		if e := next(); !strings.Contains(e, `"status":"in_progress"`) {
			t.Fatalf("after start: %s", e)
		}
		want(t, h.prequalify(t, sid, "synchrony_standard", testkit.Applicant("Approve", "123450901")), 200, "")
		for e := next(); !strings.Contains(e, `"status":"approved"`); e = next() {
		}
		want(t, h.do(t, req{method: "DELETE", path: "/office/session", header: s.headers(true)}), 204, "")
		deadline := time.After(10 * time.Second)
		signedOut := false
		for {
			select {
			case e, ok := <-events:
				if !ok {
					if !signedOut {
						t.Fatal("the stream ended without a signed_out event")
					}
					return // ended with the session
				}
				signedOut = signedOut || e == "event: signed_out"
			case <-deadline:
				t.Fatal("the stream outlived the staff session")
			}
		}
	})
}

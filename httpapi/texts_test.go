package httpapi_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/messaging/twiliosim"
)

const (
	twilioAccount = "AC00000000000000000000000000000001"
	twilioToken   = "the-account's-auth-token-0123456789"
	twilioService = "MG00000000000000000000000000000001"
)

// postForm sends a Twilio webhook to the server, signed with token ("":
// unsigned), and answers the status.
func postForm(t *testing.T, h *harness, path string, form url.Values, token string) int {
	t.Helper()
	target := h.srv.URL + "/api/v1" + path
	r, err := http.NewRequest(http.MethodPost, target, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if token != "" {
		r.Header.Set(messaging.SignatureHeader, messaging.Sign(token, target, form))
	}
	res, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// TestTextsThroughTwilio: an invitation's text goes out through the
// Twilio stand-in as one message from the office's sender, and the
// stand-in's signed status reports move it to delivered. A report with a
// wrong signature is refused (401) and changes nothing; a report again,
// or late, never moves it back. A patient's STOP, or Twilio's 21610 for a
// number that stopped before we heard, opts the number out: no text goes
// to it again. The auth token is in no log line and no outbox row.
func TestTextsThroughTwilio(t *testing.T) {
	eachEngine(t, config{twilioToken: twilioToken}, func(t *testing.T, h *harness) {
		ctx := context.Background()
		sim := twiliosim.New(twilioAccount, twilioToken)
		simSrv := httptest.NewServer(sim)
		defer simSrv.Close()
		emails := &recordingNotifier{}
		d := h.office.Dispatcher(&messaging.Notifier{
			Twilio:       &messaging.Twilio{BaseURL: simSrv.URL, AccountSID: twilioAccount, AuthToken: twilioToken},
			Default:      twilioService,
			OfficeSender: func(context.Context, string) (string, error) { return "", nil },
			StatusURL:    h.srv.URL + "/api/v1/texts/twilio/status", Store: h.db, Other: emails, Now: h.clock.Now,
		})
		h.addStaff(t, EntityKey, staffEmail, staffPassword)
		s := h.staffSignIn(t, staffEmail, staffPassword)
		inv := h.invite(t, s, map[string]any{"purchaseAmountCents": 320000, "firstName": "Maria", "lastName": "Approve",
			"mobilePhone": "(415) 555-0134", "email": "maria.lopez@example.com"})
		// The text goes; the email waits behind it.
		if n, err := d.DispatchOnce(ctx); err != nil || n != 1 {
			t.Fatalf("dispatch: %d %v", n, err)
		}
		sim.Wait()
		msgs := sim.Messages()
		if len(msgs) != 1 || msgs[0].To != "+14155550134" || msgs[0].Sender != twilioService {
			t.Fatalf("the stand-in took %+v", msgs)
		}
		token := tokenOf(t, inv["link"].(string))
		if n, ok := messaging.GSMLength(msgs[0].Body); !ok || n > messaging.SegmentChars || !strings.Contains(msgs[0].Body, h.srv.URL+"/i/"+token+" ") {
			t.Errorf("the text is not one message with the short link: %q", msgs[0].Body)
		}
		// The short link leads to the invitation's start page.
		noFollow := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		res, err := noFollow.Get(h.srv.URL + "/i/" + token)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusFound || res.Header.Get("Location") != "/start/tokens/"+token {
			t.Errorf("the short link: %d to %q", res.StatusCode, res.Header.Get("Location"))
		}
		loc, err := h.db.FindLocationByEntityKey(ctx, EntityKey)
		if err != nil {
			t.Fatal(err)
		}
		text := func() chairside.OutboxMessage {
			t.Helper()
			all, err := h.db.ListOutbox(ctx, loc.ID)
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range all {
				if m.Channel == chairside.ChannelSMS && m.ProviderRef == msgs[0].SID {
					return *m
				}
			}
			t.Fatalf("no outbox row for %s", msgs[0].SID)
			return chairside.OutboxMessage{}
		}
		if m := text(); m.Delivery != messaging.StatusDelivered || m.InviteID != inv["id"] || m.State != chairside.OutboxSent {
			t.Fatalf("after the reports: %+v", m)
		}

		report := url.Values{"MessageSid": {msgs[0].SID}, "MessageStatus": {"sent"}, "To": {"+14155550134"}, "MessagingServiceSid": {twilioService}}
		if code := postForm(t, h, "/texts/twilio/status", report, twilioToken); code != http.StatusNoContent {
			t.Errorf("a late 'sent': %d", code)
		}
		report.Set("MessageStatus", "undelivered")
		report.Set("ErrorCode", "30003")
		if code := postForm(t, h, "/texts/twilio/status", report, "not the token"); code != http.StatusUnauthorized {
			t.Errorf("a forged report: %d", code)
		}
		if code := postForm(t, h, "/texts/twilio/status", report, ""); code != http.StatusUnauthorized {
			t.Errorf("an unsigned report: %d", code)
		}
		if m := text(); m.Delivery != messaging.StatusDelivered || m.DeliveryError != 0 {
			t.Fatalf("a late or forged report moved the text: %+v", m)
		}

		// Delivered: the held email never goes.
		if _, err := d.DispatchOnce(ctx); err != nil || len(emails.sent) != 0 {
			t.Fatalf("after a delivered text, emails %+v (%v)", emails.sent, err)
		}
		// Undelivered: the email goes instead, and the list says why.
		sim.Fail("+14155550177", 30003)
		lost := h.invite(t, s, map[string]any{"purchaseAmountCents": 90000, "mobilePhone": "415-555-0177", "email": "jo@example.com"})
		if _, err := d.DispatchOnce(ctx); err != nil {
			t.Fatal(err)
		}
		sim.Wait()
		if n, err := d.DispatchOnce(ctx); err != nil || n != 1 || len(emails.sent) != 1 || emails.sent[0].Recipient != "jo@example.com" {
			t.Fatalf("after an undelivered text: %d sent, emails %+v (%v)", n, emails.sent, err)
		}
		// Send again: the same link, to the same number, counted.
		again := want(t, h.do(t, req{method: "POST", path: "/office/invites/" + inv["id"].(string) + "/resend", header: s.headers(true)}), 200, "")
		if sent := again["sentTo"].([]any); len(sent) != 2 || sent[1].(map[string]any)["held"] != true {
			t.Errorf("sent again to %v", sent)
		}
		if _, err := d.DispatchOnce(ctx); err != nil {
			t.Fatal(err)
		}
		sim.Wait()
		if all := sim.Messages(); len(all) != 3 || all[2].To != "+14155550134" || !strings.Contains(all[2].Body, "/i/"+token+" ") {
			t.Fatalf("the text sent again: %+v", all)
		}
		want(t, h.do(t, req{method: "POST", path: "/office/invites/" + inv["id"].(string) + "/resend", header: s.headers(true)}), 200, "")
		want(t, h.do(t, req{method: "POST", path: "/office/invites/" + inv["id"].(string) + "/resend", header: s.headers(true)}), 409, "conflict")
		want(t, h.do(t, req{method: "POST", path: "/office/invites/nope/resend", header: s.headers(true)}), 404, "resource_not_found")
		if _, err := d.DispatchOnce(ctx); err != nil {
			t.Fatal(err)
		}
		sim.Wait()

		// STOP: no text to that number from this office again.
		if err := sim.Reply(ctx, h.srv.URL+"/api/v1/texts/twilio/inbound", twilioService, "+14155550134", "Stop texting me"); err != nil {
			t.Fatal(err)
		}
		if out, err := h.db.OptedOut(ctx, twilioService, "+14155550134"); err != nil || !out {
			t.Fatalf("after STOP: %v %v", out, err)
		}
		h.invite(t, s, map[string]any{"purchaseAmountCents": 120000, "mobilePhone": "(415) 555-0134"})
		if _, err := d.DispatchOnce(ctx); err != nil {
			t.Fatal(err)
		}
		// A number that stopped at Twilio before we heard: 21610, then an opt-out here too.
		sim.OptOut(twilioService, "+14155550199")
		h.invite(t, s, map[string]any{"purchaseAmountCents": 120000, "mobilePhone": "(415) 555-0199"})
		if _, err := d.DispatchOnce(ctx); err != nil {
			t.Fatal(err)
		}
		if len(sim.Messages()) != 4 {
			t.Errorf("texts went to numbers that opted out: %+v", sim.Messages())
		}
		if out, err := h.db.OptedOut(ctx, twilioService, "+14155550199"); err != nil || !out {
			t.Errorf("after 21610: %v %v", out, err)
		}
		// The office's list says what became of each invitation's text.
		list := want(t, h.do(t, req{method: "GET", path: "/office/applications?tz=UTC", header: s.headers(false)}), 200, "")
		states := map[string]string{}
		for _, row := range list["applications"].([]any) {
			r := row.(map[string]any)
			for _, m := range r["messages"].([]any) {
				msg := m.(map[string]any)
				states[r["id"].(string)+" "+msg["to"].(string)] = fmt.Sprintf("%v %v", msg["state"], msg["sends"])
			}
		}
		// The first invitation's text was delivered before the STOP: its row
		// says opted out now, so nobody texts the number again.
		if states[inv["id"].(string)+" (•••) •••-0134"] != "opted_out 3" || states[inv["id"].(string)+" m•••@example.com"] != "held 3" ||
			states[lost["id"].(string)+" (•••) •••-0177"] != "undelivered 1" || states[lost["id"].(string)+" j•••@example.com"] != "sent 1" || len(states) != 6 {
			t.Errorf("the list's messages: %v", states)
		}
		opted := 0
		for _, st := range states {
			if strings.HasPrefix(st, "opted_out ") {
				opted++
			}
		}
		if opted != 3 {
			t.Errorf("the list's texts to opted-out numbers: %v", states)
		}
		all, err := h.db.ListOutbox(ctx, loc.ID)
		if err != nil {
			t.Fatal(err)
		}
		failed := 0
		for _, m := range all {
			if m.State == chairside.OutboxFailed {
				failed++
			}
			if strings.Contains(m.LastError, twilioToken) {
				t.Errorf("the token is in an outbox row: %+v", m)
			}
		}
		if failed != 2 {
			t.Errorf("%d texts given up, want the 2 to opted-out numbers, at once", failed)
		}
		// A number without the patient's agreement to be texted is refused.
		want(t, h.do(t, req{method: "POST", path: "/office/invites", header: s.headers(true),
			body: map[string]any{"purchaseAmountCents": 100000, "mobilePhone": "4155550100"}}), 400, "validation_error")
		if strings.Contains(h.logs.String(), twilioToken) {
			t.Error("the auth token is in the log")
		}
	})
}

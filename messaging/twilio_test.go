package messaging_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/messaging/twiliosim"
)

const (
	account = "AC00000000000000000000000000000009"
	token   = "a-token-for-the-stand-in"
	service = "MG00000000000000000000000000000009"
)

// TestTwilioClient: against the stand-in, a message is taken and its
// reports arrive signed, sent then delivered (or undelivered with the
// number's error); a wrong token, a bad number and an opted-out number are
// refusals with Twilio's codes, only the last an opt-out, none worth a
// retry; the token is in no error.
func TestTwilioClient(t *testing.T) {
	var mu sync.Mutex
	var reports []messaging.StatusReport
	var statusURL string
	cb := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_ = r.ParseForm()
		if !messaging.Verify([]string{token}, statusURL, r.PostForm, r.Header.Get(messaging.SignatureHeader)) {
			t.Errorf("an unsigned report: %v", r.PostForm)
		}
		rep, ok := messaging.ReadStatus(r.PostForm)
		if !ok {
			t.Errorf("an unreadable report: %v", r.PostForm)
		}
		mu.Lock()
		reports = append(reports, rep)
		mu.Unlock()
	}))
	defer cb.Close()
	statusURL = cb.URL + "/status"
	sim := twiliosim.New(account, token)
	sim.Fail("+15125550111", 30003)
	srv := httptest.NewServer(sim)
	defer srv.Close()
	tw := &messaging.Twilio{BaseURL: srv.URL, AccountSID: account, AuthToken: token}
	ctx := context.Background()
	from := messaging.Sender{MessagingServiceSID: service}

	ok, err := tw.Send(ctx, from, "+15125550100", "Hello", statusURL)
	if err != nil || !strings.HasPrefix(ok.SID, "SM") || ok.Status != messaging.StatusQueued {
		t.Fatalf("send: %+v %v", ok, err)
	}
	bad, err := tw.Send(ctx, from, "+15125550111", "Hello", statusURL)
	if err != nil {
		t.Fatal(err)
	}
	sim.Wait()
	got := map[string][]string{}
	for _, r := range reports {
		got[r.SID] = append(got[r.SID], r.Status)
		if r.SID == bad.SID && r.Status == messaging.StatusUndelivered && r.ErrorCode != 30003 {
			t.Errorf("undelivered without its code: %+v", r)
		}
	}
	if strings.Join(got[ok.SID], ",") != "sent,delivered" || strings.Join(got[bad.SID], ",") != "sent,undelivered" {
		t.Errorf("reports: %v", got)
	}

	wrong := &messaging.Twilio{BaseURL: srv.URL, AccountSID: account, AuthToken: "not-it"}
	_, err = wrong.Send(ctx, from, "+15125550100", "Hello", "")
	var se *messaging.SendError
	if !errors.As(err, &se) || se.Status != 401 || se.Code != 20003 || se.Retry() || strings.Contains(err.Error(), "not-it") {
		t.Errorf("a wrong token: %v", err)
	}
	if _, err := tw.Send(ctx, from, "5125550100", "Hello", ""); !errors.As(err, &se) || se.Code != 21211 {
		t.Errorf("a number not in E.164: %v", err)
	}
	sim.OptOut(service, "+15125550100")
	if _, err := tw.Send(ctx, from, "+15125550100", "Hello", ""); !messaging.OptedOut(err) {
		t.Errorf("an opted-out number: %v", err)
	}
	if len(sim.Messages()) != 2 {
		t.Errorf("the stand-in took %d messages, want 2", len(sim.Messages()))
	}
}

// TestReadStatus: a report names its message and a status we follow.
func TestReadStatus(t *testing.T) {
	r, ok := messaging.ReadStatus(url.Values{"MessageSid": {"SM1"}, "MessageStatus": {"Undelivered"}, "ErrorCode": {"30005"}})
	if !ok || r.Status != messaging.StatusUndelivered || r.ErrorCode != 30005 {
		t.Errorf("%+v %v", r, ok)
	}
	if _, ok := messaging.ReadStatus(url.Values{"MessageSid": {"SM1"}, "MessageStatus": {"read"}}); ok {
		t.Error("a status we do not follow was read")
	}
	if messaging.StatusRank(messaging.StatusSent) >= messaging.StatusRank(messaging.StatusDelivered) ||
		messaging.StatusRank(messaging.StatusQueued) >= messaging.StatusRank(messaging.StatusSent) {
		t.Error("statuses out of order")
	}
}

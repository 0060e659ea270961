package office

import (
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/messaging"
)

func TestSessionStatus(t *testing.T) {
	now := time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)
	finished := now.Add(-time.Minute)
	live := func(outcome string, fin *time.Time) *chairside.Session {
		return &chairside.Session{CreatedAt: now.Add(-5 * time.Minute), LastSeenAt: now.Add(-time.Minute), TimeoutAfterMillis: 600000,
			WarnCountdownMillis: 30000, Outcome: outcome, FinishedAt: fin}
	}
	pa := func(status, code string) *chairside.LenderApplication {
		p := &chairside.LenderApplication{Status: status}
		if code != "" {
			p.Decision = &chairside.Decision{ResponseCode: code}
		}
		return p
	}
	idle := live("", nil)
	idle.LastSeenAt = now.Add(-time.Hour)
	for _, c := range []struct {
		name string
		sess *chairside.Session
		pas  []*chairside.LenderApplication
		want string
	}{
		{"opened, nothing sent", live("", nil), nil, RowInProgress},
		{"fields sent", live("", nil), []*chairside.LenderApplication{pa(chairside.StatusStarted, "")}, RowInProgress},
		{"declined then nothing yet", live("", nil), []*chairside.LenderApplication{pa(chairside.StatusDecided, "declined"), pa(chairside.StatusStarted, "")}, RowDeclined},
		{"declined then approved", live("", nil), []*chairside.LenderApplication{pa(chairside.StatusDecided, "declined"), pa(chairside.StatusDecided, "prequalified")}, RowApproved},
		{"pending", live("", nil), []*chairside.LenderApplication{pa(chairside.StatusDecided, "pending")}, RowPending},
		{"signed", live("", nil), []*chairside.LenderApplication{pa(chairside.StatusSigned, "approved")}, RowSigned},
		{"completed, not finished yet", live("", nil), []*chairside.LenderApplication{pa(chairside.StatusCompleted, "approved")}, RowCompleted},
		{"finished completed", live(chairside.OutcomeCompleted, &finished), []*chairside.LenderApplication{pa(chairside.StatusCompleted, "approved")}, RowCompleted},
		{"canceled after approval", live(chairside.OutcomeCancel, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "approved")}, RowCanceled},
		{"timed out by the browser", live(chairside.OutcomeTimeout, &finished), nil, RowTimedOut},
		{"left idle", idle, []*chairside.LenderApplication{pa(chairside.StatusDecided, "approved")}, RowTimedOut},
		{"no financing", live(chairside.OutcomeNoFinancing, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "declined")}, RowDeclined},
		{"finished declined", live(chairside.OutcomeDeclined, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "declined")}, RowDeclined},
		{"finished with no offer", live(chairside.OutcomeNoOffer, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "nooffer")}, RowNoOffer},
		{"finished after no answer", live(chairside.OutcomeNoOffer, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "error")}, RowNoOffer},
		{"finished with the offer expired", live(chairside.OutcomeOfferExpired, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "prequalified")}, RowOfferExpired},
		{"no offer, nothing else yet", live("", nil), []*chairside.LenderApplication{pa(chairside.StatusDecided, "nooffer"), pa(chairside.StatusStarted, "")}, RowNoOffer},
		{"finished with an offer not taken", live(chairside.OutcomeNoFinancing, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "prequalified")}, RowApproved},
		{"finished pending", live(chairside.OutcomePending, &finished), []*chairside.LenderApplication{pa(chairside.StatusDecided, "pending")}, RowPending},
	} {
		if got := SessionStatus(c.sess, c.pas, now); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

func TestInviteRow(t *testing.T) {
	now := time.Date(2026, 11, 25, 15, 0, 0, 0, time.UTC)
	tok := &chairside.FlowToken{ID: "i1", CreatedAt: now.Add(-time.Hour), ExpiresAt: now.Add(time.Hour)}
	if r := inviteRow(tok, now); r.Status != RowInvited || r.Kind != KindInvite {
		t.Fatalf("open: %+v", r)
	}
	if r := inviteRow(tok, now.Add(2*time.Hour)); r.Status != RowInviteExpired {
		t.Fatalf("expired: %+v", r)
	}
	tok.CanceledAt = &now
	if r := inviteRow(tok, now); r.Status != RowInviteCanceled {
		t.Fatalf("canceled: %+v", r)
	}
}

func TestParseFilter(t *testing.T) {
	now := time.Date(2026, 11, 25, 3, 0, 0, 0, time.UTC) // the evening before in Chicago
	f, err := ParseFilter("", "America/Chicago", "", now)
	if err != nil || f.Day != "2026-11-24" || f.To.Sub(f.From) != 24*time.Hour || f.From.UTC().Hour() != 6 {
		t.Fatalf("today in Chicago: %+v %v", f, err)
	}
	// The day clocks go back has 25 hours.
	f, err = ParseFilter("2026-11-01", "America/Chicago", "approved", now)
	if err != nil || f.To.Sub(f.From) != 25*time.Hour || f.Status != RowApproved {
		t.Fatalf("fall back day: %+v %v", f, err)
	}
	if f, err = ParseFilter("", "", "", now); err != nil || f.Day != "2026-11-25" || f.Zone != time.UTC {
		t.Fatalf("default: %+v %v", f, err)
	}
	for _, bad := range [][3]string{{"25/11/2026", "", ""}, {"", "Local", ""}, {"", "Nowhere/City", ""}, {"", "", "approve"}} {
		if _, err := ParseFilter(bad[0], bad[1], bad[2], now); chairside.ErrorCode(err) != chairside.EBADREQUEST {
			t.Errorf("%v: %v", bad, err)
		}
	}
}

func TestCSVSafe(t *testing.T) {
	for in, want := range map[string]string{"=HYPERLINK(\"x\")": "'=HYPERLINK(\"x\")", "+1": "'+1", "-2": "'-2", "@SUM": "'@SUM",
		"Maria": "Maria", "$3,200.00": "$3,200.00", "": ""} {
		if got := safeCells([]string{in})[0]; got != want {
			t.Errorf("safeCells(%q) = %q, want %q", in, got, want)
		}
	}
	rec := csvRecord(&Row{FirstName: "=cmd", LastName: "O'Hara", CreatedAt: time.Unix(0, 0)}, time.UTC)
	if rec[1] != "'=cmd" || rec[2] != "O'Hara" || len(rec) != len(csvHeader) {
		t.Fatalf("record %v", rec)
	}
}

func TestCheckInvite(t *testing.T) {
	now := time.Now()
	amount := int64(320000)
	got, err := checkInvite(InviteRequest{PurchaseAmountCents: &amount, FirstName: " Maria ", MobilePhone: "+1 (415) 555-0134", TextConsent: true}, now)
	if err != nil || got.FirstName != "Maria" || got.MobilePhone != "4155550134" || got.ExperienceType != chairside.ExperienceInStore {
		t.Fatalf("good: %+v %v", got, err)
	}
	big := int64(MaxInviteCents + 1)
	// A number without the patient's agreement to be texted is refused, as
	// is a language we do not speak.
	_, err = checkInvite(InviteRequest{PurchaseAmountCents: &big, Email: "no at sign", ExperienceType: "car", MobilePhone: "4155550134", Language: "fr"}, now)
	var fields []string
	for _, fe := range chairside.FieldErrorsOf(err) {
		fields = append(fields, fe.Field)
	}
	if strings.Join(fields, ",") != "purchaseAmountCents,email,experienceType,language,textConsent" {
		t.Fatalf("field errors %v", fields)
	}
	if _, err := checkInvite(InviteRequest{}, now); len(chairside.FieldErrorsOf(err)) != 1 {
		t.Fatalf("no amount: %v", err)
	}
	if MaskPhone("4155550134") != "(•••) •••-0134" || MaskEmail("maria@example.com") != "m•••@example.com" {
		t.Fatal("masks")
	}
}

func TestLogNotifier(t *testing.T) {
	m := &chairside.OutboxMessage{ID: "m1", Channel: chairside.ChannelSMS, Recipient: "4155550134", RecipientMasked: MaskPhone("4155550134"),
		Body: "Open https://chairside.example/start/tokens/SECRET"}
	for _, show := range []bool{false, true} {
		var buf strings.Builder
		n := LogNotifier{Log: slog.New(slog.NewJSONHandler(&buf, nil)), ShowBody: show}
		if err := n.Send(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.Contains(out, "4155550134") || !strings.Contains(out, "0134") || strings.Contains(out, "SECRET") == !show {
			t.Errorf("ShowBody %v logged %s", show, out)
		}
	}
	// A service whose dispatcher only logs tells staff messages do not reach patients.
	s := New(nil, nil)
	loc := &chairside.Location{}
	if texts, emails := s.MessagesReach(loc); texts || emails {
		t.Fatal("messages reach patients without a dispatcher")
	}
	s.Dispatcher(LogNotifier{Log: slog.New(slog.DiscardHandler)})
	if texts, emails := s.MessagesReach(loc); texts || emails {
		t.Fatal("a log-only notifier counted as delivering")
	}
	s.Dispatcher(sender{})
	if texts, emails := s.MessagesReach(loc); !texts || !emails {
		t.Fatal("a real notifier did not count as delivering")
	}
	// Texts through Twilio reach an office's patients only from a sender:
	// the office's own, else the server's.
	logs := LogNotifier{Log: slog.New(slog.DiscardHandler)}
	s.Dispatcher(messaging.Channels{Text: &messaging.Notifier{}, Email: logs})
	if texts, emails := s.MessagesReach(loc); texts || emails {
		t.Fatalf("no sender anywhere: texts %v, emails %v", texts, emails)
	}
	if texts, _ := s.MessagesReach(&chairside.Location{TextSender: "+15125550100"}); !texts {
		t.Fatal("the office's own sender did not count")
	}
	s.Dispatcher(messaging.Channels{Text: &messaging.Notifier{Default: "MG0123456789abcdef0123456789abcdef"}, Email: logs})
	if texts, _ := s.MessagesReach(loc); !texts {
		t.Fatal("the server's sender did not count")
	}
}

type sender struct{}

func (sender) Send(context.Context, *chairside.OutboxMessage) error { return nil }

package messaging_test

import (
	"context"
	"errors"
	"net"
	"strconv"
	"strings"
	"testing"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/messaging"
	"github.com/chairside/chairside/messaging/smtpsim"
)

// TestMailer: an invitation's email reaches the SMTP stand-in from the
// practice's name, with a text and an HTML part that both carry the link;
// a recipient the server refuses for good is a refusal not worth a retry;
// a server that cannot be reached is worth one. The password is in no
// error.
func TestMailer(t *testing.T) {
	var sim smtpsim.Server
	addr, err := sim.Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer sim.Close()
	host, port, _ := net.SplitHostPort(addr)
	p, _ := strconv.Atoi(port)
	ml := &messaging.Mailer{Host: host, Port: p, From: "invites@chairside.example", TLS: messaging.TLSNone}
	const link = "https://chairside.example/start/tokens/abcdefghijklmnop"
	m := &chairside.OutboxMessage{Channel: chairside.ChannelEmail, Recipient: "maria@example.com", FromName: "Maple Street Dental",
		Subject: "Your payment options at Maple Street Dental", Body: "Maple Street Dental invites you.\n\nOpen this link:\n\n" + link}
	ctx := context.Background()
	if err := ml.Send(ctx, m); err != nil {
		t.Fatal(err)
	}
	got := sim.Mail()
	if len(got) != 1 || got[0].To[0] != "maria@example.com" || got[0].From != "invites@chairside.example" {
		t.Fatalf("received %+v", got)
	}
	data := got[0].Data
	for _, want := range []string{`From: "Maple Street Dental" <invites@chairside.example>`, "Subject: Your payment options at Maple Street Dental",
		"text/plain", "text/html", `<a href=3D"` + link} {
		if !strings.Contains(data, want) {
			t.Errorf("the mail lacks %q:\n%s", want, data)
		}
	}

	m.Recipient = "nobody@refused.example"
	err = ml.Send(ctx, m)
	var r *messaging.Refused
	if !errors.As(err, &r) || r.Retry() {
		t.Errorf("a mailbox refused for good: %v", err)
	}

	l, _ := net.Listen("tcp", "127.0.0.1:0")
	closed := l.Addr().(*net.TCPAddr).Port
	l.Close()
	down := &messaging.Mailer{Host: "127.0.0.1", Port: closed, From: "invites@chairside.example", Username: "u",
		Password: "the-smtp-password", TLS: messaging.TLSNone}
	m.Recipient = "maria@example.com"
	err = down.Send(ctx, m)
	if err == nil || errors.As(err, &r) || strings.Contains(err.Error(), "the-smtp-password") {
		t.Errorf("a server that cannot be reached: %v", err)
	}
}

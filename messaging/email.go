package messaging

import (
	"context"
	"errors"
	"fmt"
	"html"
	"strings"
	"time"

	"github.com/wneessen/go-mail"

	"github.com/chairside/chairside"
)

// Mailer sends the outbox's emails through an SMTP server (the practice's
// provider's relay): TLS required unless told otherwise, a plain-text and
// an HTML part, the practice's name as the sender's name. The password is
// a secret: sent, never logged, never in an error.
type Mailer struct {
	Host     string
	Port     int
	Username string
	Password string
	// From is the sender's address; the practice's name (the message's
	// FromName) goes with it.
	From string
	// TLS is required, opportunistic (a server without STARTTLS is spoken
	// to in clear: only for a stand-in), or none.
	TLS     string
	Timeout time.Duration
}

// TLS policies (Mailer.TLS).
const (
	TLSRequired      = "required"
	TLSOpportunistic = "opportunistic"
	TLSNone          = "none"
)

// Send sends one email of the outbox. A refusal the server gives as
// permanent (5xx: no such mailbox, a relay refused) is a Refused; the rest
// may succeed later.
func (ml *Mailer) Send(ctx context.Context, m *chairside.OutboxMessage) error {
	msg := mail.NewMsg()
	name := m.FromName
	if name == "" {
		name = "Chairside"
	}
	if err := msg.FromFormat(name, ml.From); err != nil {
		return &Refused{Reason: "the sender's address is not one"}
	}
	if err := msg.To(m.Recipient); err != nil {
		return &Refused{Reason: "the recipient's address is not one"}
	}
	msg.Subject(m.Subject)
	msg.SetBodyString(mail.TypeTextPlain, m.Body)
	msg.AddAlternativeString(mail.TypeTextHTML, htmlOf(m.Body))

	policy := mail.TLSMandatory
	switch ml.TLS {
	case TLSOpportunistic:
		policy = mail.TLSOpportunistic
	case TLSNone:
		policy = mail.NoTLS
	}
	opts := []mail.Option{mail.WithPort(ml.Port), mail.WithTLSPolicy(policy), mail.WithTimeout(max(ml.Timeout, 10*time.Second))}
	if ml.Username != "" {
		opts = append(opts, mail.WithSMTPAuth(mail.SMTPAuthPlain), mail.WithUsername(ml.Username), mail.WithPassword(ml.Password))
	}
	c, err := mail.NewClient(ml.Host, opts...)
	if err != nil {
		return &Refused{Reason: "the mail server's settings are not usable"}
	}
	if err := c.DialAndSendWithContext(ctx, msg); err != nil {
		if permanent(err) {
			return &Refused{Reason: "the mail server refused it: " + firstLine(err.Error())}
		}
		return fmt.Errorf("email: %s", firstLine(err.Error()))
	}
	return nil
}

// permanent reports whether the server refused for good: a send error
// go-mail does not call temporary (a 5xx reply). A connection that failed
// is worth another try.
func permanent(err error) bool {
	var se *mail.SendError
	return errors.As(err, &se) && !se.IsTemp()
}

// firstLine keeps an error to its first line, which names what failed
// and never the password.
func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// htmlOf is the HTML part of a plain-text email: the text escaped, in
// paragraphs, each link a link.
func htmlOf(text string) string {
	var b strings.Builder
	b.WriteString(`<!DOCTYPE html><html><body style="font-family:sans-serif;font-size:16px;line-height:1.5">`)
	for p := range strings.SplitSeq(strings.TrimSpace(text), "\n\n") {
		b.WriteString("<p>")
		words := strings.Fields(p)
		for i, w := range words {
			if i > 0 {
				b.WriteString(" ")
			}
			if strings.HasPrefix(w, "https://") || strings.HasPrefix(w, "http://") {
				u := html.EscapeString(w)
				b.WriteString(`<a href="` + u + `">` + u + `</a>`)
				continue
			}
			b.WriteString(html.EscapeString(w))
		}
		b.WriteString("</p>")
	}
	b.WriteString("</body></html>")
	return b.String()
}

// Channels sends each outbox message by its channel: texts through Text,
// emails through Email.
type Channels struct {
	Text, Email Sends
}

// Send sends m through its channel's sender.
func (c Channels) Send(ctx context.Context, m *chairside.OutboxMessage) error {
	if m.Channel == chairside.ChannelSMS {
		return c.Text.Send(ctx, m)
	}
	return c.Email.Send(ctx, m)
}

// LogOnly reports whether nothing reaches patients: both channels only
// write to the log (the office's screen then says so).
func (c Channels) LogOnly() bool { return logOnly(c.Text) && logOnly(c.Email) }

// Reaches reports whether an office's texts and its emails reach its
// patients: a channel that only logs does not, nor texts from an office
// with no sender.
func (c Channels) Reaches(loc *chairside.Location) (texts, emails bool) {
	texts = !logOnly(c.Text)
	if r, ok := c.Text.(interface {
		Reaches(*chairside.Location) bool
	}); ok && texts {
		texts = r.Reaches(loc)
	}
	return texts, !logOnly(c.Email)
}

func logOnly(s Sends) bool {
	lo, ok := s.(interface{ LogOnly() bool })
	return ok && lo.LogOnly()
}

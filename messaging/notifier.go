package messaging

import (
	"context"
	"errors"
	"strings"
	"time"

	"github.com/chairside/chairside"
)

// NotifierStore is what the notifier keeps: the provider's id of each
// message it sent, and the numbers that asked a sender to stop.
type NotifierStore interface {
	SetOutboxRef(ctx context.Context, id, ref, status string, rank int, at time.Time, sender, e164 string) error
	OptOut(ctx context.Context, sender, e164, source string, at time.Time) error
	OptedOut(ctx context.Context, sender, e164 string) (bool, error)
}

// Sends is anything that sends an outbox message (office.Notifier).
type Sends interface {
	Send(ctx context.Context, m *chairside.OutboxMessage) error
}

// Notifier sends the outbox's texts through Twilio, from each office's own
// sender (an opt-out belongs to a sender: one sender shared by every
// practice would let a STOP to one silence them all), and hands other
// channels to Other. It never sends to a number that opted out of the
// sender, and takes Twilio's 21610 as that number's opt-out.
type Notifier struct {
	Twilio *Twilio
	// Default is the server's sender, for offices without their own; ""
	// for none (each office then needs its own).
	Default string
	// OfficeSender answers an office's own sender (Location.TextSender),
	// by location id; "" for none.
	OfficeSender func(ctx context.Context, locationID string) (string, error)
	// StatusURL is our status callback, on the public URL.
	StatusURL string
	Store     NotifierStore
	Other     Sends
	Now       func() time.Time
}

// Refused is a send that will not succeed however often it is tried: the
// outbox gives it up at once.
type Refused struct{ Reason string }

func (e *Refused) Error() string { return "not sent: " + e.Reason }

// Retry reports that trying again is pointless.
func (e *Refused) Retry() bool { return false }

// E164 is a US number as the desk typed it (ten digits) in E.164.
func E164(digits string) string {
	if strings.HasPrefix(digits, "+") {
		return digits
	}
	return "+1" + digits
}

// Send sends one outbox message.
func (n *Notifier) Send(ctx context.Context, m *chairside.OutboxMessage) error {
	if m.Channel != chairside.ChannelSMS {
		if n.Other == nil {
			return &Refused{Reason: "no way to send " + m.Channel}
		}
		return n.Other.Send(ctx, m)
	}
	own, err := n.OfficeSender(ctx, m.LocationID)
	if err != nil {
		return err
	}
	sender, ok := n.senderFor(own)
	if !ok {
		return &Refused{Reason: "the office has no text sender"}
	}
	to := E164(m.Recipient)
	if out, err := n.Store.OptedOut(ctx, sender.Name(), to); err != nil {
		return err
	} else if out {
		return n.optedOut(ctx, m, sender.Name(), to)
	}
	sent, err := n.Twilio.Send(ctx, sender, to, m.Body, n.StatusURL)
	if OptedOut(err) {
		if err := n.Store.OptOut(ctx, sender.Name(), to, "provider", n.Now()); err != nil {
			return err
		}
		return n.optedOut(ctx, m, sender.Name(), to)
	}
	var se *SendError
	if errors.As(err, &se) && !se.Retry() {
		return &Refused{Reason: se.Error()}
	} else if err != nil {
		return err
	}
	return n.Store.SetOutboxRef(ctx, m.ID, sent.SID, sent.Status, StatusRank(sent.Status), n.Now(), sender.Name(), to)
}

// senderFor is the sender of an office whose own sender is own: its own,
// else the default; false when neither is a sender.
func (n *Notifier) senderFor(own string) (Sender, bool) {
	if own == "" {
		own = n.Default
	}
	s, err := ParseSender(own)
	return s, err == nil
}

// Reaches reports whether texts reach the office's patients: it has a
// sender, its own or the server's.
func (n *Notifier) Reaches(loc *chairside.Location) bool {
	_, ok := n.senderFor(loc.TextSender)
	return ok
}

// optedOut marks m as not sent to a number that opted out, so the office
// sees why, and refuses it.
func (n *Notifier) optedOut(ctx context.Context, m *chairside.OutboxMessage, sender, to string) error {
	if err := n.Store.SetOutboxRef(ctx, m.ID, "", StatusOptedOut, StatusRank(StatusOptedOut), n.Now(), sender, to); err != nil {
		return err
	}
	return &Refused{Reason: "the number opted out of this office's texts"}
}

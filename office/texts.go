package office

import (
	"context"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/messaging"
)

// What becomes of an invitation's text after it leaves (docs/behaviour.md,
// "Texts and emails"): the provider's status reports, and the patient's
// replies that stop or restart an office's texts.

// MessageStatus applies one status report of a text, on behalf of the
// sender it came from and the number it went to: each (message, status)
// once, never moving a text back. Twilio's 21610 (the number had opted out
// of the sender) records the opt-out. It answers whether the text moved.
func (s *Service) MessageStatus(ctx context.Context, r messaging.StatusReport, sender, to string) (bool, error) {
	now := s.Now().UTC()
	moved, err := s.store.RecordMessageStatus(ctx, r.SID, r.Status, messaging.StatusRank(r.Status), r.ErrorCode, now)
	if err != nil {
		return false, err
	}
	if r.ErrorCode == messaging.ErrorOptedOut && sender != "" && to != "" {
		if err := s.store.OptOut(ctx, sender, to, "provider", now); err != nil {
			return moved, err
		}
	}
	return moved, nil
}

// TextReply reads a patient's reply to a sender: a stop word opts the
// number out of the sender's texts, START back in; anything else is
// nothing to us (the office's phone, not this server, talks with
// patients). It answers the keyword it found ("" for none).
func (s *Service) TextReply(ctx context.Context, sender, from, body string) (string, error) {
	kw := messaging.Keyword(body)
	var err error
	switch kw {
	case messaging.ReplyStop:
		err = s.store.OptOut(ctx, sender, from, "reply", s.Now().UTC())
	case messaging.ReplyStart:
		err = s.store.OptIn(ctx, sender, from)
	}
	return kw, err
}

// Message is one message of an invitation as the office's list shows it:
// the channel, where it went (masked), and what became of it.
type Message struct {
	Channel string `json:"channel"`
	To      string `json:"to"`
	// State is sending (queued or being sent), sent (the provider took it;
	// Delivery may say more), delivered, undelivered (ErrorCode says why),
	// opted_out (the number asked this office's sender to stop: not sent)
	// or failed (given up).
	State     string     `json:"state"`
	ErrorCode int        `json:"errorCode,omitempty"`
	At        *time.Time `json:"at,omitempty"`
}

// Message states (Message.State).
const (
	MessageSending     = "sending"
	MessageSent        = "sent"
	MessageDelivered   = "delivered"
	MessageUndelivered = "undelivered"
	MessageOptedOut    = "opted_out"
	MessageFailed      = "failed"
)

// messagesOf says what became of an invitation's messages.
func messagesOf(ms []*chairside.OutboxMessage) []Message {
	out := []Message{}
	for _, m := range ms {
		msg := Message{Channel: m.Channel, To: m.RecipientMasked, State: MessageSending}
		switch {
		case m.Delivery == messaging.StatusOptedOut:
			msg.State = MessageOptedOut
		case m.Delivery == messaging.StatusDelivered:
			msg.State = MessageDelivered
		case m.Delivery == messaging.StatusUndelivered || m.Delivery == messaging.StatusFailed:
			msg.State, msg.ErrorCode = MessageUndelivered, m.DeliveryError
		case m.State == chairside.OutboxFailed:
			msg.State = MessageFailed
		case m.State == chairside.OutboxSent:
			msg.State = MessageSent
		}
		if !m.DeliveryAt.IsZero() {
			at := m.DeliveryAt
			msg.At = &at
		} else if m.SentAt != nil {
			msg.At = m.SentAt
		}
		out = append(out, msg)
	}
	return out
}

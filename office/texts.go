package office

import (
	"cmp"
	"context"
	"slices"
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
	if moved && (r.Status == messaging.StatusUndelivered || r.Status == messaging.StatusFailed) {
		id, err := s.store.MessageByRef(ctx, r.SID)
		if err != nil {
			return moved, err
		}
		return moved, s.releaseHeld(ctx, id)
	}
	return moved, nil
}

// releaseHeld sends the email held behind the text id, which will not
// arrive: the patient still gets the link.
func (s *Service) releaseHeld(ctx context.Context, id string) error {
	n, err := s.store.ReleaseHeld(ctx, id, s.Now().UTC())
	if n > 0 {
		s.wake()
	}
	return err
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
	// State is sending (queued or being sent), held (an email that goes
	// only if the text is not delivered), sent (the provider took it;
	// Delivery may say more), delivered, undelivered (ErrorCode says why),
	// opted_out (the number asked this office's sender to stop, before or
	// after this text: no text goes to it again)
	// or failed (given up).
	State     string     `json:"state"`
	ErrorCode int        `json:"errorCode,omitempty"`
	At        *time.Time `json:"at,omitempty"`
	// Sends counts the times the link went on this channel (a first send
	// and the desk's "send again").
	Sends int `json:"sends"`
}

// Message states (Message.State).
const (
	MessageSending     = "sending"
	MessageHeld        = "held"
	MessageSent        = "sent"
	MessageDelivered   = "delivered"
	MessageUndelivered = "undelivered"
	MessageOptedOut    = "opted_out"
	MessageFailed      = "failed"
)

// messagesOf says what became of an invitation's messages (oldest first):
// the latest of each channel, text first.
func messagesOf(ms []*chairside.OutboxMessage) []Message {
	out := []Message{}
	at := map[string]int{}
	for _, m := range ms {
		msg := messageOf(m)
		if i, ok := at[m.Channel]; ok {
			msg.Sends = out[i].Sends + 1
			out[i] = msg
			continue
		}
		msg.Sends = 1
		at[m.Channel] = len(out)
		out = append(out, msg)
	}
	slices.SortStableFunc(out, func(a, b Message) int {
		return cmp.Compare(boolRank(a.Channel != chairside.ChannelSMS), boolRank(b.Channel != chairside.ChannelSMS))
	})
	return out
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// MessageStates are the states of Message.State, for /metrics.
var MessageStates = []string{MessageSending, MessageHeld, MessageSent, MessageDelivered, MessageUndelivered, MessageOptedOut, MessageFailed}

// StateOf is what became of a message with this outbox state and
// delivery (the provider's latest status), as Message.State says it.
func StateOf(state, delivery string) string {
	switch {
	case delivery == messaging.StatusOptedOut:
		return MessageOptedOut
	case delivery == messaging.StatusDelivered:
		return MessageDelivered
	case delivery == messaging.StatusUndelivered || delivery == messaging.StatusFailed:
		return MessageUndelivered
	case state == chairside.OutboxHeld:
		return MessageHeld
	case state == chairside.OutboxFailed:
		return MessageFailed
	case state == chairside.OutboxSent:
		return MessageSent
	}
	return MessageSending
}

// messageOf says what became of one message.
func messageOf(m *chairside.OutboxMessage) Message {
	msg := Message{Channel: m.Channel, To: m.RecipientMasked, State: StateOf(m.State, m.Delivery)}
	if m.NumberOptedOut && m.Channel == chairside.ChannelSMS {
		// A STOP after this text went: the number is no longer to be texted,
		// whatever became of the text itself.
		msg.State = MessageOptedOut
	}
	if msg.State == MessageUndelivered {
		msg.ErrorCode = m.DeliveryError
	}
	if !m.DeliveryAt.IsZero() {
		at := m.DeliveryAt
		msg.At = &at
	} else if m.SentAt != nil {
		msg.At = m.SentAt
	}
	return msg
}

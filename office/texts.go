package office

import (
	"context"

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

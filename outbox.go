package chairside

import "time"

// Outbox channels and states (docs/behaviour.md, "The office side").
const (
	ChannelSMS   = "sms"
	ChannelEmail = "email"

	OutboxQueued  = "queued"  // waiting for its turn
	OutboxSending = "sending" // claimed by a dispatcher until LeaseUntil
	OutboxSent    = "sent"
	OutboxFailed  = "failed" // gave up after the last attempt
	// OutboxHeld is an invitation's email kept back while its text may
	// still arrive: released (queued) when the text is not delivered, and
	// never sent when it is.
	OutboxHeld = "held"
)

// OutboxMessage is a text or email to send, written in the same
// transaction as what it announces (an office invitation) and sent
// afterwards by a dispatcher through a Notifier. Recipient and Body are
// personal data and carry a one-time link: sealed at rest, and erased once
// the message is sent or given up; RecipientMasked stays for the record.
type OutboxMessage struct {
	ID         string
	LocationID string
	// InviteID is the office invitation the message carries ("" for none).
	InviteID        string
	Channel         string
	Recipient       string
	RecipientMasked string
	Subject         string
	Body            string
	// FromName is who the message is from as the patient knows them (the
	// practice), sealed with the content.
	FromName      string
	State         string
	Attempts      int
	NextAttemptAt time.Time
	LastError     string
	CreatedAt     time.Time
	SentAt        *time.Time
	// ProviderRef is the provider's id of the message once it took it;
	// Delivery the furthest status it reported (queued, sent, delivered,
	// undelivered, failed; "" before any), DeliveryError the provider's
	// error code of an undelivered or failed one, DeliveryAt when.
	ProviderRef   string
	Delivery      string
	DeliveryError int
	DeliveryAt    time.Time
	// NumberOptedOut says that the number a text went to has since asked
	// the sender it went from to stop (read with an invitation's messages
	// only).
	NumberOptedOut bool
}

package office

import (
	"context"
	"errors"
	"log/slog"
	"time"

	"github.com/chairside/chairside"
)

// Notifier sends one text or email (m.Channel) to m.Recipient. A real
// lender (an SMS gateway, an email service) implements it; Chairside
// ships LogNotifier so that nothing more is needed to run. Send must be
// safe to call again for a message it may already have sent (the outbox
// delivers at least once): lenders that take an idempotency key get
// m.ID.
type Notifier interface {
	Send(ctx context.Context, m *chairside.OutboxMessage) error
}

// LogNotifier "sends" by writing a log line: the channel and the masked
// recipient always; the message itself (which holds a one-time link, a
// bearer secret) only when ShowBody is set, as it is outside env prod, so
// that the link can be copied from the log while trying Chairside out.
type LogNotifier struct {
	Log      *slog.Logger
	ShowBody bool
}

// LogOnly says that nothing reaches the patient: the office's screen tells
// staff to hand the link over themselves.
func (LogNotifier) LogOnly() bool { return true }

// Send writes m to the log.
func (n LogNotifier) Send(ctx context.Context, m *chairside.OutboxMessage) error {
	attrs := []any{"id", m.ID, "channel", m.Channel, "to", m.RecipientMasked}
	if n.ShowBody {
		attrs = append(attrs, "subject", m.Subject, "body", m.Body)
	} else {
		attrs = append(attrs, "body", "(withheld in env prod: it holds a one-time link)")
	}
	n.Log.InfoContext(ctx, "outbox message", attrs...)
	return nil
}

// Outbox delivery: how often the dispatcher looks for due messages when
// nothing woke it, how long a claim lasts, and how many attempts a message
// gets before it is given up.
const (
	dispatchEvery = 5 * time.Second
	// heldFor is how long an invitation's email waits behind a text the
	// provider took but has not reported delivered: then it goes anyway.
	heldFor         = 15 * time.Minute
	dispatchLease   = time.Minute
	dispatchBatch   = 20
	maxSendAttempts = 5
	sendTimeout     = 20 * time.Second
)

// Dispatcher sends the outbox's due messages through a Notifier. Every
// server runs one; the store's claims keep two from sending the same
// message at once.
type Dispatcher struct {
	svc      *Service
	notifier Notifier
}

// Dispatcher returns the dispatcher of the service's outbox. CreateInvite
// wakes it, so a message goes out at once rather than at the next tick.
// The service then tells staff whether messages reach an office's
// patients, as the notifier says (a Reaches method), else: not with a
// notifier that only logs (a LogOnly method answering true).
func (s *Service) Dispatcher(n Notifier) *Dispatcher {
	reach := func(*chairside.Location) (bool, bool) { return true, true }
	if r, ok := n.(interface {
		Reaches(*chairside.Location) (bool, bool)
	}); ok {
		reach = r.Reaches
	} else if lo, ok := n.(interface{ LogOnly() bool }); ok && lo.LogOnly() {
		reach = func(*chairside.Location) (bool, bool) { return false, false }
	}
	s.reach.Store(&reach)
	return &Dispatcher{svc: s, notifier: n}
}

// MessagesReach reports whether texts and emails reach the patients of
// loc: a dispatcher runs with a notifier that sends them, and for texts
// the office has a sender. Without a dispatcher, neither.
func (s *Service) MessagesReach(loc *chairside.Location) (texts, emails bool) {
	if r := s.reach.Load(); r != nil {
		return (*r)(loc)
	}
	return false, false
}

// wake nudges the dispatcher without ever blocking.
func (s *Service) wake() {
	select {
	case s.wakeup <- struct{}{}:
	default:
	}
}

// Run sends due messages until ctx ends: when woken, and every few seconds
// for retries and messages another server queued.
func (d *Dispatcher) Run(ctx context.Context) {
	tick := time.NewTicker(dispatchEvery)
	defer tick.Stop()
	for {
		if _, err := d.DispatchOnce(ctx); err != nil && ctx.Err() == nil {
			d.svc.log.ErrorContext(ctx, "outbox dispatch", "err", err.Error())
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		case <-d.svc.wakeup:
		}
	}
}

// DispatchOnce sends the messages due now and answers how many were sent.
// A failed send is tried again later with a growing wait, and given up
// after maxSendAttempts; its error is kept without the message.
func (d *Dispatcher) DispatchOnce(ctx context.Context) (int, error) {
	now := d.svc.Now().UTC()
	if _, err := d.svc.store.ReleaseStaleHeld(ctx, now.Add(-heldFor), now); err != nil {
		return 0, err
	}
	msgs, err := d.svc.store.ClaimOutbox(ctx, now, dispatchLease, dispatchBatch)
	if err != nil {
		return 0, err
	}
	sent := 0
	for _, m := range msgs {
		sctx, cancel := context.WithTimeout(ctx, sendTimeout)
		serr := d.notifier.Send(sctx, m)
		cancel()
		var final interface{ Retry() bool }
		switch {
		case serr == nil:
			err = d.svc.store.MarkOutboxSent(ctx, m.ID, d.svc.Now().UTC())
			sent++
		case errors.As(serr, &final) && !final.Retry():
			// Refused for good (an opted-out number, no sender): no retries.
			d.svc.log.WarnContext(ctx, "outbox message refused", "id", m.ID, "channel", m.Channel)
			err = d.giveUp(ctx, m, serr)
		case m.Attempts >= maxSendAttempts:
			d.svc.log.WarnContext(ctx, "outbox message given up", "id", m.ID, "channel", m.Channel, "attempts", m.Attempts)
			err = d.giveUp(ctx, m, serr)
		default:
			wait := 30 * time.Second << (m.Attempts - 1)
			err = d.svc.store.MarkOutboxRetry(ctx, m.ID, now.Add(wait), truncate(serr.Error(), 200))
		}
		if err != nil {
			return sent, err
		}
	}
	return sent, nil
}

// giveUp records m as failed and sends what was held behind it (an
// invitation's email behind its text).
func (d *Dispatcher) giveUp(ctx context.Context, m *chairside.OutboxMessage, serr error) error {
	if err := d.svc.store.MarkOutboxFailed(ctx, m.ID, truncate(serr.Error(), 200)); err != nil {
		return err
	}
	return d.svc.releaseHeld(ctx, m.ID)
}

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

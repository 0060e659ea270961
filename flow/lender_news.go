package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// A lender that left an application pending tells us later what it
// decided: by webhook (LenderEvent), by the answer to the reconciler's
// status poll (ReconcilePending), or by the answer to the patient's own
// status check (ApplicationStatus). All three record the news through
// adoptDecision, so the rules for what a later answer may change are in
// one place (docs/lender-protocol.md, "Webhooks").

// LenderNews is what a lender's webhook says, already verified and read:
// its event id, type, the lender's application id, and the decision the
// application now stands at (nil when the event carries none: the lender
// is then asked for the application's status).
type LenderNews struct {
	EventID   string
	Type      string
	LenderRef string
	Decision  *chairside.Decision
}

// adoptDecision records d, the lender's latest word on pa, inside tx: a
// new decision, pa pointing at it, and an event, when d differs from the
// recorded decision and pa is still only decided with no step in flight.
// With pendingOnly (news nobody asked for) only a pending decision may
// move. It answers whether anything was written.
func (s *Service) adoptDecision(ctx context.Context, tx Store, sess *chairside.Session, pa *chairside.LenderApplication, d *chairside.Decision, source string, pendingOnly bool) (bool, error) {
	if !moves(pa, d, pendingOnly) {
		return false, nil
	}
	// Malformed news is refused as the bad request it is (a webhook
	// answers 400).
	d, err := lenderDecision(d, pa.LenderKey, pa.Decision.Operation, chairside.EINVALID)
	if err != nil {
		return false, err
	}
	d.ID = newID()
	d.LenderApplicationID = pa.ID
	d.CreatedAt = s.now().UTC()
	if d.LenderRef == "" {
		d.LenderRef = pa.LenderRef
	}
	if err := tx.CreateDecision(ctx, d); err != nil {
		return false, err
	}
	pa.Decision = d
	if err := s.updateIn(ctx, tx, pa); err != nil {
		return false, err
	}
	s.eventIn(ctx, tx, sess, pa.LenderKey, "decision.updated", map[string]any{"responseCode": d.ResponseCode, "source": source})
	return true, nil
}

// moves reports whether d is news adoptDecision records for pa.
func moves(pa *chairside.LenderApplication, d *chairside.Decision, pendingOnly bool) bool {
	if pa.Decision == nil || pa.Status != chairside.StatusDecided || pa.InFlight != "" || d.ResponseCode == pa.Decision.ResponseCode {
		return false
	}
	return !pendingOnly || pa.Decision.ResponseCode == chairside.ResponsePending
}

// applyNews records d, news nobody asked for (a webhook, a status poll),
// on the lender application ref locates, inside tx; it answers whether
// the decision moved.
func (s *Service) applyNews(ctx context.Context, tx Store, ref *chairside.LenderApplicationRef, d *chairside.Decision, source string) (bool, error) {
	pa, err := tx.FindLenderApplication(ctx, ref.ApplicationID, ref.LenderKey)
	if err != nil {
		return false, err
	}
	sess := &chairside.Session{ID: ref.SessionID, ApplicationID: ref.ApplicationID}
	return s.adoptDecision(ctx, tx, sess, pa, d, source, true)
}

// LenderEvent applies a lender's verified webhook event for the lender of
// the base lender key providerKey, once per event id: the event is
// recorded first, in the same transaction as what it changes, so a
// repeated delivery stops there and changes nothing. It answers the
// event's result (chairside.Event…); an event for an application we do
// not know answers ENOTFOUND and is not recorded, so the lender delivers
// it again later (its webhook may overtake our record of its first
// answer).
func (s *Service) LenderEvent(ctx context.Context, lenderKey string, n *LenderNews) (string, error) {
	ctx = context.WithoutCancel(ctx)
	ref, err := s.store.FindByLenderRef(ctx, lenderKey, n.LenderRef)
	if err != nil {
		return chairside.EventUnknownApplication, err
	}
	d := n.Decision
	if d == nil {
		if d, err = s.lenderStatus(ctx, "", ref); err != nil {
			return "", err
		}
	}
	ev := &chairside.LenderEvent{LenderKey: lenderKey, EventID: n.EventID, Type: n.Type,
		LenderRef: n.LenderRef, Result: chairside.EventIgnored, ReceivedAt: s.now().UTC()}
	var duplicate bool
	err = s.batch(ctx, nil, func(tx Store) error {
		pa, err := tx.FindLenderApplication(ctx, ref.ApplicationID, ref.LenderKey)
		if err != nil {
			return err
		}
		if moves(pa, d, true) {
			ev.Result = chairside.EventApplied
		}
		// The event first: a repeat stops here, before anything is written
		// (a version conflict below is then an error, never a duplicate).
		if err := tx.RecordLenderEvent(ctx, ev); isCode(err, chairside.ECONFLICT) {
			duplicate = true
			return nil
		} else if err != nil {
			return err
		}
		sess := &chairside.Session{ID: ref.SessionID, ApplicationID: ref.ApplicationID}
		_, err = s.adoptDecision(ctx, tx, sess, pa, d, "webhook", true)
		return err
	})
	switch {
	case err != nil:
		return "", err
	case duplicate:
		return chairside.EventDuplicate, nil
	}
	s.log.Info("lender event", "lender", lenderKey, "event", n.EventID, "result", ev.Result)
	return ev.Result, nil
}

// lenderStatus asks the lender of ref where its application stands, under
// the lender time-out, in lang ("" for English: the webhook's check and the
// reconciler's answer no patient's screen).
func (s *Service) lenderStatus(ctx context.Context, lang string, ref *chairside.LenderApplicationRef) (*chairside.Decision, error) {
	var d *chairside.Decision
	err := s.callLender(ctx, ref.LenderKey, func(ctx context.Context, l chairside.Lender) error {
		var err error
		d, err = l.Status(ctx, &chairside.StatusRequest{LenderKey: catalogue.BaseKey(ref.LenderKey), Language: lang,
			LenderRef: ref.LenderRef})
		return err
	})
	if err == nil && d == nil {
		err = errorf(chairside.ELENDER, "The lender answered nothing.")
	}
	if err == nil {
		// Checked here too: a patient's status look-up of a malformed
		// answer hears that the lender did not answer usably.
		_, err = lenderDecision(d, ref.LenderKey, "", chairside.ELENDER)
	}
	return d, err
}

// Reconciler pacing: a pending application is polled PendingFirstPoll
// after its decision, then after twice, four times … that wait, up to once
// an hour, until its lender decides.
const maxPollInterval = time.Hour

// pollInterval is the wait after the n-th poll (from 1).
func pollInterval(n int) time.Duration {
	d := chairside.PendingFirstPoll
	for i := 0; i < n && d < maxPollInterval; i++ {
		d *= 2
	}
	return min(d, maxPollInterval)
}

// PollResult is what one poll of the reconciler found.
type PollResult struct {
	LenderKey string
	Result    string // "changed", "unchanged" or "error"
}

// ReconcilePending runs one round of the reconciler: it claims up to limit
// pending applications whose poll is due (no other server polls them
// meanwhile), asks each lender for the status, records any decision that
// changed, and schedules the next poll of the rest.
func (s *Service) ReconcilePending(ctx context.Context, limit int) ([]PollResult, error) {
	now := s.now().UTC()
	polls, err := s.store.ClaimPendingPolls(ctx, now, s.lease(), limit)
	if err != nil {
		return nil, err
	}
	out := make([]PollResult, 0, len(polls))
	for _, p := range polls {
		r := PollResult{LenderKey: catalogue.BaseKey(p.LenderKey), Result: "unchanged"}
		changed, err := s.pollOne(ctx, p)
		switch {
		case err != nil:
			r.Result = "error"
			s.log.Warn("pending poll failed", "lender", r.LenderKey, "err", chairside.ErrorCode(err))
		case changed:
			r.Result = "changed"
		}
		if !changed {
			if err := s.store.ReschedulePendingPoll(ctx, p.LenderApplicationID, s.now().UTC().Add(pollInterval(p.Polls))); err != nil {
				return out, err
			}
		}
		out = append(out, r)
	}
	return out, nil
}

// pollOne asks the lender of one claimed poll for its status and adopts a
// changed decision.
func (s *Service) pollOne(ctx context.Context, p *chairside.PendingPoll) (bool, error) {
	d, err := s.lenderStatus(ctx, "", &p.LenderApplicationRef)
	if err != nil {
		return false, err
	}
	changed := false
	err = s.batch(ctx, nil, func(tx Store) error {
		changed, err = s.applyNews(ctx, tx, &p.LenderApplicationRef, d, "reconciler")
		return err
	})
	return changed, err
}

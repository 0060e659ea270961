package flow

import (
	"context"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/provider"
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
	EventID             string
	Type                string
	LenderApplicationID string
	Decision            *chairside.Decision
}

// adoptDecision records d, the lender's latest word on pa, inside tx: a
// new decision, pa pointing at it, and an event, when d differs from the
// recorded decision and pa is still only decided with no step in flight.
// With pendingOnly (news nobody asked for) only a pending decision may
// move. It answers whether anything was written.
func (s *Service) adoptDecision(ctx context.Context, tx chairside.Store, sess *chairside.Session, pa *chairside.ProviderApplication, d *chairside.Decision, source string, pendingOnly bool) (bool, error) {
	if pa.Decision == nil || pa.Status != chairside.StatusDecided || pa.InFlight != "" || d.ResponseCode == pa.Decision.ResponseCode {
		return false, nil
	}
	if pendingOnly && pa.Decision.ResponseCode != chairside.ResponsePending {
		return false, nil
	}
	d = sanitizeDecision(d, pa.ProviderKey, pa.Decision.Operation)
	d.ID = newID()
	d.ProviderApplicationID = pa.ID
	d.CreatedAt = s.now().UTC()
	if d.LenderApplicationID == "" {
		d.LenderApplicationID = pa.LenderApplicationID
	}
	if err := tx.CreateDecision(ctx, d); err != nil {
		return false, err
	}
	pa.Decision = d
	if err := s.updateIn(ctx, tx, pa); err != nil {
		return false, err
	}
	s.eventIn(ctx, tx, sess, pa.ProviderKey, "decision.updated", map[string]any{"responseCode": d.ResponseCode, "source": source})
	return true, nil
}

// sessionOf is the session an application was made in, for the events
// written on news that no request of the patient brought.
func (s *Service) sessionOf(ctx context.Context, st chairside.Store, applicationID string) (*chairside.Session, error) {
	app, err := st.FindApplication(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	return &chairside.Session{ID: app.SessionID, ApplicationID: app.ID}, nil
}

// LenderEvent applies a lender's verified webhook event for the lender of
// the base provider key providerKey, once per event id: the event is
// recorded in the same transaction as what it changes, so a repeated
// delivery finds it and changes nothing. It answers the event's result
// (chairside.Event…); an event for an application we do not know answers
// ENOTFOUND and is not recorded, so the lender delivers it again later
// (its webhook may overtake our record of its first answer).
func (s *Service) LenderEvent(ctx context.Context, providerKey string, n *LenderNews) (string, error) {
	ctx = context.WithoutCancel(ctx)
	pa, err := s.store.FindProviderApplicationByLenderID(ctx, providerKey, n.LenderApplicationID)
	if err != nil {
		return chairside.EventUnknownApplication, err
	}
	d := n.Decision
	if d == nil {
		if d, err = s.lenderStatus(ctx, pa); err != nil {
			return "", err
		}
	}
	result := chairside.EventIgnored
	err = s.batch(ctx, func(tx chairside.Store) error {
		cur, err := tx.FindProviderApplication(ctx, pa.ApplicationID, pa.ProviderKey)
		if err != nil {
			return err
		}
		sess, err := s.sessionOf(ctx, tx, cur.ApplicationID)
		if err != nil {
			return err
		}
		changed, err := s.adoptDecision(ctx, tx, sess, cur, d, "webhook", true)
		if err != nil {
			return err
		}
		if changed {
			result = chairside.EventApplied
		}
		return tx.RecordLenderEvent(ctx, &chairside.LenderEvent{ProviderKey: providerKey, EventID: n.EventID, Type: n.Type,
			LenderApplicationID: n.LenderApplicationID, Result: result, ReceivedAt: s.now().UTC()})
	})
	if isCode(err, chairside.ECONFLICT) {
		return chairside.EventDuplicate, nil
	}
	if err != nil {
		return "", err
	}
	s.log.Info("lender event", "provider", providerKey, "event", n.EventID, "result", result)
	return result, nil
}

// lenderStatus asks pa's lender where its application stands, under the
// lender time-out.
func (s *Service) lenderStatus(ctx context.Context, pa *chairside.ProviderApplication) (*chairside.Decision, error) {
	var d *chairside.Decision
	err := s.callLender(ctx, pa.ProviderKey, func(ctx context.Context, l chairside.Lender) error {
		var err error
		d, err = l.Status(ctx, provider.BaseKey(pa.ProviderKey), pa.LenderApplicationID)
		return err
	})
	if err == nil && d == nil {
		err = errorf(chairside.ELENDER, "The lender answered nothing.")
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
	ProviderKey string
	Result      string // "changed", "unchanged" or "error"
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
		r := PollResult{ProviderKey: provider.BaseKey(p.ProviderKey), Result: "unchanged"}
		changed, err := s.pollOne(ctx, p)
		switch {
		case err != nil:
			r.Result = "error"
			s.log.Warn("pending poll failed", "provider", r.ProviderKey, "err", chairside.ErrorCode(err))
		case changed:
			r.Result = "changed"
		}
		if !changed {
			if err := s.store.ReschedulePendingPoll(ctx, p.ProviderApplicationID, s.now().UTC().Add(pollInterval(p.Polls))); err != nil {
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
	pa, err := s.store.FindProviderApplication(ctx, p.ApplicationID, p.ProviderKey)
	if err != nil {
		return false, err
	}
	d, err := s.lenderStatus(ctx, pa)
	if err != nil {
		return false, err
	}
	changed := false
	err = s.batch(ctx, func(tx chairside.Store) error {
		cur, err := tx.FindProviderApplication(ctx, p.ApplicationID, p.ProviderKey)
		if err != nil {
			return err
		}
		sess, err := s.sessionOf(ctx, tx, cur.ApplicationID)
		if err != nil {
			return err
		}
		changed, err = s.adoptDecision(ctx, tx, sess, cur, d, "reconciler", true)
		return err
	})
	return changed, err
}

package flow

import (
	"context"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// lenderApplication finds or creates the caller's lender application
// for a waterfall step. Two first submits racing both try to create; the
// loser reads the winner's.
func (s *Service) lenderApplication(ctx context.Context, store Store, applicationID string, st *chairside.WaterfallStep, mode string) (*chairside.LenderApplication, error) {
	pa, err := store.FindLenderApplication(ctx, applicationID, st.LenderKey)
	if err == nil || !isCode(err, chairside.ENOTFOUND) {
		return pa, err
	}
	now := s.now().UTC()
	pa = &chairside.LenderApplication{
		ID:            newID(),
		ApplicationID: applicationID,
		LenderKey:     st.LenderKey,
		Role:          catalogue.EffectiveRole(*st),
		ApplyMode:     mode,
		Status:        chairside.StatusStarted,
		CreatedAt:     now,
		UpdatedAt:     now,
	}
	if err := store.CreateLenderApplication(ctx, pa); err != nil {
		if isCode(err, chairside.ECONFLICT) {
			return store.FindLenderApplication(ctx, applicationID, st.LenderKey)
		}
		return nil, err
	}
	return pa, nil
}

// ownLenderApplication loads the caller's lender application for a
// lender key. The lookup goes through the session's own application, so
// another session's objects are simply not found (BOLA).
func (s *Service) ownLenderApplication(ctx context.Context, c *Caller, lenderKey string) (*chairside.LenderApplication, error) {
	return s.ownLenderApplicationIn(ctx, s.store, c, lenderKey)
}

// ownLenderApplicationIn is ownLenderApplication through st, the store
// or a transaction of it.
func (s *Service) ownLenderApplicationIn(ctx context.Context, st Store, c *Caller, lenderKey string) (*chairside.LenderApplication, error) {
	pa, err := st.FindLenderApplication(ctx, c.Session.ApplicationID, lenderKey)
	if err != nil {
		if isCode(err, chairside.ENOTFOUND) {
			return nil, errorf(chairside.ENOTFOUND, "There is no application with this lender yet.")
		}
		return nil, err
	}
	return pa, nil
}

// positive requires a positive decision in one of the given statuses, and
// no lender step in flight.
func (s *Service) positive(pa *chairside.LenderApplication, statuses ...string) error {
	if pa.Decision == nil || !chairside.Positive(pa.Decision.ResponseCode) {
		return errorf(chairside.ECONFLICT, "There is no approved offer from this lender.")
	}
	if pa.InFlight != "" {
		return inFlight(s.lease())
	}
	if s.expired(pa) {
		return errorf(chairside.ECONFLICT, "This offer has expired and can no longer be accepted.")
	}
	for _, st := range statuses {
		if pa.Status == st {
			return nil
		}
	}
	if repriced(pa) {
		return amountChanged()
	}
	return errorf(chairside.ECONFLICT, "This step is not possible now.")
}

// expired reports whether pa's offer is past its expiry and not yet
// accepted: plans, choosing and accepting are refused (docs/behaviour.md,
// "Decision routing"); an offer accepted in time goes on to signing.
func (s *Service) expired(pa *chairside.LenderApplication) bool {
	switch pa.Status {
	case chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed:
		return pa.Decision.ExpiresAt != nil && !s.now().Before(*pa.Decision.ExpiresAt)
	}
	return false
}

// updateIn stores pa, through st (the store or a batch of it), from the
// version it was read at; a stale version (a parallel request moved it
// first) answers the store's conflict, "This step was already done.".
// Inside a batch on PostgreSQL that answer may come when the batch ends
// (store/sql.go, later): no caller acts on it but to pass it on.
func (s *Service) updateIn(ctx context.Context, st Store, pa *chairside.LenderApplication) error {
	pa.UpdatedAt = s.now().UTC()
	return st.UpdateLenderApplication(ctx, pa)
}

// ApplicationStatus asks the lender where its application stands and, when
// a decided application's answer changed (a pending one was approved),
// records the new decision.
func (s *Service) ApplicationStatus(ctx context.Context, c *Caller, lenderKey string) (*chairside.LenderApplication, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if pa.LenderRef == "" || pa.Decision == nil {
		return nil, errorf(chairside.ECONFLICT, "This lender has no application to check yet.")
	}
	d, err := s.lenderStatus(ctx, c.language(), &chairside.LenderApplicationRef{LenderKey: pa.LenderKey, LenderRef: pa.LenderRef})
	if err != nil {
		s.log.Warn("lender status failed", "session", SessionHash(c.Session.ID), "lender", lenderKey, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We did not get an answer from the lender. Please try again.")
	}
	if !moves(pa, d, false) {
		return pa, nil // nothing to record: no transaction
	}
	// The new decision, the version-checked update that proves nothing
	// moved meanwhile, and the event: together or not at all.
	err = s.batch(ctx, c, func(tx Store) error {
		_, err := s.adoptDecision(ctx, tx, c.Session, pa, d, "status_check", false)
		return err
	})
	if err != nil {
		return nil, err
	}
	return pa, nil
}

package flow

import (
	"context"

	"github.com/chairside/chairside"
)

// ownProviderApplication loads the caller's provider application for a
// provider key. The lookup goes through the session's own application, so
// another session's objects are simply not found (BOLA).
func (s *Service) ownProviderApplication(ctx context.Context, c *Caller, providerKey string) (*chairside.ProviderApplication, error) {
	return s.ownProviderApplicationIn(ctx, s.store, c, providerKey)
}

// ownProviderApplicationIn is ownProviderApplication through st, the store
// or a transaction of it.
func (s *Service) ownProviderApplicationIn(ctx context.Context, st chairside.Store, c *Caller, providerKey string) (*chairside.ProviderApplication, error) {
	pa, err := st.FindProviderApplication(ctx, c.Session.ApplicationID, providerKey)
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
func (s *Service) positive(pa *chairside.ProviderApplication, statuses ...string) error {
	if pa.Decision == nil || !chairside.Positive(pa.Decision.ResponseCode) {
		return errorf(chairside.ECONFLICT, "There is no approved offer from this lender.")
	}
	if pa.InFlight != "" {
		return inFlight(s.lease())
	}
	for _, st := range statuses {
		if pa.Status == st {
			return nil
		}
	}
	return errorf(chairside.ECONFLICT, "This step is not possible now.")
}

// Plans asks the lender for payment plans for an amount, saves them as the
// only plans that can be selected, and answers them.
func (s *Service) Plans(ctx context.Context, c *Caller, providerKey string, amountCents int64) (*PlansResponse, error) {
	if amountCents < 1 || amountCents > maxPurchaseCents {
		return nil, errorf(chairside.EBADREQUEST, "amountCents must be between 1 and %d.", maxPurchaseCents)
	}
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if err := s.positive(pa, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	plans, err := lender.Plans(lctx, &chairside.PlansRequest{
		ProviderKey:         providerKey,
		LenderApplicationID: pa.LenderApplicationID,
		AmountCents:         amountCents,
		ApprovedAmountCents: pa.Decision.ApprovedAmountCents,
		Now:                 s.now().UTC(),
	})
	cancel()
	if err != nil {
		s.log.Warn("lender plans failed", "session", SessionHash(c.Session.ID), "provider", providerKey, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We could not get payment plans from the lender. Please try again.")
	}
	// Lender answers are untrusted: our provider key, a code, bounded count.
	kept := make([]chairside.PaymentPlan, 0, len(plans))
	seen := map[string]bool{}
	for _, p := range plans {
		if p.ProviderPlanCode == "" || seen[p.ProviderPlanCode] || len(kept) == maxPlans {
			continue
		}
		seen[p.ProviderPlanCode] = true
		p.ProviderKey = providerKey
		kept = append(kept, p)
	}
	err = s.batch(ctx, func(st chairside.Store) error {
		if err := st.SavePaymentPlans(ctx, pa.ID, kept); err != nil {
			return err
		}
		s.eventIn(ctx, st, c.Session, providerKey, "plans.offered", map[string]any{"count": len(kept)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &PlansResponse{PaymentPlans: kept}, nil
}

// offeredPlan finds a plan code among the plans saved for pa, and refuses
// it when the amount it finances is outside its bounds or above the
// approved amount: the browser hides such plans, the server decides.
func (s *Service) offeredPlan(ctx context.Context, pa *chairside.ProviderApplication, code string) (*chairside.PaymentPlan, error) {
	plans, err := s.store.ListPaymentPlans(ctx, pa.ID)
	if err != nil {
		return nil, err
	}
	for i := range plans {
		if plans[i].ProviderPlanCode == code {
			if !eligible(&plans[i], pa.Decision) {
				return nil, errorf(chairside.ECONFLICT, "This payment plan is not available for this amount. Please choose another plan.")
			}
			return &plans[i], nil
		}
	}
	return nil, errorf(chairside.ENOTFOUND, "This payment plan is not offered.")
}

// eligible reports whether a plan can finance its amount: at least the
// plan's minimum, at most its maximum (when it has one) and at most what
// the lender approved.
func eligible(p *chairside.PaymentPlan, d *chairside.Decision) bool {
	amount := p.AmountFinancedCents
	if amount <= 0 || amount < p.MinAmountCents {
		return false
	}
	if p.MaxAmountCents > 0 && amount > p.MaxAmountCents {
		return false
	}
	return d != nil && amount <= d.ApprovedAmountCents
}

// update stores pa from the version it was read at; a stale version (a
// parallel request moved it first) answers conflict.
func (s *Service) update(ctx context.Context, pa *chairside.ProviderApplication) error {
	return s.updateIn(ctx, s.store, pa)
}

// updateIn is update on st, the store or a batch of it.
func (s *Service) updateIn(ctx context.Context, st chairside.Store, pa *chairside.ProviderApplication) error {
	pa.UpdatedAt = s.now().UTC()
	if err := st.UpdateProviderApplication(ctx, pa); err != nil {
		if isCode(err, chairside.ECONFLICT) {
			return errorf(chairside.ECONFLICT, "This step was already done.")
		}
		return err
	}
	return nil
}

// SelectPlan selects one of the offered plans (again, if the patient
// changes their mind before accepting).
func (s *Service) SelectPlan(ctx context.Context, c *Caller, providerKey, code string) (*chairside.PaymentPlan, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	plan, err := s.offeredPlan(ctx, pa, code)
	if err != nil {
		return nil, err
	}
	if err := s.positive(pa, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed); err != nil {
		return nil, err
	}
	pa.Status = chairside.StatusPlanSelected
	pa.SelectedPlanCode = code
	if err := s.recordPlanStep(ctx, c, pa, "plan.selected"); err != nil {
		return nil, err
	}
	return plan, nil
}

// ConfirmPlan confirms the selected plan; the code must be the selected one.
func (s *Service) ConfirmPlan(ctx context.Context, c *Caller, providerKey, code string) (*chairside.PaymentPlan, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	plan, err := s.offeredPlan(ctx, pa, code)
	if err != nil {
		return nil, err
	}
	if err := s.positive(pa, chairside.StatusPlanSelected); err != nil {
		return nil, err
	}
	if pa.SelectedPlanCode != code {
		return nil, errorf(chairside.ECONFLICT, "This is not the selected payment plan.")
	}
	pa.Status = chairside.StatusPlanConfirmed
	if err := s.recordPlanStep(ctx, c, pa, "plan.confirmed"); err != nil {
		return nil, err
	}
	return plan, nil
}

// recordPlanStep saves a plan selection or confirmation (version-checked)
// with its event, in one transaction.
func (s *Service) recordPlanStep(ctx context.Context, c *Caller, pa *chairside.ProviderApplication, event string) error {
	return s.batch(ctx, func(st chairside.Store) error {
		if err := s.updateIn(ctx, st, pa); err != nil {
			return err
		}
		s.eventIn(ctx, st, c.Session, pa.ProviderKey, event, map[string]any{"providerPlanCode": pa.SelectedPlanCode})
		return nil
	})
}

// ApplicationStatus asks the lender where its application stands and, when
// a decided application's answer changed (a pending one was approved),
// records the new decision.
func (s *Service) ApplicationStatus(ctx context.Context, c *Caller, providerKey string) (*chairside.ProviderApplication, error) {
	pa, err := s.ownProviderApplication(ctx, c, providerKey)
	if err != nil {
		return nil, err
	}
	if pa.LenderApplicationID == "" || pa.Decision == nil {
		return nil, errorf(chairside.ECONFLICT, "This lender has no application to check yet.")
	}
	lender, err := s.lenders.Lender(providerKey)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	d, err := lender.Status(lctx, providerKey, pa.LenderApplicationID)
	cancel()
	if err != nil || d == nil {
		s.log.Warn("lender status failed", "session", SessionHash(c.Session.ID), "provider", providerKey, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We did not get an answer from the lender. Please try again.")
	}
	d = sanitizeDecision(d, providerKey, pa.Decision.Operation)
	if pa.Status == chairside.StatusDecided && pa.InFlight == "" && d.ResponseCode != pa.Decision.ResponseCode {
		d.ID = newID()
		d.ProviderApplicationID = pa.ID
		d.CreatedAt = s.now().UTC()
		if d.LenderApplicationID == "" {
			d.LenderApplicationID = pa.LenderApplicationID
		}
		// The new decision, the version-checked update that proves nothing
		// moved meanwhile, and the event: together or not at all.
		err := s.batch(ctx, func(tx chairside.Store) error {
			if err := tx.CreateDecision(ctx, d); err != nil {
				return err
			}
			pa.Decision = d
			if err := s.updateIn(ctx, tx, pa); err != nil {
				return err
			}
			s.eventIn(ctx, tx, c.Session, providerKey, "decision.updated", map[string]any{"responseCode": d.ResponseCode})
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return pa, nil
}

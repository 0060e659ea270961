package flow

import (
	"context"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/money"
)

// PlansPresented records that plans of these lenders were shown.
func (s *Service) PlansPresented(ctx context.Context, c *Caller, req *PlansPresentedRequest) error {
	if len(req.LenderKeys) > 20 {
		return errorf(chairside.EBADREQUEST, "Too many providerKeys.")
	}
	loc, err := s.location(ctx, c.Session.LocationID)
	if err != nil {
		return err
	}
	keys := make([]string, 0, len(req.LenderKeys))
	for _, k := range req.LenderKeys {
		if loc.Step(k) == nil {
			return errorf(chairside.ENOTFOUND, "This lender is not offered here.")
		}
		keys = append(keys, k)
	}
	s.event(ctx, c.Session, "", "financing_plans.presented", map[string]any{"providerKeys": keys})
	return nil
}

// PlansFor is Plans for a browser's request: one that names the treatment
// amount it was shown, when the office changed it since, is told so
// (amount_changed) rather than priced.
func (s *Service) PlansFor(ctx context.Context, c *Caller, lenderKey string, req *PlansRequest) (*PlansResponse, error) {
	if req.PurchaseAmountCents != 0 {
		app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
		if err != nil {
			return nil, err
		}
		if app.PurchaseAmountCents != req.PurchaseAmountCents {
			return nil, amountChanged()
		}
	}
	return s.Plans(ctx, c, lenderKey, req.AmountCents)
}

// Amounts answers the treatment amount and insurance benefits of the
// caller's application as they stand: what a browser reads again after
// the office changed the amount.
func (s *Service) Amounts(ctx context.Context, c *Caller) (*AmountsResponse, error) {
	app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
	if err != nil {
		return nil, err
	}
	return &AmountsResponse{PurchaseAmountCents: app.PurchaseAmountCents, InsuranceBenefitsCents: app.InsuranceBenefitsCents}, nil
}

// Plans asks the lender for payment plans for an amount, saves them as the
// only plans that can be selected, and answers them.
func (s *Service) Plans(ctx context.Context, c *Caller, lenderKey string, amountCents int64) (*PlansResponse, error) {
	if amountCents < 1 || amountCents > maxPurchaseCents {
		return nil, errorf(chairside.EBADREQUEST, "amountCents must be between 1 and %d.", maxPurchaseCents)
	}
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if err := s.positive(pa, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed); err != nil {
		return nil, err
	}
	lender, err := s.lenders.Lender(lenderKey)
	if err != nil {
		return nil, err
	}
	lctx, cancel := context.WithTimeout(ctx, s.opts.LenderTimeout)
	plans, err := lender.Plans(lctx, &chairside.PlansRequest{
		Language:            c.language(),
		LenderKey:           lenderKey,
		LenderRef:           pa.LenderRef,
		AmountCents:         amountCents,
		ApprovedAmountCents: pa.Decision.ApprovedAmountCents,
		Now:                 s.now().UTC(),
	})
	cancel()
	if err != nil {
		s.log.Warn("lender plans failed", "session", SessionHash(c.Session.ID), "lender", lenderKey, "err", chairside.ErrorCode(err))
		return nil, errorf(chairside.ELENDER, "We could not get payment plans from the lender. Please try again.")
	}
	kept := s.plansToShow(c, pa, lenderKey, amountCents, plans)
	if len(plans) > 0 && len(kept) == 0 {
		return nil, errorf(chairside.ELENDER, "We could not get payment plans from the lender. Please try again.")
	}
	err = s.batch(ctx, c, func(st Store) error {
		if err := st.SavePaymentPlans(ctx, pa.ID, kept); err != nil {
			return err
		}
		s.eventIn(ctx, st, c.Session, lenderKey, "plans.offered", map[string]any{"count": len(kept)})
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &PlansResponse{PaymentPlans: kept}, nil
}

// plansToShow keeps the lender's plans a patient may see. Lender answers
// are untrusted: our lender key, a code, a bounded count, and figures
// that agree with each other and stay within the approval and the amount
// asked (money.Settle, docs/money.md). A plan that does not add up is
// left out, logged and counted; the others are shown.
func (s *Service) plansToShow(c *Caller, pa *chairside.LenderApplication, lenderKey string, amountCents int64,
	plans []chairside.PaymentPlan) []chairside.PaymentPlan {
	bounds := money.Bounds{ApprovedCents: pa.Decision.ApprovedAmountCents, RequestedCents: amountCents}
	kept := make([]chairside.PaymentPlan, 0, len(plans))
	seen := map[string]bool{}
	for _, p := range plans {
		if p.LenderPlanCode == "" || seen[p.LenderPlanCode] || len(kept) == maxPlans {
			continue
		}
		seen[p.LenderPlanCode] = true
		p.LenderKey = lenderKey
		if r := money.Settle(&p, bounds); r != nil {
			s.log.Warn("lender plan refused", "session", SessionHash(c.Session.ID), "lender", lenderKey,
				"plan", p.LenderPlanCode, "reason", r.Reason, "detail", r.Detail)
			s.opts.PlanRefused(lenderKey, r.Reason)
			continue
		}
		kept = append(kept, p)
	}
	return kept
}

// offeredPlan finds a plan code among the plans saved for pa, and refuses
// it when the amount it finances is outside its bounds or above the
// approved amount: the browser hides such plans, the server decides.
func (s *Service) offeredPlan(ctx context.Context, pa *chairside.LenderApplication, code string) (*chairside.PaymentPlan, error) {
	plan, err := s.store.FindPaymentPlan(ctx, pa.ID, code)
	if chairside.ErrorCode(err) == chairside.ENOTFOUND {
		// None left at all after a new amount: the plans are being priced again.
		if repriced(pa) {
			if plans, err := s.store.ListPaymentPlans(ctx, pa.ID); err != nil {
				return nil, err
			} else if len(plans) == 0 {
				return nil, amountChanged()
			}
		}
		return nil, errorf(chairside.ENOTFOUND, "This payment plan is not offered.")
	} else if err != nil {
		return nil, err
	}
	if !eligible(plan, pa.Decision) {
		return nil, errorf(chairside.ECONFLICT, "This payment plan is not available for this amount. Please choose another plan.")
	}
	return plan, nil
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

// SelectPlan selects one of the offered plans (again, if the patient
// changes their mind before accepting).
func (s *Service) SelectPlan(ctx context.Context, c *Caller, lenderKey, code string) (*chairside.PaymentPlan, error) {
	pa, plan, err := s.ownPlan(ctx, c, lenderKey, code, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed)
	if err != nil {
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
func (s *Service) ConfirmPlan(ctx context.Context, c *Caller, lenderKey, code string) (*chairside.PaymentPlan, error) {
	pa, plan, err := s.ownPlan(ctx, c, lenderKey, code, chairside.StatusPlanSelected)
	if err != nil {
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

// ownPlan answers the caller's lender application for providerKey and
// its offered plan code, when the application has a positive decision, is
// in one of statuses and has no lender step in flight.
func (s *Service) ownPlan(ctx context.Context, c *Caller, lenderKey, code string, statuses ...string) (*chairside.LenderApplication, *chairside.PaymentPlan, error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, nil, err
	}
	plan, err := s.offeredPlan(ctx, pa, code)
	if err != nil {
		return nil, nil, err
	}
	if err := s.positive(pa, statuses...); err != nil {
		return nil, nil, err
	}
	return pa, plan, nil
}

// recordPlanStep saves a plan selection or confirmation (version-checked)
// with its event, in one transaction.
func (s *Service) recordPlanStep(ctx context.Context, c *Caller, pa *chairside.LenderApplication, event string) error {
	return s.batch(ctx, c, func(st Store) error {
		if err := s.updateIn(ctx, st, pa); err != nil {
			return err
		}
		s.eventIn(ctx, st, c.Session, pa.LenderKey, event, map[string]any{"providerPlanCode": pa.SelectedPlanCode})
		return nil
	})
}

package flow

import (
	"context"
	"encoding/json"
	"strconv"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// A change of the treatment amount, asked by the office before the patient
// signs (docs/behaviour.md, "Changing the amount"): the treatment plan
// changed, so the amount to finance does. Every lender that approved the
// patient keeps its approval; the plans it offered were priced for the
// old amount, so they are set aside and the patient chooses again. A
// lender whose offer the patient already accepted holds that offer at the
// old amount: it is told, as a lender step made once (the step "amount:"
// and a key of the office's request), and lets the offer go. Each lender
// application then starts a new offer round (chairside.RoundStep): its
// accept, payment, consent and signing steps are made again, once each.
// A signed or completed case keeps its amount: it is canceled or refunded
// instead (changes.go).

// AmountChange is a change of the treatment amount the office asks for:
// from the amount the office was shown (FromCents) to AmountCents.
type AmountChange struct {
	FromCents   int64  `json:"fromCents"`
	AmountCents int64  `json:"amountCents"`
	Reason      string `json:"reason"`
}

// AmountPlan is what a change of amount will do, shown to the office
// before it is sent, and the ground of its answer.
type AmountPlan struct {
	FromCents int64          `json:"fromCents"`
	ToCents   int64          `json:"toCents"`
	Lenders   []AmountLender `json:"lenders"`
}

// AmountLender is one lender that approved the patient, as a change of
// amount touches it: Accepted when the patient accepted its offer, which
// the lender is then asked to let go.
type AmountLender struct {
	LenderKey     string `json:"providerKey"`
	LenderName    string `json:"lenderName"`
	ApprovedCents int64  `json:"approvedCents"`
	Accepted      bool   `json:"accepted"`
}

// AmountResult is the answer to a change of amount: done, or refused by
// the lender of the accepted offer (Message in its words; nothing
// changed). Replayed marks the answer to a repeat of a change already
// made, which the office's audit log records once.
type AmountResult struct {
	AmountPlan
	Status    string `json:"status"`
	Reference string `json:"reference,omitempty"`
	Message   string `json:"message,omitempty"`
	Replayed  bool   `json:"-"`
}

// amountChanged is the patient's error when the office changed the
// amount under them.
func amountChanged() error {
	return errorf(chairside.EAMOUNT, "Your dental office changed the treatment amount. Please choose your payment plan again.")
}

// repriced reports whether pa's plans were set aside by a change of
// amount and not chosen again yet: a patient's step that finds it so was
// sent by a browser that has not heard of the change.
func repriced(pa *chairside.LenderApplication) bool {
	return pa.OfferRound > 0 && pa.Status == chairside.StatusDecided && pa.SelectedPlanCode == ""
}

// noPlanYet is the error of a step that needs a chosen plan where pa has
// none.
func noPlanYet(pa *chairside.LenderApplication) error {
	if repriced(pa) {
		return amountChanged()
	}
	return errorf(chairside.ECONFLICT, "Please choose a payment plan first.")
}

// openOffer reports whether a change of amount resets pa: an approval whose
// offer the patient has not signed.
func openOffer(pa *chairside.LenderApplication) bool {
	if pa.Decision == nil || !chairside.Positive(pa.Decision.ResponseCode) {
		return false
	}
	switch pa.Status {
	case chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed, chairside.StatusOfferAccepted:
		return true
	}
	return false
}

// checkAmountChange checks what does not depend on the case: the amounts'
// range and the reason.
func checkAmountChange(ch *AmountChange) error {
	if ch == nil {
		return errorf(chairside.EBADREQUEST, "A change of amount needs its amounts and a reason.")
	}
	if ch.AmountCents < 100 || ch.AmountCents > maxPurchaseCents {
		return &chairside.Error{Code: chairside.EINVALID, Message: "Please check the amount.",
			FieldErrors: []chairside.FieldError{{Field: "amountCents", Message: "Enter an amount between " +
				chairside.Dollars(100) + " and " + chairside.Dollars(maxPurchaseCents) + "."}}}
	}
	return checkReason(ch.Reason)
}

// amountPlan answers what a change of app's amount to `to` does to its
// lender applications pas, or why it cannot be made now.
func (s *Service) amountPlan(app *chairside.Application, pas []*chairside.LenderApplication, to int64) (*AmountPlan, []*chairside.LenderApplication, error) {
	if to == app.PurchaseAmountCents {
		return nil, nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please check the amount.",
			FieldErrors: []chairside.FieldError{{Field: "amountCents", Message: "This is already the treatment amount."}}}
	}
	if to <= app.InsuranceBenefitsCents {
		return nil, nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please check the amount.",
			FieldErrors: []chairside.FieldError{{Field: "amountCents", Message: "The amount must be more than the insurance benefits (" +
				chairside.Dollars(app.InsuranceBenefitsCents) + ")."}}}
	}
	p := &AmountPlan{FromCents: app.PurchaseAmountCents, ToCents: to, Lenders: []AmountLender{}}
	var accepted []*chairside.LenderApplication
	for _, pa := range pas {
		name := lenderNameOf(pa.LenderKey)
		switch {
		case pa.Status == chairside.StatusCompleted:
			return nil, nil, errorf(chairside.ECONFLICT, "%s has completed this case: cancel or refund it instead.", name)
		case pa.Status == chairside.StatusSigned:
			return nil, nil, errorf(chairside.ECONFLICT, "The patient has signed with %s: the amount can no longer change.", name)
		case pa.InFlight != "":
			return nil, nil, inFlight(s.lease())
		case !openOffer(pa):
			continue
		}
		l := AmountLender{LenderKey: pa.LenderKey, LenderName: name, ApprovedCents: pa.Decision.ApprovedAmountCents,
			Accepted: pa.Status == chairside.StatusOfferAccepted}
		if l.Accepted {
			if _, err := stepOf[chairside.Changes](s, pa.LenderKey); err != nil {
				return nil, nil, errorf(chairside.ECONFLICT, "%s takes a change of amount only on its own site.", name)
			}
			accepted = append(accepted, pa)
		}
		p.Lenders = append(p.Lenders, l)
	}
	if len(accepted) > 1 {
		return nil, nil, errorf(chairside.ECONFLICT, "The patient accepted offers of two lenders: cancel one of them first.")
	}
	return p, accepted, nil
}

// PreviewAmount answers what a change of an application's amount would
// do, without doing it: what the office is shown before it confirms.
func (s *Service) PreviewAmount(ctx context.Context, applicationID string, ch *AmountChange) (*AmountPlan, error) {
	if err := checkAmountChange(ch); err != nil {
		return nil, err
	}
	app, err := s.store.FindApplication(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	pas, err := s.store.ListLenderApplications(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	p, _, err := s.amountPlan(app, pas, ch.AmountCents)
	return p, err
}

// ChangeAmount changes an application's treatment amount, once:
// idempotencyKey is the office request's Idempotency-Key. The change is
// made only from the amount the office was shown (ch.FromCents); a repeat
// that finds the amount already changed to ch.AmountCents is answered as
// done (Replayed), with the lender's recorded answer where a lender was
// asked.
func (s *Service) ChangeAmount(ctx context.Context, applicationID, idempotencyKey string, ch *AmountChange) (*AmountResult, error) {
	if err := checkAmountChange(ch); err != nil {
		return nil, err
	}
	if idempotencyKey == "" {
		return nil, errorf(chairside.EBADREQUEST, "A change needs an Idempotency-Key, so that it is made once.")
	}
	step := chairside.StepAmount + ":" + clientKey(idempotencyKey)[:16]
	res, err := s.changeAmount(ctx, applicationID, idempotencyKey, step, ch)
	if isCode(err, chairside.ECONFLICT) {
		// Another press of the same change may have made it meanwhile.
		if app, ferr := s.store.FindApplication(ctx, applicationID); ferr == nil && app.PurchaseAmountCents == ch.AmountCents {
			return s.amountReplay(ctx, applicationID, step, ch)
		}
	}
	return res, err
}

// changeAmount is ChangeAmount once its request is checked.
func (s *Service) changeAmount(ctx context.Context, applicationID, idempotencyKey, step string, ch *AmountChange) (*AmountResult, error) {
	app, err := s.store.FindApplication(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	if app.PurchaseAmountCents == ch.AmountCents && app.PurchaseAmountCents != ch.FromCents {
		return s.amountReplay(ctx, applicationID, step, ch)
	}
	pas, err := s.store.ListLenderApplications(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	if app.PurchaseAmountCents != ch.FromCents {
		return nil, errorf(chairside.ECONFLICT, "The amount changed meanwhile. Please look at it again.")
	}
	plan, accepted, err := s.amountPlan(app, pas, ch.AmountCents)
	if err != nil {
		return nil, err
	}
	sess, err := s.store.FindSession(ctx, app.SessionID)
	if err != nil {
		return nil, err
	}
	c := &Caller{Session: sess, IdempotencyKey: idempotencyKey}
	if len(accepted) == 0 {
		err := s.batch(ctx, c, func(tx Store) error { return s.applyAmount(ctx, tx, c, applicationID, ch, step) })
		if err != nil {
			return nil, err
		}
		return &AmountResult{AmountPlan: *plan, Status: chairside.ChangeDone}, nil
	}
	pa := accepted[0]
	changes, err := stepOf[chairside.Changes](s, pa.LenderKey)
	if err != nil {
		return nil, err
	}
	_, body, err := s.runStep(ctx, c, pa.LenderKey, s.amountStep(c, applicationID, step, pa, ch, plan, changes))
	if err != nil {
		return nil, err
	}
	return decodeAmount(body)
}

// amountReplay answers a change found already made: from the accepted
// offer's lender call when there was one, else as done.
func (s *Service) amountReplay(ctx context.Context, applicationID, step string, ch *AmountChange) (*AmountResult, error) {
	pas, err := s.store.ListLenderApplications(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	for _, pa := range pas {
		call, err := s.store.FindLenderCall(ctx, pa.ID, step)
		if isCode(err, chairside.ENOTFOUND) {
			continue
		} else if err != nil {
			return nil, err
		}
		if call.State == chairside.CallDone {
			r, err := decodeAmount(call.Response)
			if r != nil {
				r.Replayed = true
			}
			return r, err
		}
	}
	p := AmountPlan{FromCents: ch.FromCents, ToCents: ch.AmountCents, Lenders: []AmountLender{}}
	for _, pa := range pas {
		if openOffer(pa) {
			p.Lenders = append(p.Lenders, AmountLender{LenderKey: pa.LenderKey, LenderName: lenderNameOf(pa.LenderKey),
				ApprovedCents: pa.Decision.ApprovedAmountCents})
		}
	}
	return &AmountResult{AmountPlan: p, Status: chairside.ChangeDone, Replayed: true}, nil
}

func decodeAmount(body []byte) (*AmountResult, error) {
	var out AmountResult
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// amountStep is the lender step that tells the lender of the accepted
// offer of the new amount: claimed after the amount is checked again, and
// recorded, when the lender let the offer go, with the new amount on the
// application and every open offer set aside, in the transaction that
// settles it.
func (s *Service) amountStep(c *Caller, applicationID, step string, pa *chairside.LenderApplication, ch *AmountChange, plan *AmountPlan, changes chairside.Changes) offerStep {
	var answer *chairside.ChangeAnswer
	return offerStep{
		step: step, from: chairside.StatusOfferAccepted, to: chairside.StatusOfferAccepted, event: "offer.amount", read: pa,
		hash: sha256Hex(step + "\x00" + strconv.FormatInt(ch.FromCents, 10) + "\x00" + strconv.FormatInt(ch.AmountCents, 10)),
		prepare: func(ctx context.Context, tx Store, _ *chairside.LenderApplication) error {
			app, err := tx.FindApplication(ctx, applicationID)
			if err == nil && app.PurchaseAmountCents != ch.FromCents {
				err = errorf(chairside.ECONFLICT, "The amount changed meanwhile. Please look at it again.")
			}
			return err
		},
		call: func(ctx context.Context, _ chairside.Lender, cur *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			var err error
			answer, err = changes.ChangeAmount(ctx, &chairside.ChangeRequest{LenderKey: catalogue.BaseKey(cur.LenderKey),
				LenderRef: cur.LenderRef, LenderPlanCode: cur.SelectedPlanCode, FinancedCents: acceptedCents(ctx, s, cur),
				AmountCents: ch.AmountCents, Reason: ch.Reason, Reference: ref, Now: s.now().UTC()})
			if err == nil && (answer == nil || (answer.Status != chairside.ChangeDone && answer.Status != chairside.ChangeRefused)) {
				err = errorf(chairside.ELENDER, "The lender's answer could not be read.")
			}
			return nil, err
		},
		record: func(ctx context.Context, tx Store, _ *chairside.LenderApplication) error {
			if answer.Status != chairside.ChangeDone {
				return nil
			}
			return s.applyAmount(ctx, tx, c, applicationID, ch, step)
		},
		answer: func(*chairside.LenderApplication) (string, any) {
			r := &AmountResult{AmountPlan: *plan, Status: answer.Status, Message: answer.Message}
			if answer.Status == chairside.ChangeDone {
				r.Reference = answer.Reference
			}
			return "offer.amount." + answer.Status, r
		},
	}
}

// acceptedCents is the amount financed by pa's accepted plan, 0 when it
// cannot be read (the lender knows its own offer; the figure is a check).
func acceptedCents(ctx context.Context, s *Service, pa *chairside.LenderApplication) int64 {
	plans, err := s.store.ListPaymentPlans(ctx, pa.ID)
	if err != nil {
		return 0
	}
	for _, p := range plans {
		if p.LenderPlanCode == pa.SelectedPlanCode {
			return p.AmountFinancedCents
		}
	}
	return 0
}

// applyAmount makes a change of amount inside tx: the application's
// amount, set only if it is still the one the office was shown; every
// open offer back to its decision with its plans set aside, in a new
// offer round; an entry on each one's money line; and the event.
func (s *Service) applyAmount(ctx context.Context, tx Store, c *Caller, applicationID string, ch *AmountChange, step string) error {
	if err := tx.ChangePurchaseAmount(ctx, applicationID, ch.FromCents, ch.AmountCents); err != nil {
		return err
	}
	pas, err := tx.ListLenderApplications(ctx, applicationID)
	if err != nil {
		return err
	}
	now := s.now().UTC()
	for _, pa := range pas {
		if !openOffer(pa) {
			continue
		}
		pa.Status, pa.SelectedPlanCode = chairside.StatusDecided, ""
		pa.OfferRound++
		if err := s.updateIn(ctx, tx, pa); err != nil {
			return err
		}
		if err := tx.SavePaymentPlans(ctx, pa.ID, nil); err != nil {
			return err
		}
		if err := tx.RecordMoney(ctx, &chairside.MoneyEntry{LenderApplicationID: pa.ID, LenderKey: pa.LenderKey,
			Kind: chairside.MoneyAmountChanged, AmountCents: ch.AmountCents, Reference: step, On: now, RecordedAt: now}, false); err != nil {
			return err
		}
	}
	s.eventIn(ctx, tx, c.Session, "", "application.amount_changed", map[string]any{"fromCents": ch.FromCents, "toCents": ch.AmountCents})
	return nil
}

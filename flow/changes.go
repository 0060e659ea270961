package flow

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// Changes to a completed case, asked by the office (docs/behaviour.md,
// "After the signature"): void it before the lender funds, refund it in
// full or in part after. Each is a lender step like the patient's, claimed
// before the lender hears of it and made once (step.go). The void is the
// step "void"; a refund is the step "refund:" and a hash of the office
// request's Idempotency-Key, which the office's screen makes once per
// refund it confirms: of any number of presses of one refund exactly one
// reaches the lender, and a second refund is a step of its own. Two
// refunds never run together (one step of a case at a time), and each
// checks the money line again inside its claim, so together they never
// pass what was funded. What the lender answers goes on the money line in
// the transaction that settles the step.

// Change kinds (CaseChange.Kind).
const (
	ChangeVoid   = "void"
	ChangeRefund = "refund"
)

// CaseChange is a change the office asks for.
type CaseChange struct {
	Kind string `json:"kind"`
	// AmountCents is a refund's amount; 0 refunds all that is left.
	AmountCents int64  `json:"amountCents,omitempty"`
	Reason      string `json:"reason"`
}

// ChangePlan is what a change will ask of the lender, shown to the office
// before it is sent, and the ground of its answer.
type ChangePlan struct {
	Kind       string `json:"kind"`
	LenderKey  string `json:"providerKey"`
	LenderName string `json:"lenderName"`
	// AmountCents is what the change is about: the amount financed for a
	// void, the refund for a refund. FinancedCents is the case's amount
	// financed, RefundedCents what was refunded before, LeftCents what is
	// left to refund once this change is made.
	AmountCents   int64 `json:"amountCents"`
	FinancedCents int64 `json:"financedCents"`
	RefundedCents int64 `json:"refundedCents"`
	LeftCents     int64 `json:"leftCents"`
}

// ChangeResult is the lender's answer to a change: done, too late (a void
// after funding: refund instead) or refused, with the lender's words.
type ChangeResult struct {
	ChangePlan
	Status    string `json:"status"`
	Reference string `json:"reference,omitempty"`
	Message   string `json:"message,omitempty"`
}

// moneyState is where a completed case's money stands, read from its line.
type moneyState struct {
	completed *chairside.MoneyEntry
	funded    bool
	voided    bool
	refunded  int64
}

func moneyStateOf(line []*chairside.MoneyEntry, pa *chairside.LenderApplication) moneyState {
	var m moneyState
	for _, e := range line {
		if e.LenderApplicationID != pa.ID {
			continue
		}
		switch e.Kind {
		case chairside.MoneyCompleted:
			m.completed = e
		case chairside.MoneyFunded:
			m.funded = true
		case chairside.MoneyVoided:
			m.voided = true
		case chairside.MoneyRefunded:
			m.refunded += e.AmountCents
		}
	}
	return m
}

// plan checks a change against the money state and answers what it will
// ask: EINVALID, in the office's words, for a change the case cannot
// have now.
func (m moneyState) plan(pa *chairside.LenderApplication, ch *CaseChange) (*ChangePlan, error) {
	if m.completed == nil {
		return nil, errorf(chairside.ECONFLICT, "Only a completed case can be canceled or refunded.")
	}
	financed := m.completed.AmountCents
	p := &ChangePlan{Kind: ch.Kind, LenderKey: pa.LenderKey, LenderName: lenderNameOf(pa.LenderKey),
		FinancedCents: financed, RefundedCents: m.refunded}
	switch {
	case m.voided:
		return nil, errorf(chairside.ECONFLICT, "This case was canceled with the lender.")
	case ch.Kind == ChangeVoid && m.funded:
		return nil, errorf(chairside.ECONFLICT, "The lender has already funded this case: refund it instead.")
	case ch.Kind == ChangeVoid:
		p.AmountCents = financed
	case ch.Kind == ChangeRefund && !m.funded:
		return nil, errorf(chairside.ECONFLICT, "The lender has not funded this case yet: cancel it instead.")
	case ch.Kind == ChangeRefund:
		left := financed - m.refunded
		p.AmountCents = ch.AmountCents
		if p.AmountCents == 0 {
			p.AmountCents = left
		}
		if left <= 0 {
			return nil, errorf(chairside.ECONFLICT, "This case is already refunded in full.")
		}
		if p.AmountCents < 0 || p.AmountCents > left {
			return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please check the amount.",
				FieldErrors: []chairside.FieldError{{Field: "amountCents", Message: "The refund can be at most " + chairside.Dollars(left) + "."}}}
		}
		p.LeftCents = left - p.AmountCents
	default:
		return nil, errorf(chairside.EBADREQUEST, "A change is a void or a refund.")
	}
	return p, nil
}

// completedCase finds an application's completed lender application and
// its money state, through st.
func (s *Service) completedCase(ctx context.Context, st Store, applicationID string) (*chairside.LenderApplication, moneyState, error) {
	pas, err := st.ListLenderApplications(ctx, applicationID)
	if err != nil {
		return nil, moneyState{}, err
	}
	for _, pa := range pas {
		if pa.Status != chairside.StatusCompleted {
			continue
		}
		line, err := st.MoneyLine(ctx, applicationID)
		if err != nil {
			return nil, moneyState{}, err
		}
		return pa, moneyStateOf(line, pa), nil
	}
	return nil, moneyState{}, errorf(chairside.ECONFLICT, "Only a completed case can be canceled or refunded.")
}

// PreviewChange answers what a change of an application would ask of its
// lender, without asking: what the office is shown before it confirms.
func (s *Service) PreviewChange(ctx context.Context, applicationID string, ch *CaseChange) (*ChangePlan, error) {
	if err := checkChange(ch); err != nil {
		return nil, err
	}
	pa, m, err := s.completedCase(ctx, s.store, applicationID)
	if err != nil {
		return nil, err
	}
	return m.plan(pa, ch)
}

// checkChange checks what does not depend on the case: the kind and the
// reason the office must give.
func checkChange(ch *CaseChange) error {
	if ch == nil || (ch.Kind != ChangeVoid && ch.Kind != ChangeRefund) {
		return errorf(chairside.EBADREQUEST, "A change is a void or a refund.")
	}
	return checkReason(ch.Reason)
}

// checkReason checks the reason the office gives for a change.
func checkReason(reason string) error {
	if len(reason) < 3 || len(reason) > 500 {
		return &chairside.Error{Code: chairside.EINVALID, Message: "Please say why.",
			FieldErrors: []chairside.FieldError{{Field: "reason", Message: "Please give the reason, in 3 to 500 characters."}}}
	}
	return nil
}

// ChangeCase makes a change of an application with its lender, once:
// idempotencyKey is the office request's Idempotency-Key, and a repeat
// with it (the same change pressed again, a retry after a lost answer)
// gets the first answer. The lender's answer is recorded on the money
// line and in the case's history.
func (s *Service) ChangeCase(ctx context.Context, applicationID, idempotencyKey string, ch *CaseChange) (*ChangeResult, error) {
	if err := checkChange(ch); err != nil {
		return nil, err
	}
	if idempotencyKey == "" {
		return nil, errorf(chairside.EBADREQUEST, "A change needs an Idempotency-Key, so that it is made once.")
	}
	app, err := s.store.FindApplication(ctx, applicationID)
	if err != nil {
		return nil, err
	}
	sess, err := s.store.FindSession(ctx, app.SessionID)
	if err != nil {
		return nil, err
	}
	pa, m, err := s.completedCase(ctx, s.store, applicationID)
	if err != nil {
		return nil, err
	}
	changes, err := stepOf[chairside.Changes](s, pa.LenderKey)
	if err != nil {
		return nil, errorf(chairside.ECONFLICT, "This lender takes changes only on its own site.")
	}
	step := chairside.StepVoid
	if ch.Kind == ChangeRefund {
		step = chairside.StepRefund + ":" + clientKey(idempotencyKey)[:16]
	}
	// The same request again (pressed twice, retried after a lost answer)
	// is answered from the record, whatever the case became since.
	if prior, err := s.store.FindLenderCall(ctx, pa.ID, step); err == nil && prior.State == chairside.CallDone &&
		prior.ClientKey == clientKey(idempotencyKey) {
		return decodeChange(prior.Response)
	} else if err != nil && !isCode(err, chairside.ENOTFOUND) {
		return nil, err
	}
	plan, err := m.plan(pa, ch)
	if err != nil {
		return nil, err
	}
	c := &Caller{Session: sess, IdempotencyKey: idempotencyKey}
	_, body, err := s.runStep(ctx, c, pa.LenderKey, s.changeStep(applicationID, step, pa, m, ch, plan, changes))
	if err != nil {
		return nil, err
	}
	return decodeChange(body)
}

func decodeChange(body []byte) (*ChangeResult, error) {
	var out ChangeResult
	if err := json.Unmarshal(body, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// changeStep is a change as the lender step that makes it: claimed after
// the money line is read again, asked of the lender's Changes, and
// recorded with its entry on the line.
func (s *Service) changeStep(applicationID, step string, pa *chairside.LenderApplication, m moneyState, ch *CaseChange, plan *ChangePlan, changes chairside.Changes) offerStep {
	var (
		answer  *chairside.ChangeAnswer
		stepRef string
	)
	return offerStep{
		step: step, from: chairside.StatusCompleted, to: chairside.StatusCompleted, event: "case." + ch.Kind, read: pa,
		hash:  sha256Hex(ch.Kind + "\x00" + strconv.FormatInt(plan.AmountCents, 10)),
		allow: func(*chairside.LenderApplication) error { return nil },
		// The money line again, inside the claim: a change made meanwhile
		// (another void, a refund) is seen before the lender is asked.
		prepare: func(ctx context.Context, tx Store, cur *chairside.LenderApplication) error {
			_, now, err := s.completedCase(ctx, tx, applicationID)
			if err != nil {
				return err
			}
			again, err := now.plan(cur, ch)
			if err == nil && *again != *plan {
				err = errorf(chairside.ECONFLICT, "This case changed meanwhile. Please look at it again.")
			}
			return err
		},
		call: func(ctx context.Context, _ chairside.Lender, cur *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			stepRef = ref
			req := &chairside.ChangeRequest{LenderKey: catalogue.BaseKey(cur.LenderKey), LenderRef: cur.LenderRef,
				LenderPlanCode: cur.SelectedPlanCode, FinancedCents: plan.FinancedCents, CompletedAt: m.completed.On,
				AmountCents: plan.AmountCents, RefundedCents: plan.RefundedCents, Reason: ch.Reason, Reference: ref, Now: s.now().UTC()}
			var err error
			if ch.Kind == ChangeVoid {
				answer, err = changes.Void(ctx, req)
			} else {
				answer, err = changes.Refund(ctx, req)
			}
			if err == nil && (answer == nil || answer.Status == "") {
				err = errorf(chairside.ELENDER, "The lender's answer could not be read.")
			}
			return nil, err
		},
		record: func(ctx context.Context, tx Store, cur *chairside.LenderApplication) error {
			return s.recordChange(ctx, tx, cur, plan, answer, stepRef)
		},
		answer: func(*chairside.LenderApplication) (string, any) {
			r := &ChangeResult{ChangePlan: *plan, Status: answer.Status, Message: answer.Message}
			if answer.Status == chairside.ChangeDone {
				r.Reference = answer.Reference
			}
			return "case." + ch.Kind + "." + answer.Status, r
		},
	}
}

// recordChange puts a change's answer on the money line: a void, a
// refund, or a refund refused. A void that came too late moves nothing;
// its case's funding poll is made due at once, so the line learns of the
// funding the lender spoke of.
func (s *Service) recordChange(ctx context.Context, tx Store, pa *chairside.LenderApplication, plan *ChangePlan, a *chairside.ChangeAnswer, stepRef string) error {
	now := s.now().UTC()
	e := &chairside.MoneyEntry{LenderApplicationID: pa.ID, LenderKey: pa.LenderKey, AmountCents: plan.AmountCents,
		Reference: a.Reference, On: now, RecordedAt: now}
	switch {
	case a.Status == chairside.ChangeDone && plan.Kind == ChangeVoid:
		e.Kind = chairside.MoneyVoided
	case a.Status == chairside.ChangeDone:
		e.Kind, e.FeeCents, e.NetCents = chairside.MoneyRefunded, a.FeeReturnedCents, plan.AmountCents-a.FeeReturnedCents
	case a.Status == chairside.ChangeRefused && plan.Kind == ChangeRefund:
		e.Kind, e.Reference = chairside.MoneyRefundRefused, stepRef
	case a.Status == chairside.ChangeTooLate:
		return tx.RescheduleFundingPoll(ctx, pa.ID, now, time.Time{})
	default:
		return nil
	}
	return tx.RecordMoney(ctx, e, false)
}

// lenderNameOf is a lender key's name in the catalogue, or the key.
func lenderNameOf(key string) string {
	if p, err := catalogue.Get(catalogue.BaseKey(key)); err == nil && p.Name != "" {
		return p.Name
	}
	return key
}

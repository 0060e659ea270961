package flow

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/chairside/chairside"
	"github.com/chairside/chairside/catalogue"
)

// Operations of a submit, as in URLs and Decision.Operation.
const (
	OpPrequalify = "prequalify"
	OpPrescreen  = "prescreen"
	OpApply      = "apply"
)

// ApplyStart answers the form for one lender of the caller's waterfall in
// a mode (default: the step's mode), with the treatment amount first while
// the application has none. It writes nothing: the lender application is
// created by the first submit.
func (s *Service) ApplyStart(ctx context.Context, c *Caller, lenderKey, mode string) (*ApplyStartResponse, error) {
	loc, st, err := s.step(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if mode == "" {
		mode = st.ApplyMode
	}
	if !chairside.ValidMode(mode) {
		return nil, errorf(chairside.EBADREQUEST, "mode must be full, prequalify or prescreen.")
	}
	app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
	if err != nil {
		return nil, err
	}
	return s.form(ctx, loc, lenderKey, mode, app.PurchaseAmountCents)
}

// form is a lender's form in a mode at a location, its words in English
// (the transport puts them into the patient's language, as it does error
// messages: httpapi's localizeForm). The treatment amount comes first
// while the application has none: the office gave no amount and no submit
// has stored the patient's.
func (s *Service) form(ctx context.Context, loc *chairside.Location, lenderKey, mode string, purchaseCents int64) (*ApplyStartResponse, error) {
	fields, groups, err := catalogue.Fields(lenderKey, mode)
	if err != nil {
		return nil, err
	}
	lenders := make([]chairside.LenderConfig, 0, len(loc.Waterfall))
	for _, w := range loc.Waterfall {
		p, err := catalogue.Get(w.LenderKey)
		if err != nil {
			s.log.Error("waterfall names an unknown provider", "location", loc.ID, "lender", w.LenderKey)
			continue
		}
		lenders = append(lenders, p)
	}
	if purchaseCents == 0 {
		fields = append([]chairside.FieldDefinition{catalogue.PurchaseAmount()}, fields...)
	}
	if groups == nil {
		groups = []chairside.FieldGroupRule{}
	}
	return &ApplyStartResponse{
		LenderKey:       lenderKey,
		ApplyMode:       mode,
		Fields:          fields,
		FieldGroupRules: groups,
		Lenders:         lenders,
	}, nil
}

// modeOf maps a submit operation to its apply mode.
func modeOf(op string) string {
	if op == OpApply {
		return chairside.ModeFull
	}
	return op
}

// submission is what the precheck of a submit found: everything the claim,
// the lender call and the record need, read before anything is written.
type submission struct {
	loc         *chairside.Location
	step        *chairside.WaterfallStep
	op, mode    string
	doc         *chairside.Document
	consentKind string
	requestHash string
}

// Submit runs a prequalify, prescreen or full application with one lender
// of the caller's waterfall, in the four phases of every lender step
// (step.go): precheck (the lender is in the waterfall, the applicants
// pass its rules, the consent names its current authorisation document),
// claim (one credit pull per lender and operation, within the caps),
// the lender's decision, and its record. A lender error or time-out is an
// ordinary "error" decision. The answer carries next when the decision
// cascades and the waterfall goes on.
//
// The same submit again — a double tap, a retry, with any Idempotency-Key
// or none — answers in_flight while the lender is asked and the first
// answer once it has decided; other data for a submit already decided
// answers idempotency_mismatch. The lender is never asked twice.
//
// With req.Cascade, the lenders after this one are asked within the same
// request while the waterfall goes on to them (cascade.go); the answer
// then carries their decisions in cascaded.
func (s *Service) Submit(ctx context.Context, c *Caller, lenderKey, op string, req *SubmitRequest) (*StepAnswer[DecisionResponse], error) {
	began := time.Now()
	steps := req.Cascade
	req.Cascade = nil
	ans, err := s.submitOne(ctx, c, lenderKey, op, req)
	if err != nil || len(steps) == 0 {
		return ans, err
	}
	return s.cascade(ctx, c, ans, steps, began)
}

// submitOne is Submit with one lender.
func (s *Service) submitOne(ctx context.Context, c *Caller, lenderKey, op string, req *SubmitRequest) (*StepAnswer[DecisionResponse], error) {
	sub, err := s.precheckSubmit(ctx, c, lenderKey, op, req)
	if err != nil {
		return nil, err
	}
	call, app, pa, replay, err := s.claimSubmit(ctx, c, sub, req)
	if err != nil {
		return nil, err
	}
	if replay != nil {
		return recorded[DecisionResponse](replay, nil), nil
	}
	d := s.decide(ctx, c, sub, call, app)
	return s.recordDecision(ctx, c, sub, call, pa, d)
}

// precheckSubmit is a submit's first phase: nothing is written.
func (s *Service) precheckSubmit(ctx context.Context, c *Caller, lenderKey, op string, req *SubmitRequest) (*submission, error) {
	if op != OpPrequalify && op != OpPrescreen && op != OpApply {
		return nil, errorf(chairside.ENOTFOUND, "Unknown operation.")
	}
	loc, st, err := s.step(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	sub := &submission{loc: loc, step: st, op: op, mode: modeOf(op)}
	if !req.JointEnabled {
		req.Joint = nil // never keep a joint applicant the patient switched off
	}
	fe, err := s.validateSubmit(s.patientNow(c), lenderKey, sub.mode, &req.Primary, req.Joint, req.JointEnabled)
	if err != nil {
		return nil, err
	}
	app, err := s.store.FindApplication(ctx, c.Session.ApplicationID)
	if err != nil {
		return nil, err
	}
	fe = append(fe, checkApplicationFields(app, req, s.patientNow(c))...)
	if len(fe) > 0 {
		return nil, &chairside.Error{Code: chairside.EINVALID, Message: "Please review the fields below and correct any errors.", FieldErrors: fe}
	}
	docKind, consentKind := DocPrequalification, chairside.ConsentSoftPull
	if op == OpApply {
		docKind, consentKind = DocApplication, chairside.ConsentHardPull
	}
	if sub.doc, err = s.document(ctx, c.Language, lenderKey, docKind); err != nil {
		return nil, err
	}
	if err := checkConsent(req.Consent, sub.doc); err != nil {
		return nil, err
	}
	sub.consentKind = consentKind
	if sub.requestHash, err = s.submitHash(app, req); err != nil {
		return nil, err
	}
	return sub, nil
}

// submitHash is what makes two submits the same one: the keyed hash (the
// blind-index key, so a stored hash never lets anyone test guesses of the
// personal data it covers) of the request with the treatment amount the
// application holds. The form asks for the amount only until a submit has
// set it, so the same application sent again (Back, then the same button)
// names none, and is still the same submit: it gets the recorded answer
// rather than idempotency_mismatch (docs/behaviour.md, "Decision routing").
func (s *Service) submitHash(app *chairside.Application, req *SubmitRequest) (string, error) {
	canon := *req
	if canon.PurchaseAmountCents == nil && app.PurchaseAmountCents != 0 {
		amount := app.PurchaseAmountCents
		canon.PurchaseAmountCents = &amount
	}
	b, err := json.Marshal(&canon)
	if err != nil {
		return "", err
	}
	return s.keys.BlindIndex(string(b)), nil
}

// claimSubmit is a submit's second phase, one transaction: the lender
// application found or created, the step's lender call claimed, and on
// its first attempt the credit pull reserved against the caps, the
// applicant data, the application's facts (keepApplicationFields) and the
// authorisation recorded. A repeat of a decided
// submit answers replay instead.
func (s *Service) claimSubmit(ctx context.Context, c *Caller, sub *submission, req *SubmitRequest) (call *chairside.LenderCall, app *chairside.Application, pa *chairside.LenderApplication, replay []byte, err error) {
	sess := c.Session
	now := s.now().UTC()
	err = s.batch(ctx, c, func(tx Store) error {
		var err error
		if app, err = tx.FindApplication(ctx, sess.ApplicationID); err != nil {
			return err
		}
		if pa, err = s.lenderApplication(ctx, tx, app.ID, sub.step, sub.mode); err != nil {
			return err
		}
		var fresh bool
		if call, fresh, replay, err = s.claimCall(ctx, tx, c, pa, sub.op, sub.requestHash, true); err != nil || replay != nil {
			return err
		}
		switch pa.Status {
		case chairside.StatusStarted, chairside.StatusDecided, chairside.StatusPlanSelected, chairside.StatusPlanConfirmed:
		default:
			return errorf(chairside.ECONFLICT, "This application was already accepted.")
		}
		if fresh {
			// The application keeps the latest applicant data; the store
			// seals it and sets app.SSNIndex, which the SSN's cap counts
			// by. A cap refused rolls the update back with the rest.
			if err := keepApplicationFields(app, req); err != nil {
				return err
			}
			app.Primary = mergeNames(req.Primary, app.Primary)
			app.Joint = req.Joint
			app.JointEnabled = req.JointEnabled
			app.UpdatedAt = now
			if err := tx.UpdateApplication(ctx, app); err != nil {
				return err
			}
			if err := s.reservePull(ctx, tx, sess, app.SSNIndex, now); err != nil {
				return err
			}
			// The authorisation is a record, not a flag: what was agreed,
			// when, from where (soft and hard pulls are separate kinds).
			if err := tx.CreateConsent(ctx, s.consentRecord(c, sub.step.LenderKey, sub.consentKind, sub.doc, "", nil, now)); err != nil {
				return err
			}
		}
		pa.InFlight = sub.op
		return s.updateIn(ctx, tx, pa)
	})
	return call, app, pa, replay, err
}

// decide is a submit's third phase: the lender's decision, asked with the
// call's reference. A lender that fails or times out gives an "error"
// decision: the patient is told not to apply again and the waterfall goes
// on.
func (s *Service) decide(ctx context.Context, c *Caller, sub *submission, call *chairside.LenderCall, app *chairside.Application) *chairside.Decision {
	testCase := ""
	if s.opts.Env != chairside.EnvProd {
		testCase = app.TestCase
	}
	var d *chairside.Decision
	err := s.callLenderWithin(ctx, sub.step.LenderKey, s.decisionTimeout(sub.step.LenderKey, sub.op), func(ctx context.Context, l chairside.Lender) error {
		var err error
		d, err = l.Decide(ctx, &chairside.DecisionRequest{
			Language:            c.language(),
			LenderKey:           sub.step.LenderKey,
			Operation:           sub.op,
			Reference:           call.Reference,
			Role:                sub.step.Role,
			LocationState:       sub.loc.State,
			PurchaseAmountCents: app.PurchaseAmountCents,
			Primary:             app.Primary,
			Joint:               app.Joint,
			TestCase:            testCase,
			Now:                 call.ClaimedAt,
		})
		return err
	})
	if err == nil && d == nil {
		err = errorf(chairside.ELENDER, "The lender answered nothing.")
	}
	if err == nil {
		if d, err = lenderDecision(d, sub.step.LenderKey, sub.op, chairside.ELENDER); err == nil {
			return d
		}
	}
	// No answer, or a malformed one: the patient hears the lender did not
	// answer, as for any other nonsense.
	s.log.Warn("lender decision failed", "session", SessionHash(c.Session.ID), "lender", sub.step.LenderKey, "operation", sub.op,
		"code", chairside.ErrorCode(err), "err", err.Error())
	d, _ = lenderDecision(&chairside.Decision{ResponseCode: chairside.ResponseError}, sub.step.LenderKey, sub.op, chairside.ELENDER)
	return d
}

// MaxLenderAmountCents bounds every amount a lender's answer may hold,
// whatever the lender: $100,000, above any dental treatment we finance
// (the money engine is checked to $60,000, money/money_test.go). A
// revolving product's own maximum credit limit in the catalogue bounds
// it further.
const MaxLenderAmountCents = 10_000_000

// amountsError says why the amounts of d cannot be a lender's answer for
// providerKey: negative, or above MaxLenderAmountCents or the product's
// own maximum. Such an answer is malformed wherever it comes from (a
// decision, a step's final decision, a status look-up, a webhook) and is
// never recorded.
func amountsError(d *chairside.Decision, lenderKey string) error {
	limit := int64(MaxLenderAmountCents)
	if p, err := catalogue.Get(lenderKey); err == nil && p.MaxCreditLimitCents > 0 {
		limit = min(limit, p.MaxCreditLimitCents)
	}
	switch {
	case d.ApprovedAmountCents < 0 || d.DownPaymentCents < 0:
		return fmt.Errorf("a negative amount")
	case d.ApprovedAmountCents > limit:
		return fmt.Errorf("approved %d cents, above the bound of %d", d.ApprovedAmountCents, limit)
	case d.DownPaymentCents > limit:
		return fmt.Errorf("a down payment of %d cents, above the bound of %d", d.DownPaymentCents, limit)
	}
	return nil
}

// recordDecision is a submit's last phase, one transaction: the call
// settled with the answer for repeats, the decision, the decided status
// and the event. The answer is the JSON recorded. If this attempt lost its
// claim meanwhile, nothing is written and the answer comes from the attempt
// that holds it.
func (s *Service) recordDecision(ctx context.Context, c *Caller, sub *submission, call *chairside.LenderCall, pa *chairside.LenderApplication, d *chairside.Decision) (*StepAnswer[DecisionResponse], error) {
	ctx = context.WithoutCancel(ctx)
	lenderKey := sub.step.LenderKey
	now := s.now().UTC()
	d.ID = newID()
	d.LenderApplicationID = pa.ID
	d.CreatedAt = now
	var (
		resp *DecisionResponse
		body []byte
	)
	err := s.batch(ctx, c, func(tx Store) error {
		resp = &DecisionResponse{Decision: *d}
		// This lender's application and, when the answer sends the patient
		// on, the next lender's: one read.
		keys := []string{lenderKey}
		var nx *chairside.WaterfallStep
		if chairside.Cascades(d.ResponseCode) {
			if nx = sub.loc.Next(lenderKey); nx != nil {
				keys = append(keys, nx.LenderKey)
			}
		}
		pas, err := tx.FindLenderApplications(ctx, pa.ApplicationID, keys...)
		if err != nil {
			return err
		}
		cur := lenderApplicationOf(pas, lenderKey)
		if cur == nil {
			return errorf(chairside.ENOTFOUND, "Provider application not found.")
		}
		if nx != nil {
			resp.Next = nextOf(nx, lenderApplicationOf(pas, nx.LenderKey))
		}
		if body, err = encodeAnswer(resp); err != nil {
			return err
		}
		if err := settleCall(ctx, tx, call, chairside.CallDone, body); err != nil {
			return err
		}
		if err := tx.CreateDecision(ctx, d); err != nil {
			return err
		}
		cur.Status = chairside.StatusDecided
		cur.ApplyMode = sub.mode
		cur.Decision = d
		cur.SelectedPlanCode = ""
		cur.InFlight = ""
		if d.LenderRef != "" {
			cur.LenderRef = d.LenderRef
		}
		if err := s.updateIn(ctx, tx, cur); err != nil {
			return err
		}
		s.eventIn(ctx, tx, c.Session, lenderKey, "decision.recorded", map[string]any{"operation": sub.op, "responseCode": d.ResponseCode})
		return nil
	})
	if err == errClaimLost {
		return s.answerOfTakeover(ctx, pa, sub.op, sub.requestHash)
	}
	if err != nil {
		return nil, err
	}
	s.log.Info("decision recorded", "session", SessionHash(c.Session.ID), "lender", lenderKey, "operation", sub.op, "responseCode", d.ResponseCode)
	return recorded(body, resp), nil
}

// lenderApplicationOf answers the one of pas that is lenderKey's, nil when
// none is.
func lenderApplicationOf(pas []*chairside.LenderApplication, lenderKey string) *chairside.LenderApplication {
	for _, pa := range pas {
		if pa.LenderKey == lenderKey {
			return pa
		}
	}
	return nil
}

// answerOfTakeover answers a submit whose claim another attempt took over:
// that attempt's answer once it is recorded, in_flight until then.
func (s *Service) answerOfTakeover(ctx context.Context, pa *chairside.LenderApplication, step, hash string) (*StepAnswer[DecisionResponse], error) {
	call, err := s.store.FindLenderCall(ctx, pa.ID, step)
	if err != nil {
		return nil, err
	}
	if call.State == chairside.CallDone && call.RequestHash == hash {
		return recorded[DecisionResponse](call.Response, nil), nil
	}
	return nil, errClaimLost
}

// lenderDecision is the one way a lender's decision comes in, from any
// path: untrusted, it answers a malformed error of code (malformed) when
// its amounts are no lender's (amountsError); otherwise a copy with a
// known response code (any other is the lender's error), our lender key
// and operation, and lists never null.
func lenderDecision(d *chairside.Decision, lenderKey, op, code string) (*chairside.Decision, error) {
	if err := amountsError(d, lenderKey); err != nil {
		return nil, errorf(code, "The lender's answer is malformed: %s.", err)
	}
	out := *d
	out.LenderKey = lenderKey
	out.Operation = op
	switch out.ResponseCode {
	case chairside.ResponseApproved, chairside.ResponseDeclined, chairside.ResponseError, chairside.ResponseNoOffer,
		chairside.ResponsePending, chairside.ResponsePreapproved, chairside.ResponsePrequalified:
	default:
		out.ResponseCode = chairside.ResponseError
	}
	// A copy, with each state read by the one rule (stipulation.go).
	out.Stipulations = withStates(out.Stipulations)
	if out.PendingReasons == nil {
		out.PendingReasons = []string{}
	}
	return &out, nil
}

// mergeNames keeps the office's names when the submit leaves them out.
func mergeNames(in, old chairside.Applicant) chairside.Applicant {
	if in.FirstName == "" {
		in.FirstName = old.FirstName
	}
	if in.LastName == "" {
		in.LastName = old.LastName
	}
	return in
}

package flow

import (
	"context"
	"strconv"
	"strings"

	"github.com/chairside/chairside"
)

// offerStep is one of the lender steps that act on an accepted offer:
// acceptOffer, e-sign and complete. runOfferStep runs it in the four phases
// of step.go.
type offerStep struct {
	step  string // chairside.StepAccept, StepESign or StepComplete
	from  string // the status the step starts from
	to    string // the status its lender answer proves
	event string
	// hash is what the step asks of the lender (plan, amount, document):
	// the same step asked again with something else is not a repeat.
	hash string
	// prepare, when set, writes in the claim transaction what must be on
	// record before the lender hears of the step (the e-sign step's
	// consents and signature).
	prepare func(ctx context.Context, tx Store, pa *chairside.LenderApplication) error
	// allow, when set, replaces the check that the step may start now (a
	// positive decision in status from): a patch starts from a pending one.
	allow func(pa *chairside.LenderApplication) error
	// replayAny answers a repeat of the same request with the recorded
	// answer whatever its Idempotency-Key: for the payment method steps,
	// where sending the same account again (a back button, a new tap) can
	// only mean the same thing.
	replayAny bool
	// call asks the lender with the step's reference; complete answers the
	// lender's final decision. An optional step's call asks the step its
	// method found before anything was claimed (stepOf, step.go), not l.
	call func(ctx context.Context, l chairside.Lender, pa *chairside.LenderApplication, reference string) (*chairside.Decision, error)
	// answer, when set, gives the event and the answer recorded, for the
	// first request and repeats alike, from the lender application as
	// recorded (the credit limit change answers its own result, not the
	// application).
	answer func(cur *chairside.LenderApplication) (event string, body any)
	// record, when set, writes what the lender's answer proves besides the
	// status, in the transaction that settles the step (a change's entry
	// on the money line).
	record func(ctx context.Context, tx Store, cur *chairside.LenderApplication) error
	// read is the caller's lender application when it already read it
	// to build the step (the plan to accept, the documents to sign); nil
	// has runStep read it. Either way a step reads it once: the claim's
	// versioned update proves nothing moved it since.
	read *chairside.LenderApplication
}

// runOfferStep claims the step (only from its from status, with no other
// step in flight), asks the lender, and records the answer together with
// the status it proves. A lender failure settles the call as failed and
// hands the step back, so the patient can try again: the retry is sent
// with the same reference. Of parallel requests exactly one reaches the
// lender; a repeat carrying the Idempotency-Key of the request that
// succeeded gets its answer again, any other a conflict.
func (s *Service) runOfferStep(ctx context.Context, c *Caller, lenderKey string, st offerStep) (*StepAnswer[chairside.LenderApplication], error) {
	pa, body, err := s.runStep(ctx, c, lenderKey, st)
	if err != nil {
		return nil, err
	}
	return recorded(body, pa), nil
}

// runStep is runOfferStep answering apart the JSON recorded (body, the
// answer of a step with its own, offerStep.answer) and, for the first
// request, the lender application as recorded (pa); a repeat answers
// the JSON alone.
func (s *Service) runStep(ctx context.Context, c *Caller, lenderKey string, st offerStep) (pa *chairside.LenderApplication, body []byte, err error) {
	if pa = st.read; pa == nil {
		if pa, err = s.ownLenderApplication(ctx, c, lenderKey); err != nil {
			return nil, nil, err
		}
	}
	read := *pa // the caller's copy stays as it read it
	pa = &read
	// The step's call in this offer round: after a change of amount the
	// steps after the decision are made again (chairside.RoundStep).
	st.step = chairside.RoundStep(st.step, pa.OfferRound)
	var (
		call   *chairside.LenderCall
		replay []byte
	)
	err = s.batch(ctx, c, func(tx Store) error {
		var err error
		if call, _, replay, err = s.claimCall(ctx, tx, c, pa, st.step, st.hash, st.replayAny); err != nil || replay != nil {
			return err
		}
		pa.InFlight = "" // positive() refuses a step in flight; this one is ours
		if st.allow != nil {
			err = st.allow(pa)
		} else {
			err = s.positive(pa, st.from)
		}
		if err != nil {
			return err
		}
		if st.prepare != nil {
			if err := st.prepare(ctx, tx, pa); err != nil {
				return err
			}
		}
		// Versioned: when anything moved pa since it was read, the claim
		// is refused and nothing of it kept.
		pa.InFlight = st.step
		return s.updateIn(ctx, tx, pa)
	})
	if err != nil || replay != nil {
		return nil, replay, err
	}

	var final *chairside.Decision
	lerr := s.callLender(ctx, lenderKey, func(ctx context.Context, l chairside.Lender) error {
		var err error
		final, err = st.call(ctx, l, pa, call.Reference)
		return err
	})
	ctx = context.WithoutCancel(ctx)
	if lerr == nil && final != nil {
		final, lerr = lenderDecision(final, lenderKey, pa.Decision.Operation, chairside.ELENDER)
	}
	if lerr != nil {
		s.log.Warn("lender step failed", "session", SessionHash(c.Session.ID), "lender", lenderKey, "step", st.step, "err", chairside.ErrorCode(lerr))
		if _, err := s.recordOfferStep(ctx, c, call, pa, st, nil, lerr); err != nil && err != errClaimLost {
			return nil, nil, err
		}
		if isCode(lerr, chairside.EINVALID) {
			// The lender refused what was sent (a card its issuer declined):
			// the patient may send something else.
			return nil, nil, lerr
		}
		return nil, nil, errorf(chairside.ELENDER, "We did not get an answer from the lender. Please try again.")
	}
	if body, err = s.recordOfferStep(ctx, c, call, pa, st, final, nil); err != nil {
		// errClaimLost: another attempt holds the step; it records the
		// same answer.
		return nil, nil, err
	}
	s.log.Info(st.event, "session", SessionHash(c.Session.ID), "lender", lenderKey)
	return pa, body, nil
}

// recordOfferStep settles an offer step's call in one transaction. On
// success: the call done with the answer for repeats, the status it proves,
// the lender's final decision when it gave one, and the event; it answers
// the answer's JSON as recorded. On a lender failure: the call failed, the
// step handed back (no status change).
func (s *Service) recordOfferStep(ctx context.Context, c *Caller, call *chairside.LenderCall, pa *chairside.LenderApplication, st offerStep, final *chairside.Decision, lerr error) (body []byte, err error) {
	// pa is as the claim wrote it: only this step may move it now, so it
	// is written from there. A lender's news adopted meanwhile (a webhook,
	// a poll) moves its version; then it is read again, once.
	for reread := false; ; reread = true {
		body, err = s.settleOfferStep(ctx, c, call, pa, st, final, lerr, reread)
		if !reread && isCode(err, chairside.ECONFLICT) {
			continue
		}
		return body, err
	}
}

// settleOfferStep is one try of recordOfferStep: from pa as the claim left
// it, or as the store holds it now (reread).
func (s *Service) settleOfferStep(ctx context.Context, c *Caller, call *chairside.LenderCall, pa *chairside.LenderApplication, st offerStep, final *chairside.Decision, lerr error, reread bool) (body []byte, err error) {
	err = s.batch(ctx, c, func(tx Store) error {
		claimed := *pa
		cur := &claimed
		if reread {
			var err error
			if cur, err = tx.FindLenderApplication(ctx, pa.ApplicationID, pa.LenderKey); err != nil {
				return err
			}
		}
		cur.InFlight = ""
		if lerr != nil {
			if err := settleCall(ctx, tx, call, chairside.CallFailed, nil); err != nil {
				return err
			}
			s.eventIn(ctx, tx, c.Session, pa.LenderKey, st.event+".failed", map[string]any{"code": chairside.ErrorCode(lerr)})
			return s.updateIn(ctx, tx, cur)
		}
		moved := cur.Status != st.to
		cur.Status = st.to
		if final != nil {
			d := new(chairside.Decision)
			*d = *final // each try of the record its own copy
			d.ID = newID()
			d.LenderApplicationID = cur.ID
			d.CreatedAt = s.now().UTC()
			if err := tx.CreateDecision(ctx, d); err != nil {
				return err
			}
			cur.Decision = d
			if d.LenderRef != "" {
				// A patched application may carry a new id at the lender.
				cur.LenderRef = d.LenderRef
			}
		}
		// The answer is the lender application as it will be after this
		// transaction (its version included in what updateIn sets).
		if err := s.updateIn(ctx, tx, cur); err != nil {
			return err
		}
		if moved {
			if err := s.recordMoneyAfter(ctx, tx, cur, st.to, call.Reference); err != nil {
				return err
			}
		}
		if st.record != nil {
			if err := st.record(ctx, tx, cur); err != nil {
				return err
			}
		}
		event, answer := st.event, any(cur)
		if st.answer != nil {
			event, answer = st.answer(cur)
		}
		if body, err = encodeAnswer(answer); err != nil {
			return err
		}
		if err := settleCall(ctx, tx, call, chairside.CallDone, body); err != nil {
			return err
		}
		s.eventIn(ctx, tx, c.Session, pa.LenderKey, event, nil)
		*pa = *cur
		return nil
	})
	return body, err
}

// AcceptOffer accepts the confirmed plan with the lender.
func (s *Service) AcceptOffer(ctx context.Context, c *Caller, lenderKey string, req *AcceptOfferRequest) (*StepAnswer[chairside.LenderApplication], error) {
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	if req != nil && req.LenderPlanCode != "" && req.LenderPlanCode != pa.SelectedPlanCode {
		return nil, errorf(chairside.ECONFLICT, "This is not the confirmed payment plan.")
	}
	if pa.SelectedPlanCode == "" {
		return nil, noPlanYet(pa)
	}
	plan, err := s.offeredPlan(ctx, pa, pa.SelectedPlanCode)
	if err != nil {
		return nil, err
	}
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepAccept, from: chairside.StatusPlanConfirmed, to: chairside.StatusOfferAccepted, event: "offer.accepted", read: pa,
		hash: sha256Hex(plan.LenderPlanCode + "\x00" + strconv.FormatInt(plan.AmountFinancedCents, 10)),
		call: func(ctx context.Context, l chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, l.AcceptOffer(ctx, &chairside.OfferRequest{
				Language:       c.language(),
				LenderKey:      lenderKey,
				LenderRef:      pa.LenderRef,
				LenderPlanCode: plan.LenderPlanCode,
				AmountCents:    plan.AmountFinancedCents,
				Reference:      ref,
				Now:            s.now().UTC(),
			})
		},
	})
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}

// ESign signs the accepted offer. The request must carry the patient's
// consents to the lender's current documents — the E-SIGN disclosure, the
// agreement, and, when the offer came from a soft pull, the hard-pull
// authorisation (docs/behaviour.md, "Signing") — and a signature that passes
// the one signature rule. Each consent is its own record, written with the
// signature before the lender hears of them; "signed" is written only with
// the lender's answer.
func (s *Service) ESign(ctx context.Context, c *Caller, lenderKey string, req *ESignRequest) (*StepAnswer[chairside.LenderApplication], error) {
	sig, err := decodeSignature(req.SignaturePNG)
	if err != nil {
		return nil, err
	}
	method, err := s.signatureMethod(ctx, c, req)
	if err != nil {
		return nil, err
	}
	pa, err := s.ownLenderApplication(ctx, c, lenderKey)
	if err != nil {
		return nil, err
	}
	docs, err := s.signingDocuments(ctx, c, lenderKey, pa, req)
	if err != nil {
		return nil, err
	}
	a, err := s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepESign, from: chairside.StatusOfferAccepted, to: chairside.StatusSigned, event: "esign.signed", read: pa,
		hash: docs.hash(),
		prepare: func(ctx context.Context, tx Store, pa *chairside.LenderApplication) error {
			if err := s.stepsOpen(ctx, tx, c, pa, stepsAround(pa)); err != nil {
				return err
			}
			if hardPullAtSigning(pa) != (docs.hardPull != nil) {
				return errorf(chairside.ECONFLICT, "This offer changed while you were signing. Please go back to your plan.")
			}
			now := s.now().UTC()
			signed := s.consentRecord(c, lenderKey, chairside.ConsentESign, docs.esign, pa.SelectedPlanCode, sig, now)
			signed.SignatureMethod = method
			if err := tx.CreateConsent(ctx, signed); err != nil {
				return err
			}
			// An agreement agreed on its own screen was recorded then.
			if docs.agreement != nil {
				if err := tx.CreateConsent(ctx, s.consentRecord(c, lenderKey, chairside.ConsentTerms, docs.agreement, pa.SelectedPlanCode, nil, now)); err != nil {
					return err
				}
			}
			if docs.hardPull == nil {
				return nil
			}
			return tx.CreateConsent(ctx, s.consentRecord(c, lenderKey, chairside.ConsentHardPull, docs.hardPull, pa.SelectedPlanCode, nil, now))
		},
		call: func(ctx context.Context, l chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			return nil, l.ESign(ctx, &chairside.OfferRequest{
				Language:       c.language(),
				LenderKey:      lenderKey,
				LenderRef:      pa.LenderRef,
				LenderPlanCode: pa.SelectedPlanCode,
				Reference:      ref,
				Now:            s.now().UTC(),
			})
		},
	})
	// Once signed, the steps open before completing (Fortiva's cardholder agreement).
	return s.withOpenSteps(ctx, c, lenderKey, a, err)
}

// signingDocs are the lender documents an e-sign's consents name; hardPull
// is nil when the offer came from a full application, whose hard-pull
// authorisation was recorded before applying.
type signingDocs struct {
	esign, agreement, hardPull *chairside.Document
}

// hash identifies what the patient agreed to, for the step's request hash.
func (d *signingDocs) hash() string {
	parts := []string{}
	for _, doc := range []*chairside.Document{d.esign, d.agreement, d.hardPull} {
		if doc != nil {
			parts = append(parts, doc.ID, doc.Version, doc.SHA256)
		}
	}
	return sha256Hex(strings.Join(parts, "\x00"))
}

// hardPullAtSigning reports whether pa's offer becomes an account only
// with a hard-pull authorisation given at signing: it came from a
// prequalify or prescreen, and is not an account the patient already has
// (an existing account opens nothing, so there is no new inquiry to allow).
func hardPullAtSigning(pa *chairside.LenderApplication) bool {
	return pa.Decision == nil || (pa.Decision.Operation != OpApply && !pa.Decision.ExistingAccount)
}

// signingDocuments is the e-sign's precheck of its consents: each must name
// the lender's current document (checkConsent), and the hard-pull one is
// required after a soft pull for a new account (hardPullAtSigning) and
// refused otherwise.
func (s *Service) signingDocuments(ctx context.Context, c *Caller, lenderKey string, pa *chairside.LenderApplication, req *ESignRequest) (*signingDocs, error) {
	agreed, err := agreementAgreed(ctx, s.store, pa)
	if err != nil {
		return nil, err
	}
	var docs signingDocs
	for _, want := range []struct {
		kind string
		in   *ConsentInput
		doc  **chairside.Document
	}{
		{DocESign, req.Consent, &docs.esign},
		{DocAgreement, req.AgreementConsent, &docs.agreement},
		{DocApplication, req.HardPullConsent, &docs.hardPull},
	} {
		if want.kind == DocAgreement && agreed {
			if want.in != nil {
				return nil, errorf(chairside.EBADREQUEST, "agreementConsent: the agreement was already agreed on its own screen.")
			}
			continue
		}
		if want.kind == DocApplication && !hardPullAtSigning(pa) {
			if want.in != nil {
				return nil, errorf(chairside.EBADREQUEST, "hardPullConsent: this offer needs no hard-pull authorisation at signing (it came from a full application, or is an account the patient already has).")
			}
			continue
		}
		if *want.doc, err = s.document(ctx, c.Language, lenderKey, want.kind); err != nil {
			return nil, err
		}
		if err := checkConsent(want.in, *want.doc); err != nil {
			return nil, err
		}
	}
	return &docs, nil
}

// Complete finishes the lender's account opening after signing and records
// the lender's final decision with the completed status.
func (s *Service) Complete(ctx context.Context, c *Caller, lenderKey string) (*StepAnswer[chairside.LenderApplication], error) {
	return s.runOfferStep(ctx, c, lenderKey, offerStep{
		step: chairside.StepComplete, from: chairside.StatusSigned, to: chairside.StatusCompleted, event: "application.completed",
		hash: sha256Hex(chairside.StepComplete),
		prepare: func(ctx context.Context, tx Store, pa *chairside.LenderApplication) error {
			return s.stepsOpen(ctx, tx, c, pa, stepsAround(pa))
		},
		call: func(ctx context.Context, l chairside.Lender, pa *chairside.LenderApplication, ref string) (*chairside.Decision, error) {
			d, err := l.Complete(ctx, &chairside.OfferRequest{
				Language:       c.language(),
				LenderKey:      lenderKey,
				LenderRef:      pa.LenderRef,
				LenderPlanCode: pa.SelectedPlanCode,
				Reference:      ref,
				Now:            s.now().UTC(),
			})
			if err == nil && d == nil {
				err = errorf(chairside.ELENDER, "The lender's answer could not be read.")
			}
			return d, err
		},
	})
}
